import type { BlockedAttempt } from './blocked-log.js';
import { ALLOW_HOSTS_HINT } from './egress-proxy.js';

/** What the model is told after a command the proxy refused: which hosts, and who can change it. */
export function refusedNote(blocked: readonly BlockedAttempt[]): string {
  const hosts = blocked.map((attempt) => `${attempt.host}:${attempt.port} (${attempt.reason})`).join(', ');
  return (
    `--- sandbox ---\nThe sandbox refused: ${hosts}. This host is not allowed for this run; do not try ` +
    `to reach it another way. ${ALLOW_HOSTS_HINT}`
  );
}
