import type { StopReason } from './stop-reason.js';

export interface RunLimits {
  readonly maxTurns: number;
  readonly timeoutMs: number;
  readonly maxBudgetUsd: number;
  /**
   * Set when what is left of the thread's budget (max_thread_budget_usd), not max_budget_usd, is
   * this run's budget: a budget stop is then the thread's, and says so.
   */
  readonly thread?: { readonly capUsd: number; readonly spentUsd: number };
}

export interface RunProgress {
  readonly turns: number;
  readonly elapsedMs: number;
  readonly costUsd: number;
}

/** The limits a run can stop at, by the names the `limit` output uses. */
export type LimitName = 'budget' | 'thread_budget' | 'turns' | 'time';

/** The limit a run has reached, checked before each request; undefined while the run may go on. */
export function reachedLimit(progress: RunProgress, limits: RunLimits): StopReason | undefined {
  if (progress.turns >= limits.maxTurns) return 'error_max_turns';
  if (progress.elapsedMs >= limits.timeoutMs) return 'error_timeout';
  if (progress.costUsd >= limits.maxBudgetUsd) return 'error_max_budget_usd';
  return undefined;
}

/** Which limit a run that ended with `reason` stopped at; undefined for a success or a failure. */
export function limitOf(reason: StopReason, limits: Pick<RunLimits, 'thread'>): LimitName | undefined {
  switch (reason) {
    case 'error_max_turns':
      return 'turns';
    case 'error_timeout':
      return 'time';
    case 'error_max_budget_usd':
      return limits.thread ? 'thread_budget' : 'budget';
    default:
      return undefined;
  }
}

export function describeLimit(reason: StopReason, limits: RunLimits): string {
  switch (reason) {
    case 'error_max_turns':
      return `Stopped at the turn limit (max_turns = ${limits.maxTurns}).`;
    case 'error_timeout':
      return `Stopped at the time limit (timeout_minutes = ${limits.timeoutMs / 60_000}).`;
    case 'error_max_budget_usd':
      return limits.thread
        ? `Stopped at the thread's budget limit (max_thread_budget_usd = ${limits.thread.capUsd}; the earlier ` +
            `runs on this thread cost $${limits.thread.spentUsd.toFixed(4)}, so this run had ` +
            `$${limits.maxBudgetUsd.toFixed(4)}).`
        : `Stopped at the budget limit (max_budget_usd = ${limits.maxBudgetUsd}).`;
    default:
      return '';
  }
}
