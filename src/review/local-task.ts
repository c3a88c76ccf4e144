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
  const subject =
    `Review the changes of commit ${range.headSha} (HEAD) since its merge base ${range.mergeBase} ` +
    `with ${JSON.stringify(baseRef)}, as a pull request into it would show them.`;
  return reviewTask(context, { botLogin: '', focus, subject });
}
