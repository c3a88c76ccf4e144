import type { Actor } from './event.js';
import type { GitHubApi } from './github-api.js';

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
  const permission = await api.permission(actor.login);
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
