import { limitOf, type LimitName, type RunLimits } from '../agent/limits.js';
import type { RunResult } from '../agent/run-result.js';
import type { Conclusion } from './outputs.js';

/** How a finished run ended, and whether that fails the step. */
export interface FinishedConclusion {
  readonly conclusion: Extract<Conclusion, 'success' | 'limit' | 'failure'>;
  readonly limit: LimitName | undefined;
  /** The step's failure message; undefined when the step passes. */
  readonly failStep: string | undefined;
}

/**
 * A run that stopped at a limit (budget, thread budget, turns, time) is not a crash: its partial work
 * was published and reported like any run's. Its conclusion is `limit`, and it fails the step only
 * with fail_on_limit. A failure to publish, or an error, is a `failure` and always fails the step.
 */
export function finishedConclusion(
  result: Pick<RunResult, 'stopReason' | 'error' | 'summary' | 'cancelled'>,
  options: {
    readonly limits: Pick<RunLimits, 'thread'>;
    readonly failOnLimit: boolean;
    /** The kind's publishing failed after the agent's work. */
    readonly publishFailure: string | undefined;
  }
): FinishedConclusion {
  if (options.publishFailure !== undefined)
    return { conclusion: 'failure', limit: undefined, failStep: options.publishFailure };
  const limit = result.cancelled ? undefined : limitOf(result.stopReason, options.limits);
  if (result.stopReason === 'success')
    return { conclusion: 'success', limit: undefined, failStep: undefined };
  const stopped = `compact-agent stopped with ${result.stopReason}: ${result.error ?? result.summary}`;
  if (limit === undefined) return { conclusion: 'failure', limit: undefined, failStep: stopped };
  return {
    conclusion: 'limit',
    limit,
    failStep: options.failOnLimit ? `${stopped} (fail_on_limit is on)` : undefined
  };
}
