import { mentionOf } from '../../github/report/report-top.js';
import type { FinishedConclusion } from '../conclusion.js';

const ENDED: Readonly<Record<FinishedConclusion['conclusion'], string>> = {
  success: 'has finished',
  limit: 'stopped at a limit',
  failure: 'failed'
};

/**
 * The reply that tells the requester the run has ended. The report is the tracking comment edited in
 * place, and GitHub sends no notification for an edit, so the report's own mention reaches nobody
 * while this new comment does. Only a plain user's login is mentioned (never a bot, never text from
 * the thread), and the link is built from numbers: nothing in it was written by anyone else.
 */
export function endNotice(
  requester: string | undefined,
  conclusion: FinishedConclusion['conclusion'],
  reportUrl: string
): string | undefined {
  const mention = requester === undefined ? undefined : mentionOf(requester);
  if (mention === undefined) return undefined;
  return `${mention} the run you asked for ${ENDED[conclusion]}: [the report](${reportUrl}).`;
}

/** Where an issue comment is shown (GitHub sends /issues/N to /pull/N for a pull request). */
export function commentUrl(repositoryUrl: string, thread: number, commentId: number): string {
  return `${repositoryUrl}/issues/${thread}#issuecomment-${commentId}`;
}
