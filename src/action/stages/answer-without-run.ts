import * as core from '@actions/core';
import { errorMessage } from '../../errors/error-message.js';
import { defuseMarkers } from '../../github/markdown/outbound-hidden-markers.js';
import type { AcceptedRequest, ActionContext } from './action-context.js';

/**
 * Answers a request that gets no run (refused, or the thread's budget is spent). The answer is the
 * claim's end when the run holds one, so the queue sees the request answered, not still being
 * served; otherwise it is a new comment on the thread. A reply that cannot be posted is a warning.
 */
export async function answerWithoutRun(
  action: ActionContext,
  request: AcceptedRequest,
  text: string
): Promise<void> {
  core.info(action.redact(text));
  const claim = request.claim;
  const reply =
    claim !== undefined
      ? request.api.updateComment(
          claim.commentId,
          `${defuseMarkers(action.redact(text))}\n\n${claim.marker('failed')}`
        )
      : request.thread !== undefined
        ? request.api.createComment(request.thread, action.redact(text))
        : undefined;
  await reply?.catch((error: unknown) => core.warning(`Could not reply: ${errorMessage(error)}`));
}
