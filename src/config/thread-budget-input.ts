import { parseBooleanInput } from './boolean-input.js';
import type { InputReader } from './inputs.js';

/** How a thread's spend is capped, and what a run that stops at a limit does to the step. */
export interface LimitSettings {
  /** The most all runs of one thread (a run and its follow-ups) may cost together, in USD. */
  readonly maxThreadBudgetUsd: number;
  /** Whether a run that stops at a limit (budget, thread budget, turns, time) fails the step. */
  readonly failOnLimit: boolean;
}

/**
 * Unset, a thread may cost this many times max_budget_usd (50 with the default 10): a raised
 * max_budget_usd raises it too, so that it never cuts a single run short by surprise.
 */
export const THREAD_BUDGET_RUNS = 5;

/** A limit stop does not fail the step by default: its partial work was pushed and reported like any run's. */
export const LIMIT_DEFAULTS = {
  fail_on_limit: false
} as const;

/** `max_thread_budget_usd` and `fail_on_limit`; each bad value is a problem naming the input. */
export function readLimitSettings(
  read: InputReader,
  problems: string[],
  maxBudgetUsd: number
): LimitSettings {
  return {
    maxThreadBudgetUsd:
      threadBudget(read('max_thread_budget_usd'), problems) ?? THREAD_BUDGET_RUNS * maxBudgetUsd,
    failOnLimit:
      parseBooleanInput(read('fail_on_limit'), 'fail_on_limit', LIMIT_DEFAULTS.fail_on_limit, problems) ??
      LIMIT_DEFAULTS.fail_on_limit
  };
}

function threadBudget(raw: string, problems: string[]): number | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  const amount = Number(value.replace(/^\$/, ''));
  if (!Number.isFinite(amount) || amount <= 0) {
    problems.push(
      `max_thread_budget_usd must be a positive amount of US dollars (e.g. 50), got "${value}". It caps what ` +
        'all runs on one issue or pull request may cost together; leave it empty for the default ' +
        `(${THREAD_BUDGET_RUNS} times max_budget_usd).`
    );
    return undefined;
  }
  return amount;
}
