import type { RunStart } from '../../followup/start-on-thread.js';
import { codeSpan } from '../../github/markdown/outbound-neutralize.js';
import { readFindingThread, resolveFindingThread, type FindingThread } from '../../review/finding-thread.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import { githubClientsOf } from '../stages/github-clients.js';
import { fixKind } from './fix.js';
import type { RunKind } from './run-kind.js';

/**
 * `/agent fix …` asked in a review thread: a fix run whose task holds the thread it was asked in (the
 * finding or remark to fix), pushed to the pull request's branch like any fix on it; once pushed,
 * the bot's own finding's thread is resolved, and the reply in the thread names the commit.
 */
export function findingFixKind(action: ActionContext, request: AcceptedRequest, start: RunStart): RunKind {
  const fix = fixKind(action, request, start);
  const event = action.event;
  let thread: FindingThread | undefined;
  return {
    prepare: async (workspace, progress) => {
      const prepared = await fix.prepare(workspace, progress);
      if (event.kind !== 'pull_request_review_comment') return prepared;
      progress.step = 'reading the review thread';
      thread = await readFindingThread(
        githubClientsOf(action).reviews(),
        event.pullRequest.number,
        { commentId: event.comment.id, inReplyTo: event.comment.inReplyTo },
        action.config.github.botName
      );
      return thread.context === '' ? prepared : { ...prepared, task: `${start.task}\n\n${thread.context}` };
    },
    publishStep: fix.publishStep,
    publish: async (workspace, agent) => {
      const published = await fix.publish(workspace, agent);
      if (event.kind !== 'pull_request_review_comment' || thread === undefined) return published;
      if (published.changes.kind !== 'pushed') return published;
      const commit = (await workspace.git.head()).slice(0, 12);
      const resolved = await resolveFindingThread(
        githubClientsOf(action).reviews(),
        event.pullRequest.number,
        thread
      );
      return {
        ...published,
        threadNote: `Pushed as ${commit} on ${codeSpan(published.changes.branch)}. ${resolved}`
      };
    }
  };
}
