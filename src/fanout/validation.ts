import { runBoundedCommand, type CommandResult } from '../tools/bounded-command.js';
import { toolEnvironment } from '../tools/environment.js';

/**
 * How a command runs on a shard's code: the validation command in a shard's folder, and the
 * burndown's unit command on the landed change. The CLI and the action give the box the shard's
 * agent had (the folder holds what the agent wrote: `npm test` there runs the agent's code); only
 * `sandbox: off` runs it without one, as the agent's commands ran, bounded and without secrets.
 */
export type ValidationRunner = (
  command: string,
  options: {
    readonly cwd: string;
    readonly timeoutMs: number;
    readonly signal: AbortSignal;
    readonly maxStreamChars: number;
    /** Folders outside `cwd` the box shows read-only (the git objects a shard's repository borrows). */
    readonly readOnlyFolders?: readonly string[];
  }
) => Promise<CommandResult>;

/** The runner without a box: bounded, its children ended afterwards, no secrets in its environment. */
export function unboxedValidation(env: NodeJS.ProcessEnv): ValidationRunner {
  const shellEnv = toolEnvironment(env, []).env;
  return (command, { readOnlyFolders: _unboxed, ...options }) =>
    runBoundedCommand(command, { ...options, env: shellEnv });
}

export interface ValidationRun {
  readonly passed: boolean;
  /** How it ended and the end of its output (both streams): what a retry gives the agent. */
  readonly output: string;
}

/** What of a failing validation's output the agent is shown: the end, where errors usually are. */
export const VALIDATION_OUTPUT_CHARS = 8_000;

/** Runs the validation command in the shard's worktree. Exit 0 passes. */
export async function runValidation(
  command: string,
  workdir: string,
  runner: ValidationRunner,
  timeoutMs: number,
  signal: AbortSignal,
  readOnlyFolders: readonly string[] = []
): Promise<ValidationRun> {
  const result = await runner(command, {
    cwd: workdir,
    readOnlyFolders,
    timeoutMs,
    signal,
    maxStreamChars: VALIDATION_OUTPUT_CHARS * 2
  });
  const how = result.timedOut
    ? `timed out after ${Math.round(timeoutMs / 1000)} s`
    : result.cancelled
      ? 'was cancelled'
      : `exited with code ${result.exitCode}`;
  const output = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ''}`.trim();
  return {
    passed: result.exitCode === 0 && !result.timedOut && !result.cancelled,
    output: `(${how})\n${output.slice(-VALIDATION_OUTPUT_CHARS)}`
  };
}
