import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GitIdentity } from '../git/repository.js';
import { GitRepository } from '../git/repository.js';
import { checkRunFolderPath } from '../transcript/run-folder-path.js';
import { splitBudget } from './budget.js';
import { FanoutInputError } from './fanout-error.js';
import { FanoutState } from './fanout-state.js';
import { landShards, type LandPolicy, type ShardLanding } from './land.js';
import {
  MANIFEST_VERSION,
  type FanoutManifest,
  type ManifestOrigin,
  type ManifestShard
} from './manifest.js';
import { mapWithLimit } from './pool.js';
import { buildRollup, type Rollup } from './rollup.js';
import type { ShardAgent } from './shard-agent.js';
import { resultProblem, type ShardResult } from './shard-result.js';
import { runShard } from './shard-run.js';
import { measuredGrouping, type GroupingRequest } from './grouping.js';
import { groupIntoShards } from './shards.js';
import { countUnits, listUnits } from './units.js';
import type { UnitSource } from './unit-source.js';
import { openShardWorktree } from './shard-worktree.js';
import { unboxedValidation, type ValidationRunner } from './validation.js';

/** A new fan-out: what to do, over which units, in which shards, for how much. */
export interface FanoutPlanRequest {
  readonly prompt: string;
  readonly unitSource: UnitSource;
  /** How to group; `size` measures the units in the repository first, `owner` reads CODEOWNERS. */
  readonly grouping: GroupingRequest;
  readonly totalCapUsd: number;
  readonly validationCommand?: string;
  readonly validationRetries: number;
  /** Run the first N shards first and stop before the sweep unless all of them finish. */
  readonly pilot?: number;
  /** The fan-out's folder; by default `<repo>/.transcripts/fanout-<plan id>`. */
  readonly stateDir?: string;
}

export interface FanoutOptions {
  readonly repoDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal: AbortSignal;
  readonly agent: ShardAgent;
  readonly parallel: number;
  readonly policy: LandPolicy;
  readonly identity: GitIdentity;
  /** Who may read the plan (the local CLI: the repository's folder). */
  readonly origin: ManifestOrigin;
  readonly validationTimeoutMs?: number;
  /** Where the validation command runs; by default without a box (the CLI gives the agent's box). */
  readonly validation?: ValidationRunner;
  readonly onProgress?: (line: string) => void;
}

/** Plans, runs every shard (at most `parallel` at a time), lands, and returns the roll-up. */
export async function startFanout(request: FanoutPlanRequest, options: FanoutOptions): Promise<Rollup> {
  const repo = new GitRepository(options.repoDir);
  const base = await repo.head();
  const units = await listUnits(request.unitSource, {
    repoDir: options.repoDir,
    env: options.env,
    signal: options.signal
  });
  const planned = groupIntoShards(
    units,
    await measuredGrouping(request.grouping, { repo, repoDir: options.repoDir, base }, units)
  );
  const split = splitBudget(
    request.totalCapUsd,
    planned.length,
    request.pilot ? { pilot: request.pilot } : {}
  );
  const planId = planIdOf(request, units);
  const stateDir = path.resolve(
    request.stateDir ?? path.join(options.repoDir, '.transcripts', `fanout-${planId}`)
  );
  // A committed `.transcripts` link would send the fan-out's files outside the repository.
  checkRunFolderPath(options.repoDir, stateDir);
  if (existsSync(path.join(stateDir, 'manifest.json')))
    throw new FanoutInputError(
      `The same fan-out (plan ${planId}) was already started in ${stateDir}. Continue it with ` +
        `--resume ${stateDir}, or remove that folder to start over.`
    );
  const manifest: FanoutManifest = {
    version: MANIFEST_VERSION,
    planId,
    origin: options.origin,
    prompt: request.prompt,
    unitSource:
      request.unitSource.kind === 'globs'
        ? { ...request.unitSource, patterns: [...request.unitSource.patterns] }
        : request.unitSource,
    unitsBefore: units.length,
    totalCapUsd: request.totalCapUsd,
    ...(request.validationCommand ? { validationCommand: request.validationCommand } : {}),
    validationRetries: request.validationRetries,
    shards: planned.map((shard) => ({ ...shard, paths: [...shard.paths], budgetUsd: split.perShardUsd }))
  };
  const state = new FanoutState(stateDir, options.repoDir);
  state.writeManifest(manifest);
  options.onProgress?.(
    `Plan ${planId}: ${units.length} units in ${planned.length} shards, $${split.perShardUsd.toFixed(2)} each; ` +
      `folder ${stateDir}.`
  );
  const results = new Map<string, ShardResult>();
  const pilot = request.pilot ? manifest.shards.slice(0, request.pilot) : [];
  const sweep = manifest.shards.slice(pilot.length);
  const budgets = new Map(manifest.shards.map((shard) => [shard.id, shard.budgetUsd]));
  if (pilot.length > 0) {
    await runShards(pilot, { manifest, base, repo, state, budgets, results, options });
    const unfinished = pilot.filter((shard) => results.get(shard.id)?.status !== 'done');
    if (unfinished.length > 0)
      options.onProgress?.(
        `The pilot did not finish (${unfinished.map((shard) => shard.id).join(', ')}): the sweep was not started. ` +
          'Refine the prompt or the validation, then resume.'
      );
    else await runShards(sweep, { manifest, base, repo, state, budgets, results, options });
  } else await runShards(sweep, { manifest, base, repo, state, budgets, results, options });
  return landAndRollUp({ manifest, base, repo, state, results, problems: new Map(), options });
}

