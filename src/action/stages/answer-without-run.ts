import * as core from '@actions/core';
import { errorMessage } from '../../errors/error-message.js';
import { defuseMarkers } from '../../github/markdown/outbound-hidden-markers.js';
import type { AcceptedRequest, ActionContext } from './action-context.js';

/**
 * Answers a request that gets no agent run (refused, the thread's budget is spent, or a fan-out
 * started in its own workflow). The answer is the
 * claim's end when the run holds one, so the queue sees the request answered, not still being
 * served; otherwise it is a new comment on the thread. A reply that cannot be posted is a warning.
 */
export async function answerWithoutRun(
  action: ActionContext,
  request: AcceptedRequest,
  text: string,
  /** `served` when the answer is what was asked (a started fan-out): a re-delivery is then a duplicate. */
  claimState: 'failed' | 'served' = 'failed'
): Promise<void> {
  core.info(action.redact(text));
  const claim = request.claim;
  const reply =
    claim !== undefined
      ? request.api.updateComment(
          claim.commentId,
          `${defuseMarkers(action.redact(text))}\n\n${claim.marker(claimState)}`
        )
      : request.thread !== undefined
        ? request.api.createComment(request.thread, action.redact(text))
        : undefined;
  await reply?.catch((error: unknown) => core.warning(`Could not reply: ${errorMessage(error)}`));
}
