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
 * The defaults: five runs at the default max_budget_usd (10) per thread; and a limit stop does not
 * fail the step, since its partial work was pushed and reported like any finished run's.
 */
export const LIMIT_DEFAULTS = {
  max_thread_budget_usd: 50,
  fail_on_limit: false
} as const;

/** `max_thread_budget_usd` and `fail_on_limit`; each bad value is a problem naming the input. */
export function readLimitSettings(read: InputReader, problems: string[]): LimitSettings {
  return {
    maxThreadBudgetUsd: threadBudget(read('max_thread_budget_usd'), problems),
    failOnLimit:
      parseBooleanInput(read('fail_on_limit'), 'fail_on_limit', LIMIT_DEFAULTS.fail_on_limit, problems) ??
      LIMIT_DEFAULTS.fail_on_limit
  };
}

function threadBudget(raw: string, problems: string[]): number {
  const value = raw.trim();
  if (value === '') return LIMIT_DEFAULTS.max_thread_budget_usd;
  const amount = Number(value.replace(/^\$/, ''));
  if (!Number.isFinite(amount) || amount <= 0) {
    problems.push(
      `max_thread_budget_usd must be a positive amount of US dollars (e.g. 50), got "${value}". It caps what ` +
        `all runs on one issue or pull request may cost together; leave it empty for the default ` +
        `(${LIMIT_DEFAULTS.max_thread_budget_usd}).`
    );
    return LIMIT_DEFAULTS.max_thread_budget_usd;
  }
  return amount;
}
