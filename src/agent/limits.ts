import type { StopReason } from './stop-reason.js';

export interface RunLimits {
  readonly maxTurns: number;
  readonly timeoutMs: number;
  readonly maxBudgetUsd: number;
}

export interface RunProgress {
  readonly turns: number;
  readonly elapsedMs: number;
  readonly costUsd: number;
}

/** The limit a run has reached, checked before each request; undefined while the run may go on. */
export function reachedLimit(progress: RunProgress, limits: RunLimits): StopReason | undefined {
  if (progress.turns >= limits.maxTurns) return 'error_max_turns';
  if (progress.elapsedMs >= limits.timeoutMs) return 'error_timeout';
  if (progress.costUsd >= limits.maxBudgetUsd) return 'error_max_budget_usd';
  return undefined;
}

export function describeLimit(reason: StopReason, limits: RunLimits): string {
  switch (reason) {
    case 'error_max_turns':
      return `Stopped at the turn limit (max_turns = ${limits.maxTurns}).`;
    case 'error_timeout':
      return `Stopped at the time limit (timeout_minutes = ${limits.timeoutMs / 60_000}).`;
    case 'error_max_budget_usd':
      return `Stopped at the budget limit (max_budget_usd = ${limits.maxBudgetUsd}).`;
    default:
      return '';
  }
}
