import { splitBudget } from './budget.js';
import type { FanoutManifest } from './manifest.js';
import type { ShardResult } from './shard-result.js';

/** What earlier runs of a fan-out left: their trusted results, what could not land, what was spent. */
export interface EarlierOutcome {
  /** Each shard's last trusted result (carried ones included). */
  readonly results: ReadonlyMap<string, ShardResult>;
  /** Shards whose result was untrusted or whose landing was a conflict or rejected: run again. */
  readonly unlandable: ReadonlySet<string>;
  /** Every agent run's cost so far, failed ones included. */
  readonly spentUsd: number;
}

export interface Replan {
  /** The plan with the shards to run again budgeted from what is left of the cap. */
  readonly manifest: FanoutManifest;
  /** The shards to run again, in plan order: failed, over budget, conflict, rejected or never started. */
  readonly again: readonly string[];
  /** The finished results, landed again by the next landing without running their shards again. */
  readonly finished: ReadonlyMap<string, ShardResult>;
}

/**
 * A resume's plan: the same shards, none finished run again, the others given an even share of what
 * is left of `capUsd` (the cap a resume may raise). A finished shard's budget becomes what it cost,
 * so the budgets still add up to at most the cap, as every manifest's must.
 */
export function replan(
  manifest: FanoutManifest,
  earlier: EarlierOutcome,
  capUsd: number,
  capName?: string
): Replan {
  const finished = new Map<string, ShardResult>();
  for (const shard of manifest.shards) {
    const result = earlier.results.get(shard.id);
    if (result?.status === 'done' && !earlier.unlandable.has(shard.id)) finished.set(shard.id, result);
  }
  const again = manifest.shards.filter((shard) => !finished.has(shard.id)).map((shard) => shard.id);
  if (again.length === 0) return { manifest, again, finished };
  const split = splitBudget(capUsd - earlier.spentUsd, again.length, capName ? { capName } : {});
  return {
    manifest: {
      ...manifest,
      totalCapUsd: capUsd,
      shards: manifest.shards.map((shard) => ({
        ...shard,
        // A budget is positive: a finished shard that cost nothing keeps a millionth of a dollar.
        budgetUsd: finished.has(shard.id)
          ? Math.max(finished.get(shard.id)!.costUsd, 1e-6)
          : split.perShardUsd
      }))
    },
    again,
    finished
  };
}
