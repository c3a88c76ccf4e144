import type { AccountType, ThreadComment } from '../api/github-api.js';

/** The action's own account: its login (`bot_name`) and, when known, its numeric user id. */
export interface BotIdentity {
  readonly login: string;
  /** From a `bot_email` of the form `<id>+<login>@users.noreply.github.com`; absent otherwise. */
  readonly id?: number | undefined;
}

/** An account as a payload describes it: the id is there in REST answers, absent in some fakes. */
export interface AccountRef {
  readonly login: string;
  readonly type: AccountType;
  readonly id?: number | undefined;
}

/**
 * Whether an account is the action's own bot: a GitHub Bot account (`type` is `Bot`) whose login
 * is `bot_name`, and, when both the bot's id and the account's id are known, the same id. The
 * login alone is not enough: a workflow may set `bot_name` to a name anyone can register as a
 * normal user (whose type is `User`), and a login can be renamed while the id stays with the account.
 */
export function isActionBotAccount(account: AccountRef, bot: BotIdentity): boolean {
  if (account.type !== 'Bot' || account.login !== bot.login) return false;
  return bot.id === undefined || account.id === undefined || account.id === bot.id;
}

/**
 * Whether a comment was written by the action's own bot (see isActionBotAccount): such a comment
 * may be adopted (edited as the sticky comment, or read for carried state); anyone else's never.
 * Real users cannot take a login ending in `[bot]`, and their account type is `User`.
 */
export function isActionBotComment(
  comment: Pick<ThreadComment, 'login' | 'userType'>,
  botName: string
): boolean {
  return isActionBotAccount({ login: comment.login, type: comment.userType }, { login: botName });
}

/**
 * The bot's numeric id from its commit e-mail, when that is GitHub's noreply address for the same
 * login (`41898282+github-actions[bot]@users.noreply.github.com`); any other address gives none.
 */
export function botIdentity(botName: string, botEmail: string): BotIdentity {
  const noreply = /^(\d{1,15})\+(.+)@users\.noreply\.github\.com$/i.exec(botEmail.trim());
  return noreply !== null && noreply[2] === botName
    ? { login: botName, id: Number(noreply[1]) }
    : { login: botName };
}
