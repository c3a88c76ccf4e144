import type { BlockedAttempt } from './blocked-log.js';
import type { SandboxRecord } from './session-box.js';

/** The CLI's account of the box: whether it was on, and each refused destination on a line. */
export function sandboxLines(
  sandbox: (SandboxRecord & { readonly blocked: readonly BlockedAttempt[] }) | undefined
): string[] {
  if (!sandbox) return [];
  if (sandbox.state === 'off') return [`sandbox: off (${sandbox.reason ?? 'unknown'})`];
  const network = sandbox.network === 'off' ? 'no network' : 'allowed hosts only';
  if (sandbox.blocked.length === 0) return [`sandbox: on (${network}), nothing refused`];
  return [
    `sandbox: on (${network}), refused:`,
    ...sandbox.blocked.map(
      (attempt) =>
        `  ${attempt.host}:${attempt.port} ×${attempt.count} (${attempt.reason}), first by: ${JSON.stringify(attempt.firstCommand)}`
    ),
    '  allow a host with --sandbox-allow-hosts host[:port]'
  ];
}
