import type { ThreadRecord } from '../transcript/events.js';
import { pullRequestNumberOf, repositoryOf, threadOf } from './event-parts.js';
import { runUrl } from './runner-env.js';
import type { ActionContext } from './stages/action-context.js';
import type { WorkTarget } from './work-target.js';

/**
 * Where the run is on GitHub, for its transcript (the audit page links them): the thread it answers,
 * its workflow run, and its pull request. A new branch has no pull request yet when the run starts:
 * its link is the repository's pull requests from that branch, the `head:` qualifier of GitHub's
 * search ("Searching issues and pull requests", search by branch name:
 * https://docs.github.com/en/search-github/searching-on-github/searching-issues-and-pull-requests,
 * read 2026-11-26), which lists the pull request once it is opened.
 */
export function runLinksOf(action: ActionContext, target: WorkTarget): NonNullable<ThreadRecord['links']> {
  const { event, runner, config } = action;
  const repository = repositoryOf(event, runner);
  const base = `${runner.serverUrl}/${repository.owner}/${repository.name}`;
  const thread = threadOf(event, config.github.reportIssue);
  const isPullRequest = thread !== undefined && pullRequestNumberOf(event) === thread;
  const pullNumber = 'pullNumber' in target ? target.pullNumber : undefined;
  const branch = target.kind === 'fork' ? undefined : target.branch;
  return {
    ...(thread !== undefined ? { thread: `${base}/${isPullRequest ? 'pull' : 'issues'}/${thread}` } : {}),
    run: runUrl(runner),
    ...(pullNumber !== undefined
      ? { pull_request: `${base}/pull/${pullNumber}` }
      : branch !== undefined
        ? { pull_request: `${base}/pulls?q=${encodeURIComponent(`is:pr head:${branch}`)}` }
        : {})
  };
}
