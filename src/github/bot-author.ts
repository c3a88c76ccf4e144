import type { ThreadComment } from './github-api.js';

/**
 * Whether a comment was written by the action's own bot: a GitHub Bot account (`user.type` is
 * `Bot`) whose login is `bot_name`. The login alone is not enough: a workflow may set `bot_name`
 * to a name anyone can register as a normal user, and that user's comments must never be adopted
 * (edited as the sticky comment, or read for carried state). Real users cannot take a login ending
 * in `[bot]`, and their account type is `User`.
 */
export function isActionBotComment(
  comment: Pick<ThreadComment, 'login' | 'userType'>,
  botName: string
): boolean {
  return comment.userType === 'Bot' && comment.login === botName;
}
