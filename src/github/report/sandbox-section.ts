import type { BlockedAttempt } from '../../sandbox/blocked-log.js';
import type { SandboxRecord } from '../../sandbox/session-box.js';
import { codeSpan } from '../markdown/outbound-neutralize.js';

/** The refused destinations shown in the report; the transcript has them all. */
const MAX_ROWS = 20;

/**
 * The report's Sandbox section: a warning when the commands ran without the box, and the
 * destinations the box refused (host, port, count, the first command), which the model may have been
 * told to reach by text it read. Hosts and commands are the agent's: shown as code, never as Markdown.
 */
export function renderSandboxSection(
  sandbox: (SandboxRecord & { readonly blocked: readonly BlockedAttempt[] }) | undefined
): string {
  if (!sandbox) return '';
  if (sandbox.state === 'off') {
    if (sandbox.reason === 'sandbox: off') return '';
    return (
      `### Sandbox\n\n⚠️ The agent's commands ran **without the sandbox**: ${codeSpan(sandbox.reason ?? 'unknown')}. ` +
      "They could reach any host and read the runner's files. See compact-agent's docs/security.md#sandbox for what the runner needs; " +
      '`sandbox: required` stops the run instead.'
    );
  }
  if (sandbox.blocked.length === 0) return '';
  const cell = (text: string) => codeSpan(text).replace(/\|/g, '\\|');
  const total = sandbox.blocked.reduce((sum, attempt) => sum + attempt.count, 0);
  const rows = sandbox.blocked.slice(0, MAX_ROWS);
  const more = sandbox.blocked.length - rows.length;
  return [
    `### Sandbox\n\nThe sandbox refused ${total} connection${total === 1 ? '' : 's'} to hosts that are not allowed. ` +
      'If one is needed, add it to `sandbox_allow_hosts`.',
    '',
    '| host | port | count | first command | why |',
    '| --- | ---: | ---: | --- | --- |',
    ...rows.map(
      (attempt) =>
        `| ${cell(attempt.host)} | ${attempt.port} | ${attempt.count} | ${cell(attempt.firstCommand)} | ${attempt.reason} |`
    ),
    ...(more > 0 ? ['', `…and ${more} more (the transcript has them all).`] : [])
  ].join('\n');
}
