import type { Actor } from './event.js';
import type { GitHubApi } from '../api/github-api.js';
import type { TriggerDecision } from './trigger.js';
import { errorFirstLine } from '../../errors/error-message.js';

const CAN_START = new Set(['admin', 'maintain', 'write']);

export type ActorCheck = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/** Where a login's role on the repository comes from: the API, or the run's one lookup per login. */
export type PermissionSource = Pick<GitHubApi, 'permission'>;

/**
 * The permission endpoint asked at most once per login for the whole run: the actor's check, the
 * issue author's check and the thread's commenters all share the answer (a failure too, which each
 * reader judges as before). GitHub logins are case-insensitive, and so is the key.
 */
export function permissionsOncePerRun(api: PermissionSource): PermissionSource {
  const asked = new Map<string, Promise<string>>();
  return {
    permission: (login) => {
      const key = login.toLowerCase();
      let answer = asked.get(key);
      if (answer === undefined) {
        answer = api.permission(login);
        // Read by whoever awaits it; kept from being reported as unhandled until then.
        answer.catch(() => undefined);
        asked.set(key, answer);
      }
      return answer;
    }
  };
}

/**
 * Only people with write access start a run: the permission endpoint decides, not the payload's
 * author_association. Bots are refused unless named in `allowed_bots`.
 */
export async function checkActor(
  api: PermissionSource,
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
export function writeAccessCheck(api: PermissionSource): (login: string) => Promise<boolean> {
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
  const message = errorFirstLine(error);
  return typeof status === 'number' && !message.startsWith(String(status)) ? `${status} ${message}` : message;
}

/**
 * The task is taken only from people with write access: when it is the text of an issue someone
 * else wrote (a label, an assignment or an edit by a writer), its author must have write access
 * too; if not, the decision's fallback is the task, and their words reach the model only as data.
 */
export async function trustedTask(
  decision: Extract<TriggerDecision, { run: true }>,
  api: PermissionSource,
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
