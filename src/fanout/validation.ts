import { runBoundedCommand } from '../tools/bounded-command.js';
import { toolEnvironment } from '../tools/environment.js';

export interface ValidationRun {
  readonly passed: boolean;
  /** The end of its output (both streams), what a retry gives the agent. */
  readonly output: string;
}

/** What of a failing validation's output the agent is shown: the end, where errors usually are. */
export const VALIDATION_OUTPUT_CHARS = 8_000;

/**
 * Runs the validation command in the shard's worktree, as the agent's commands run (bounded, its
 * children ended afterwards, no secrets in its environment). Exit 0 passes.
 */
export async function runValidation(
  command: string,
  workdir: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  signal: AbortSignal
): Promise<ValidationRun> {
  const result = await runBoundedCommand(command, {
    cwd: workdir,
    env: toolEnvironment(env, []).env,
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
