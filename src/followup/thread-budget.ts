import type { CarriedState } from './carried-state.js';

/**
 * What a thread (a run and the follow-ups that continue it) has cost before this run: the total the
 * previous run's state carries, and never less than the runs it lists. The state is read only from
 * the bot's own report comment (carried-state.ts), and an artifact's state keeps the comment's costs
 * (artifact-state.ts), so a comment or a file someone else wrote cannot lower it.
 */
export function threadSpentUsd(previous: CarriedState | undefined): number {
  if (previous === undefined) return 0;
  const listed = previous.previousRuns.reduce((sum, run) => sum + run.costUsd, previous.costUsd);
  return Math.max(previous.threadCostUsd ?? 0, listed);
}

/**
 * What the thread spent before this run: the previous run's total, or more when a later state of a
 * run of this workflow that could not be verified says so (findPreviousRun: such a state can only
 * raise the spend).
 */
export function spentBeforeUsd(start: {
  readonly previous: CarriedState | undefined;
  readonly spentUsd?: number | undefined;
}): number {
  return Math.max(start.spentUsd ?? 0, threadSpentUsd(start.previous));
}

/** The thread's cap, what it spent before this run, and so what this run may spend. */
export type ThreadAllowance =
  | {
      readonly kind: 'run';
      /** This run's budget: what is left of the thread's, and at most max_budget_usd. */
      readonly budgetUsd: number;
      /** True when the thread's remainder, not max_budget_usd, set the budget. */
      readonly byThread: boolean;
      readonly spentUsd: number;
      readonly capUsd: number;
    }
  | { readonly kind: 'spent'; readonly spentUsd: number; readonly capUsd: number };

export function threadAllowance(spentUsd: number, capUsd: number, maxBudgetUsd: number): ThreadAllowance {
  const left = capUsd - spentUsd;
  if (left <= 0) return { kind: 'spent', spentUsd, capUsd };
  return {
    kind: 'run',
    budgetUsd: Math.min(left, maxBudgetUsd),
    byThread: left < maxBudgetUsd,
    spentUsd,
    capUsd
  };
}

/** The reply to a request on a thread that has spent its budget: what was spent, the cap, and the way on. */
export function threadBudgetReply(allowance: { spentUsd: number; capUsd: number }): string {
  return (
    `⏹️ compact-agent did not start: the runs on this thread have cost $${allowance.spentUsd.toFixed(4)} in all, ` +
    `which reaches its budget of $${allowance.capUsd} ` +
    '(`max_thread_budget_usd`). To go on here, a maintainer raises `max_thread_budget_usd` under the ' +
    "compact-agent step's `with:` in the workflow file, then asks again; or open a new issue for new work, " +
    'which starts with a budget of its own.'
  );
}
