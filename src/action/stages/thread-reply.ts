import type { RunResult } from '../../agent/run-result.js';
import { errorMessage } from '../../errors/error-message.js';
import { defuseMarkers } from '../../github/markdown/outbound-hidden-markers.js';
import { quoteBlock } from '../../github/markdown/outbound-neutralize.js';
import type { PullRequestReviews } from '../../github/api/review-api.js';
import type { ActionContext } from './action-context.js';

/** The summary a thread reply quotes at most; the report has all of it. */
const REPLY_SUMMARY_CHARS = 1_500;

/**
 * A request made inside a review thread (`/agent …` as a reply to a line comment) is answered there,
 * where the person asked: the outcome in a line, the model's summary, and a link to the full report
 * on the pull request. The report itself stays the tracking comment on the conversation.
 */
export async function answerInReviewThread(
  action: ActionContext,
  reviews: PullRequestReviews,
  result: Pick<RunResult, 'stopReason' | 'summary'>,
  reportCommentId: number | undefined,
  /** What the run did to the thread's point (the commit pushed, the thread resolved), when a fix. */
  note?: string
): Promise<void> {
  const { event, runner } = action;
  if (event.kind !== 'pull_request_review_comment') return;
  const pull = event.pullRequest.number;
  const report =
    reportCommentId === undefined
      ? ''
      : `\n\nThe full report: ${runner.serverUrl}/${event.repository.fullName}/pull/${pull}#issuecomment-${reportCommentId}`;
  // Redacted before it is cut and quoted, so that a secret's whole pattern is still there to match.
  const text = action.redact(result.summary);
  const summary = text.length > REPLY_SUMMARY_CHARS ? `${text.slice(0, REPLY_SUMMARY_CHARS - 1)}…` : text;
  const status = result.stopReason === 'success' ? '✅ Done.' : `⏹️ Stopped (${result.stopReason}).`;
  const body = action.redact(
    `${status}${note === undefined ? '' : ` ${note}`}\n\n${summary.trim() === '' ? '_No summary._' : quoteBlock(defuseMarkers(summary))}${report}`
  );
  await reviews
    .replyToReviewComment(pull, event.comment.inReplyTo ?? event.comment.id, body)
    .catch((error: unknown) =>
      action.commands.warning(action.redact(`Could not answer in the review thread: ${errorMessage(error)}`))
    );
}
