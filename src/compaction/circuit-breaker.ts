/**
 * Stops asking the model for summaries after `maxFailures` failed compactions in a row (one agent
 * saw 50+ failures in a row without such a stop), and half-opens after a cool-down: one more
 * compaction is tried, a success closes it, a failure opens it for another cool-down. A breaker
 * that never closes would leave a long run without summaries for good, because of a passing fault.
 */
export interface BreakerSettings {
  readonly maxFailures: number;
  /** Agent turns after opening before one summary is tried again. */
  readonly cooldownTurns: number;
}

export type BreakerState =
  | { readonly kind: 'closed'; readonly failures: number }
  | { readonly kind: 'open'; readonly since: number; readonly failures: number };

export const CLOSED_BREAKER: BreakerState = { kind: 'closed', failures: 0 };

/** Whether a summary may be asked for at `turn`; the reason when not. */
export function breakerAllows(
  state: BreakerState,
  settings: BreakerSettings,
  turn: number
):
  | { readonly allowed: true; readonly halfOpen: boolean }
  | { readonly allowed: false; readonly reason: string } {
  if (state.kind === 'closed') return { allowed: true, halfOpen: false };
  const waited = turn - state.since;
  if (waited >= settings.cooldownTurns) return { allowed: true, halfOpen: true };
  return {
    allowed: false,
    reason:
      `circuit breaker open after ${state.failures} failed summaries ` +
      `(tries again in ${settings.cooldownTurns - waited} turns)`
  };
}

export function breakerAfter(
  state: BreakerState,
  settings: BreakerSettings,
  turn: number,
  succeeded: boolean
): BreakerState {
  if (succeeded) return CLOSED_BREAKER;
  const failures = state.failures + 1;
  // A failed half-open try opens it again at once; a closed one opens at the limit.
  if (state.kind === 'open' || failures >= settings.maxFailures)
    return { kind: 'open', since: turn, failures };
  return { kind: 'closed', failures };
}
