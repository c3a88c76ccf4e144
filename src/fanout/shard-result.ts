import path from 'node:path';
import { z } from 'zod';
import type { ManifestShard } from './manifest.js';
import { judgeScope } from './scope-guard.js';

/** A run folder's name (newRunId: 20261122T070102Z-3fa9c1). */
const RUN_FOLDER_NAME = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;

/** How a shard's run ended. `over-budget` stopped on its share of the cap; `failed` on anything else. */
export const SHARD_RUN_STATUSES = ['done', 'failed', 'over-budget'] as const;

const validationSchema = z.object({
  command: z.string().max(10_000),
  passed: z.boolean(),
  /** How many times it ran (the first run and each retry after the agent got the errors). */
  attempts: z.number().int().positive(),
  /** The tail of the last failing run's output, what the last retry was given. */
  lastFailure: z.string().max(20_000).optional()
});

/**
 * What one shard's run leaves for the landing: written by the shard, read by the land step (in the
 * action, from an artifact). The patch is against `base`, and holds only in-scope paths; the paths
 * the guard refused are listed and counted, never applied.
 */
export const shardResultSchema = z.object({
  shardId: z.string().regex(/^shard-\d{2,6}$/),
  planId: z.string().regex(/^[0-9a-f]{8,64}$/),
  status: z.enum(SHARD_RUN_STATUSES),
  base: z.string().regex(/^[0-9a-f]{40,64}$/),
  costUsd: z.number().nonnegative().finite(),
  budgetUsd: z.number().positive().finite(),
  stopReason: z.string().max(100),
  error: z.string().max(4_000).optional(),
  files: z.array(z.string().max(4096)).max(100_000),
  refusedPaths: z.array(z.string().max(4096)).max(100_000),
  validation: validationSchema.optional(),
  /** The agent runs of this shard (one, plus one per validation retry): their run folders. */
  runs: z.array(z.string().max(4096)).max(100),
  patch: z.string().max(50_000_000)
});

export type ShardResult = z.infer<typeof shardResultSchema>;
export type ShardRunStatus = ShardResult['status'];

/**
 * Why a result cannot be trusted for its shard, or undefined when it can: it names another shard
 * or plan, claims files outside the shard's scope, or a cost that does not fit its status (more
 * than its budget without being over budget). The landing checks the patch's own paths again.
 */
export function resultProblem(
  result: ShardResult,
  shard: ManifestShard,
  planId: string,
  /** The most this attempt can have been given: the plan's budget, or on a resume what was left of the cap. */
  maxBudgetUsd: number
): string | undefined {
  if (result.shardId !== shard.id || result.planId !== planId)
    return `the result is for ${result.shardId} of plan ${result.planId}, not ${shard.id} of plan ${planId}`;
  const outside = judgeScope(result.files, shard.paths).outOfScope;
  if (outside.length > 0)
    return `the result names files outside the shard's scope: ${outside.slice(0, 5).join(', ')}`;
  if (result.budgetUsd > maxBudgetUsd + 1e-9)
    return `the result claims a budget of $${result.budgetUsd}, more than the $${maxBudgetUsd} it can have been given`;
  // Whoever reads a run's transcript joins its folder name to a transcripts folder: it must be a run id.
  const strange = result.runs.find((run) => !RUN_FOLDER_NAME.test(path.basename(run)));
  if (strange !== undefined)
    return `the result names a run folder that is not a run id: ${JSON.stringify(strange.slice(0, 200))}`;
  if (result.costUsd > result.budgetUsd && result.status !== 'over-budget')
    return `the result costs $${result.costUsd.toFixed(4)}, over its budget of $${result.budgetUsd.toFixed(2)}, yet says ${result.status}`;
  return undefined;
}