/**
 * Continues a fan-out from its folder on the current base: runs again only the shards that are
 * failed, over budget, conflicting, rejected or never started, with what is left of the cap.
 * A finished shard is never run again; its result is landed again (on the new base).
 */
export async function resumeFanout(stateDir: string, options: FanoutOptions): Promise<Rollup> {
  const state = new FanoutState(path.resolve(stateDir), options.repoDir);
  const manifest = await state.readManifest(options.origin);
  const repo = new GitRepository(options.repoDir);
  const base = await repo.head();
  const { results, problems } = await state.readResults();
  for (const [shardId, result] of results) {
    const shard = manifest.shards.find((candidate) => candidate.id === shardId);
    const problem = shard
      ? resultProblem(result, shard, manifest.planId, manifest.totalCapUsd)
      : `the plan has no shard ${shardId}`;
    if (problem) {
      problems.set(shardId, problem);
      results.delete(shardId);
    }
  }
  const unlandable = await state.unlandable();
  const again = manifest.shards.filter(
    (shard) => results.get(shard.id)?.status !== 'done' || problems.has(shard.id) || unlandable.has(shard.id)
  );
  if (again.length > 0) {
    const spent = await state.spentUsd();
    const split = splitBudget(manifest.totalCapUsd - spent, again.length);
    options.onProgress?.(
      `Resuming plan ${manifest.planId} on ${base.slice(0, 12)}: ${again.length} shard(s) again ` +
        `(${again.map((shard) => shard.id).join(', ')}), $${split.perShardUsd.toFixed(2)} each of the ` +
        `$${(manifest.totalCapUsd - spent).toFixed(2)} left.`
    );
    const budgets = new Map(again.map((shard) => [shard.id, split.perShardUsd]));
    for (const shard of again) {
      results.delete(shard.id);
      problems.delete(shard.id);
    }
    await runShards(again, { manifest, base, repo, state, budgets, results, options });
  } else options.onProgress?.(`Every shard of plan ${manifest.planId} is finished: landing again.`);
  return landAndRollUp({ manifest, base, repo, state, results, problems, options });
}

interface RunContext {
  readonly manifest: FanoutManifest;
  readonly base: string;
  readonly repo: GitRepository;
  readonly state: FanoutState;
  readonly budgets: ReadonlyMap<string, number>;
  readonly results: Map<string, ShardResult>;
  readonly options: FanoutOptions;
}

async function runShards(shards: readonly ManifestShard[], context: RunContext): Promise<void> {
  const { options, state } = context;
  await mapWithLimit(shards, options.parallel, async (shard) => {
    if (options.signal.aborted) return;
    options.onProgress?.(`${shard.id}: started (${shard.paths.length} unit(s)).`);
    const result = await runShard({
      repo: context.repo,
      base: context.base,
      manifest: context.manifest,
      shard,
      budgetUsd: context.budgets.get(shard.id)!,
      agent: options.agent,
      transcriptsDir: state.transcriptsDir,
      validation: options.validation ?? unboxedValidation(options.env),
      validationTimeoutMs: options.validationTimeoutMs ?? 10 * 60_000,
      signal: options.signal,
      onSpend: (cost, runDir) => state.recordSpend(shard.id, cost, runDir)
    });
    state.writeResult(result);
    context.results.set(shard.id, result);
    options.onProgress?.(
      `${shard.id}: ${result.status} ($${result.costUsd.toFixed(4)}, ${result.files.length} file(s)` +
        `${result.refusedPaths.length > 0 ? `, ${result.refusedPaths.length} out-of-scope edit(s) refused` : ''}).`
    );
  });
}

async function landAndRollUp(
  context: Omit<RunContext, 'budgets'> & { readonly problems: Map<string, string> }
): Promise<Rollup> {
  const { manifest, options, state } = context;
  const done = manifest.shards
    .map((shard) => context.results.get(shard.id))
    .filter((result): result is ShardResult => result?.status === 'done');
  const landing = await landShards({
    repo: context.repo,
    base: context.base,
    planId: manifest.planId,
    policy: options.policy,
    identity: options.identity,
    shards: manifest.shards,
    results: done,
    title: `fan-out: ${manifest.prompt.split('\n')[0]!.slice(0, 60)}`
  });
  state.writeLanding(landing.shards);
  const unitsAfter = await rescan(context.repo, landing.combinedCommit, manifest, options);
  return buildRollup({
    manifest,
    stateDir: state.dir,
    base: context.base,
    policy: options.policy,
    results: context.results,
    problems: context.problems,
    landings: landing.shards satisfies readonly ShardLanding[],
    spentUsd: await state.spentUsd(),
    unitsAfter,
    combinedBranch: landing.combinedBranch
  });
}

/** The burndown: the unit listing run again on a worktree of everything landed. */
async function rescan(
  repo: GitRepository,
  commit: string,
  manifest: FanoutManifest,
  options: FanoutOptions
): Promise<number | undefined> {
  const worktree = await openShardWorktree(repo, commit, 'rescan');
  try {
    return await countUnits(manifest.unitSource, {
      repoDir: worktree.git.root,
      env: options.env,
      signal: options.signal
    });
  } finally {
    await worktree.close();
  }
}

/** Same prompt, same unit source, same units: the same plan id (a second start is caught, not duplicated). */
function planIdOf(request: FanoutPlanRequest, units: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify([request.prompt, request.unitSource, request.grouping, units]))
    .digest('hex')
    .slice(0, 12);
}
