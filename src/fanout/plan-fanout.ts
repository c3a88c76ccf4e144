import { createHash } from 'node:crypto';
import { splitBudget } from './budget.js';
import { MANIFEST_VERSION, type FanoutManifest, type ManifestOrigin } from './manifest.js';
import { GitRepository } from '../git/repository.js';
import { measuredGrouping, type GroupingRequest } from './grouping.js';
import { groupIntoShards } from './shards.js';
import { listUnits } from './units.js';
import type { UnitSource } from './unit-source.js';

/** A new fan-out: what to do, over which units, in which shards, for how much. */
export interface FanoutPlanRequest {
  readonly prompt: string;
  readonly unitSource: UnitSource;
  /** How to group; `size` measures the units in the repository first, `owner` reads HEAD's CODEOWNERS. */
  readonly grouping: GroupingRequest;
  readonly totalCapUsd: number;
  readonly validationCommand?: string;
  readonly validationRetries: number;
  /** Run the first N shards first and stop before the sweep unless all of them finish. */
  readonly pilot?: number;
  /** The fan-out's folder; by default `<repo>/.transcripts/fanout-<plan id>`. */
  readonly stateDir?: string;
  /** The cap's name in messages: `--max-total-usd` on the command line, `fanout_max_total_usd` in a workflow. */
  readonly capName?: string;
}

export interface PlanContext {
  readonly repoDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal: AbortSignal;
  /** Who may read the plan: the repository and workflow (the CLI: the repository's folder). */
  readonly origin: ManifestOrigin;
}

/**
 * The plan, without a model: the units listed deterministically, grouped into shards (shards that
 * would touch the same file merged), and the cap split among them in advance. The CLI and the
 * action's plan job share it; neither runs anything yet.
 */
export async function planFanout(
  request: FanoutPlanRequest,
  context: PlanContext
): Promise<{ readonly manifest: FanoutManifest; readonly perShardUsd: number }> {
  const units = await listUnits(request.unitSource, context);
  const repo = new GitRepository(context.repoDir);
  const planned = groupIntoShards(
    units,
    await measuredGrouping(
      request.grouping,
      { repo, repoDir: context.repoDir, base: await repo.head() },
      units
    )
  );
  const split = splitBudget(request.totalCapUsd, planned.length, {
    ...(request.pilot ? { pilot: request.pilot } : {}),
    ...(request.capName ? { capName: request.capName } : {})
  });
  const manifest: FanoutManifest = {
    version: MANIFEST_VERSION,
    planId: planIdOf(request, units),
    origin: context.origin,
    prompt: request.prompt,
    unitSource:
      request.unitSource.kind === 'globs'
        ? { ...request.unitSource, patterns: [...request.unitSource.patterns] }
        : request.unitSource.kind === 'owners'
          ? { ...request.unitSource, owners: [...request.unitSource.owners] }
          : request.unitSource,
    unitsBefore: units.length,
    totalCapUsd: request.totalCapUsd,
    ...(request.validationCommand ? { validationCommand: request.validationCommand } : {}),
    validationRetries: request.validationRetries,
    shards: planned.map((shard) => ({ ...shard, paths: [...shard.paths], budgetUsd: split.perShardUsd }))
  };
  return { manifest, perShardUsd: split.perShardUsd };
}

/** Same prompt, same unit source, same units: the same plan id (a second start is caught, not duplicated). */
function planIdOf(request: FanoutPlanRequest, units: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify([request.prompt, request.unitSource, request.grouping, units]))
    .digest('hex')
    .slice(0, 12);
}
