import { FanoutInputError } from './fanout-error.js';

/**
 * The least a shard is given: below it, one agent turn with the shard's files may already cost
 * more, and the shard could only stop on its budget. Each shard's budget comes out of the cap in
 * advance because concurrent shards (jobs on other runners) share no state to spend from.
 */
export const MIN_SHARD_BUDGET_USD = 0.05;

export interface BudgetSplit {
  /** Each shard's budget in USD, in the order given (rounded down to the cent). */
  readonly perShardUsd: number;
  /** What is left of the cap after every shard's budget (rounding and nothing more). */
  readonly unassignedUsd: number;
}

/**
 * Splits what is left of the cap evenly over the shards about to run. `pilot` shards (the first
 * ones, tried before the sweep) must be fundable on their own; a cap too small for the pilot or
 * for every shard is a FanoutInputError that says how much is needed.
 */
export function splitBudget(
  availableUsd: number,
  shardCount: number,
  options: {
    readonly pilot?: number;
    readonly minShardUsd?: number;
    /** The cap's name in messages: `--max-total-usd` (the CLI, by default) or `fanout_max_total_usd`. */
    readonly capName?: string;
  } = {}
): BudgetSplit {
  const minimum = options.minShardUsd ?? MIN_SHARD_BUDGET_USD;
  const cap = options.capName ?? '--max-total-usd';
  if (!Number.isFinite(availableUsd) || availableUsd <= 0)
    throw new FanoutInputError(
      `Nothing is left of the total cap ($${Math.max(0, availableUsd).toFixed(2)}) for ${shardCount} shard(s). ` +
        `Raise ${cap} to continue.`
    );
  if (!Number.isInteger(shardCount) || shardCount < 1)
    throw new FanoutInputError('There is no shard to give a budget to.');
  const pilot = options.pilot ?? 0;
  if (pilot > 0 && availableUsd < pilot * minimum)
    throw new FanoutInputError(
      `The cap of $${availableUsd.toFixed(2)} is too small for the pilot of ${pilot} shard(s): each needs at ` +
        `least $${minimum.toFixed(2)}, so $${(pilot * minimum).toFixed(2)} in all. Raise ${cap}.`
    );
  const perShardUsd = Math.floor((availableUsd / shardCount) * 100) / 100;
  if (perShardUsd < minimum)
    throw new FanoutInputError(
      `The cap of $${availableUsd.toFixed(2)} split over ${shardCount} shards gives each $${perShardUsd.toFixed(2)}, ` +
        `under the $${minimum.toFixed(2)} a shard needs. Raise ${cap} to at least ` +
        `$${(shardCount * minimum).toFixed(2)}, or make fewer, larger shards (${cap === '--max-total-usd' ? '--shard-size' : 'fanout.shard_size'}).`
    );
  return { perShardUsd, unassignedUsd: availableUsd - perShardUsd * shardCount };
}
