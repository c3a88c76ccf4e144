import type { Actor } from './event.js';
import type { GitHubApi } from './github-api.js';
import type { TriggerDecision } from './trigger.js';

const CAN_START = new Set(['admin', 'maintain', 'write']);

export type ActorCheck = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/**
 * Only people with write access start a run: the permission endpoint decides, not the payload's
 * author_association. Bots are refused unless named in `allowed_bots`.
 */
export async function checkActor(
  api: GitHubApi,
  actor: Actor,
  allowedBots: readonly string[]
): Promise<ActorCheck> {
  if (isBot(actor)) {
    const name = botName(actor.login);
    return allowedBots.map(botName).includes(name)
      ? { allowed: true }
      : {
          allowed: false,
          reason: `@${actor.login} is a bot, and bots start runs only when named in allowed_bots`
        };
  }
  let permission: string;
  try {
    permission = await api.permission(actor.login);
  } catch (error) {
    // A 404 (not a collaborator, or a token that cannot see them) or any other failure: not allowed.
    return {
      allowed: false,
      reason: `the write access of @${actor.login} could not be checked (${firstLine(error)}), so nothing runs; a maintainer can retry once the permission lookup works`
    };
  }
  return CAN_START.has(permission)
    ? { allowed: true }
    : {
        allowed: false,
        reason: `@${actor.login} has ${permission} access to this repository; starting the agent needs write, maintain or admin`
      };
}

export function isBot(actor: Actor): boolean {
  return actor.type === 'Bot' || actor.login.endsWith('[bot]');
}

function botName(login: string): string {
  return login.replace(/\[bot\]$/, '').toLowerCase();
}

/** Whether a commenter has write access; each login is asked once per run. */
export function writeAccessCheck(api: GitHubApi): (login: string) => Promise<boolean> {
  const known = new Map<string, Promise<boolean>>();
  return (login) => {
    let answer = known.get(login);
    if (!answer) {
      answer = api.permission(login).then(
        (permission) => CAN_START.has(permission),
        () => false
      );
      known.set(login, answer);
    }
    return answer;
  };
}

function firstLine(error: unknown): string {
  const status = (error as { status?: unknown }).status;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
  return typeof status === 'number' && !message.startsWith(String(status)) ? `${status} ${message}` : message;
}

/**
 * The task is taken only from people with write access: when it is the text of an issue someone
 * else wrote (a label, an assignment or an edit by a writer), its author must have write access
 * too; if not, the decision's fallback is the task, and their words reach the model only as data.
 */
export async function trustedTask(
  decision: Extract<TriggerDecision, { run: true }>,
  api: GitHubApi,
  actor: Actor | undefined,
  log: (message: string) => void
): Promise<string> {
  const author = decision.taskAuthor;
  if (!author || author.login === actor?.login) return decision.task;
  const check = await checkActor(api, author, []);
  if (check.allowed) return decision.task;
  log(`The issue's own text is not the task, only data: ${check.reason}.`);
  return decision.taskIfAuthorUntrusted ?? decision.task;
}
