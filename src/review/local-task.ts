import type { LocalReviewRange } from './local-context.js';
import type { ReviewContext } from './review-context.js';
import { reviewTask } from './review-task.js';

/**
 * The first message of a local review: the pull request's (reviewTask: the patches, the focus),
 * opened with what is reviewed here instead of a pull request number a local review does not have.
 * No bot has posted anything, so no earlier finding is listed.
 */
export function localReviewTask(
  context: ReviewContext,
  range: LocalReviewRange,
  baseRef: string,
  focus: string | undefined
): string {
  const task = reviewTask(context, { botLogin: '', focus });
  const opening = `Review pull request #${context.pullNumber} at commit ${context.headSha}.`;
  const local =
    `Review the changes of commit ${range.headSha} (HEAD) since its merge base ${range.mergeBase} ` +
    `with ${JSON.stringify(baseRef)}, as a pull request into it would show them.`;
  // Should reviewTask's opening change, its own wording stands: still right, only less precise.
  return task.startsWith(opening) ? `${local}${task.slice(opening.length)}` : task;
}
