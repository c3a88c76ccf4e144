import { decideCiFix } from './workflow-run-trigger.js';
import type { ActionEvent } from './event.js';
import type { ChangedFile, GitHubApi, PullRequestDetails, ThreadComment } from '../api/github-api.js';
import { isBot } from './permissions.js';
import { untrustedBlock } from '../markdown/inbound-untrusted-text.js';
import { errorMessage } from '../../errors/error-message.js';

/** Characters per token for budgeting prose and markdown (a conservative reading of ~3.6). */
const CHARS_PER_TOKEN = 3;

/**
 * What the model is told about the thread that started it: title, body and recent comments as
 * untrusted data; for a pull request its branches and changed files; for a review comment the
 * file, line and diff hunk. Long threads keep to `budgetTokens`, newest comments first.
 */
export interface ThreadContextOptions {
  readonly budgetTokens: number;
  /** The comment that started the run: its text is the task already. */
  readonly skipCommentId: number | undefined;
  /** Whether a commenter may be heard; comments by others are left out. */
  readonly isTrusted: (login: string) => Promise<boolean>;
}

export async function buildThreadContext(
  event: ActionEvent,
  api: GitHubApi,
  options: ThreadContextOptions
): Promise<string> {
  const { budgetTokens } = options;
  const budget = budgetTokens * CHARS_PER_TOKEN;
  const parts: string[] = [];
  if (event.kind === 'issue_comment' || event.kind === 'issues') {
    const { issue } = event;
    parts.push(`${issue.isPullRequest ? 'Pull request' : 'Issue'} #${issue.number}: ${issue.title}`);
    parts.push(
      untrustedBlock(issue.isPullRequest ? 'pull request body' : 'issue body', issue.user.login, issue.body)
    );
    if (issue.isPullRequest) parts.push(await pullRequestFacts(api, issue.number));
    parts.push(await recentComments(api, issue.number, budget - length(parts), options));
  } else if (event.kind === 'pull_request_review' || event.kind === 'pull_request') {
    // A review's body asks like a comment on the pull request's thread: the same context; so does
    // the pull request itself when review_on_pull_request reviews it.
    const pr = event.pullRequest;
    parts.push(`Pull request #${pr.number}: ${pr.title}`);
    parts.push(untrustedBlock('pull request body', pr.user.login, pr.body));
    parts.push(await pullRequestFacts(api, pr.number));
    parts.push(await recentComments(api, pr.number, budget - length(parts), options));
  } else if (event.kind === 'workflow_run') {
    // A CI fix: the pull request its failed run belongs to (the failure itself is the task).
    const decision = decideCiFix(event);
    if (!decision.run) return '';
    const pr = await api.getPullRequest(decision.pullNumber);
    parts.push(`Pull request #${pr.number}: ${pr.title}`);
    parts.push(untrustedBlock('pull request body', pr.author?.login ?? 'unknown', pr.body));
    parts.push(await pullRequestFacts(api, pr.number));
    parts.push(await recentComments(api, pr.number, budget - length(parts), options));
  } else if (event.kind === 'pull_request_review_comment') {
    const pr = event.pullRequest;
    parts.push(`Pull request #${pr.number}: ${pr.title}`);
    parts.push(untrustedBlock('pull request body', pr.user.login, pr.body));
    parts.push(await pullRequestFacts(api, pr.number));
    const { comment } = event;
    parts.push(
      [
        `The request is a review comment on ${comment.path}${comment.line ? `, line ${comment.line}` : ''}.`,
        'Diff hunk it refers to:',
        '```diff',
        comment.diffHunk,
        '```'
      ].join('\n')
    );
  } else {
    return '';
  }
  const text = parts.filter((part) => part !== '').join('\n\n');
  return `<github-context>\n${text.length > budget ? `${text.slice(0, budget)}\n[... cut to the context budget]` : text}\n</github-context>`;
}

/**
 * The pull request's branches and changed files. Context, not a precondition: when GitHub cannot
 * answer, the model is told so and the run goes on (a review comment's run needs nothing else from
 * this read; where the work itself needs the pull request, the work target has already read it).
 */
async function pullRequestFacts(api: GitHubApi, number: number): Promise<string> {
  let pr: PullRequestDetails;
  let files: ChangedFile[];
  try {
    [pr, files] = await Promise.all([api.getPullRequest(number), api.listPullRequestFiles(number)]);
  } catch (error) {
    const reason = errorMessage(error);
    return `(The pull request's branches and changed files could not be read from GitHub: ${reason}. Use git to see them.)`;
  }
  const shown = files
    .slice(0, 100)
    .map((file) => `- ${file.filename} (${file.status}, +${file.additions} -${file.deletions})`);
  if (files.length > shown.length) shown.push(`- ... and ${files.length - shown.length} more files`);
  return [`Base branch: ${pr.baseRef}; head branch: ${pr.headRef}.`, 'Changed files:', ...shown].join('\n');
}

/**
 * The newest comments that fit, shown oldest first. Left out: the trigger comment, bots, and people
 * without write access (unless include_untrusted_comments), whose words could steer the agent.
 */
async function recentComments(
  api: GitHubApi,
  issue: number,
  budget: number,
  options: ThreadContextOptions
): Promise<string> {
  const comments: ThreadComment[] = [];
  let untrusted = 0;
  for (const comment of await api.listComments(issue)) {
    if (comment.id === options.skipCommentId || isBot({ login: comment.login, type: comment.userType }))
      continue;
    if (await options.isTrusted(comment.login)) comments.push(comment);
    else untrusted++;
  }
  const kept: string[] = [];
  let used = 0;
  for (const comment of [...comments].reverse()) {
    const block = untrustedBlock(`comment ${comment.createdAt}`, comment.login, comment.body);
    if (used + block.length > budget) break;
    kept.unshift(block);
    used += block.length;
  }
  const dropped = comments.length - kept.length;
  return [
    ...(untrusted > 0 ? [`(${untrusted} comments by people without write access left out)`] : []),
    ...(dropped > 0 ? [`(${dropped} older comments left out for length)`] : []),
    ...kept
  ].join('\n\n');
}

function length(parts: readonly string[]): number {
  return parts.reduce((sum, part) => sum + part.length, 0);
}
