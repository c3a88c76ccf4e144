import { z } from 'zod';
import { defineTool } from './tool.js';
import { capText } from './cap-text.js';
import { runBoundedCommand, type CommandResult } from './bounded-command.js';
import { judgeBashCommand, type BashLimits } from './limits/bash-rules.js';
import { ToolDeniedError } from './limits/denied.js';
import type { CommandBox } from '../sandbox/command-box.js';
import { refusedNote } from '../sandbox/refused-note.js';

export type { CommandResult } from './bounded-command.js';

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
const MAX_BASH_TIMEOUT_MS = 600_000;
/** Per stream; a command that prints more keeps its head and tail, which hold what matters. */
export const MAX_STREAM_CHARS = 30_000;

const bashInput = z.object({
  command: z.string().min(1).describe('The shell command to run (bash -c) in the repository root.'),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .max(MAX_BASH_TIMEOUT_MS)
    .optional()
    .describe(`Timeout in milliseconds (default ${DEFAULT_BASH_TIMEOUT_MS}, at most ${MAX_BASH_TIMEOUT_MS}).`)
});

export function createBashTool(
  defaultTimeoutMs = DEFAULT_BASH_TIMEOUT_MS,
  limits?: BashLimits,
  box?: CommandBox
) {
  return defineTool({
    name: 'bash',
    description:
      'Run a shell command in the repository root. Returns the exit code, stdout and stderr ' +
      `(each capped at ${MAX_STREAM_CHARS} characters, head and tail kept). ` +
      'Use it to run tests, builds and git commands. Do not push: the action commits and pushes for you. ' +
      'Processes the command leaves running in the background are killed when it ends.' +
      boxNote(box) +
      limitsNote(limits),
    inputSchema: bashInput,
    async run(input, context) {
      // Judged before anything runs: a denied command never reaches the shell.
      const verdict = limits ? judgeBashCommand(input.command, limits) : undefined;
      if (verdict && !verdict.allowed) throw new ToolDeniedError(verdict.message, verdict.rule, verdict.head);
      const result = await runBoundedCommand(input.command, {
        cwd: context.workspace.root,
        env: context.env,
        timeoutMs: input.timeout_ms ?? defaultTimeoutMs,
        signal: context.signal,
        maxStreamChars: MAX_STREAM_CHARS * 4,
        ...(box ? { box } : {})
      });
      const refused = result.blocked && result.blocked.length > 0 ? `\n${refusedNote(result.blocked)}` : '';
      return {
        content: formatCommandResult(result) + refused,
        isError: result.exitCode !== 0 || refused !== '',
        ...(result.blocked && result.blocked.length > 0
          ? { sandboxBlocked: result.blocked.map(({ host, port, reason }) => ({ host, port, reason })) }
          : {})
      };
    }
  });
}

/** Told up front: the model should not try to reach a host it cannot, nor read the runner's files. */
function boxNote(box: CommandBox | undefined): string {
  if (!box) return '';
  return box.network === 'off'
    ? ' Commands run in a sandbox without network, with a scratch HOME and /tmp; only the repository is shared.'
    : ' Commands run in a sandbox with a scratch HOME and /tmp; only the repository is shared. The network reaches' +
        ' only allowed hosts, through the HTTP(S) proxy set in HTTP_PROXY/HTTPS_PROXY (package registries by default).';
}

/** Told up front, so the model does not spend turns finding the limits by trial. */
function limitsNote(limits: BashLimits | undefined): string {
  if (!limits) return '';
  const list = (prefixes: BashLimits['allowed']) => prefixes.map((prefix) => prefix.text).join(', ');
  return [
    ' This run limits bash commands; every part of a command joined with ;, &&, ||, | or & is checked, and',
    ' $(…), backticks, subshells, if/for/while and redirection to files are refused.',
    limits.allowed.length > 0 ? ` Each part must start with one of: ${list(limits.allowed)}.` : '',
    limits.disallowed.length > 0 ? ` Never allowed: ${list(limits.disallowed)}.` : ''
  ].join('');
}

export function formatCommandResult(result: CommandResult): string {
  const status = result.timedOut
    ? 'timed out (killed)'
    : result.cancelled
      ? 'cancelled (killed)'
      : `exit code: ${result.exitCode ?? 'none'}`;
  return [
    status,
    '--- stdout ---',
    capText(result.stdout, MAX_STREAM_CHARS),
    '--- stderr ---',
    capText(result.stderr, MAX_STREAM_CHARS)
  ].join('\n');
}
