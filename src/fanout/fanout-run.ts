import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GitIdentity } from '../git/repository.js';
import { GitRepository } from '../git/repository.js';
import { checkRunFolderPath } from '../transcript/run-folder-path.js';
import { splitBudget } from './budget.js';
import { FanoutInputError } from './fanout-error.js';
import { FanoutState } from './fanout-state.js';
import { planFanout, type FanoutPlanRequest } from './plan-fanout.js';
import type { LandPolicy } from './land.js';
import { landAndRollUp } from './land-and-roll-up.js';
import type { FanoutManifest, ManifestOrigin, ManifestShard } from './manifest.js';
import { mapWithLimit } from './pool.js';
import type { Rollup } from './rollup.js';
import type { ShardAgent } from './shard-agent.js';
import { resultProblem, type ShardResult } from './shard-result.js';
import { runShard } from './shard-run.js';
import type { ValidationRunner } from './validation.js';

export type { FanoutPlanRequest } from './plan-fanout.js';

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
  /**
   * Where commands run on the agents' code (the validation command, the burndown's re-scan): the
   * box the agents had. Required, so that no caller runs them on the host by leaving it out.
   */
  readonly validation: ValidationRunner;
  readonly onProgress?: (line: string) => void;
}

/** Plans, runs every shard (at most `parallel` at a time), lands, and returns the roll-up. */
export async function startFanout(request: FanoutPlanRequest, options: FanoutOptions): Promise<Rollup> {
  const repo = new GitRepository(options.repoDir);
  const base = await repo.head();
  const { manifest, perShardUsd } = await planFanout(request, {
    repoDir: options.repoDir,
    env: options.env,
    signal: options.signal,
    origin: options.origin
  });
  const planId = manifest.planId;
  const stateDir = path.resolve(
    request.stateDir ?? path.join(options.repoDir, '.transcripts', `fanout-${planId}`)
  );
  // A committed `.transcripts` link would send the fan-out's files outside the repository.
  checkRunFolderPath(options.repoDir, stateDir);
  const state = new FanoutState(stateDir, options.repoDir);
  const unlock = state.lock();
  try {
    if (existsSync(path.join(stateDir, 'manifest.json')))
      throw new FanoutInputError(
        `The same fan-out (plan ${planId}) was already started in ${stateDir}. Continue it with ` +
          `--resume ${stateDir}, or remove that folder to start over.`
      );
    return await runPlan(request, { manifest, base, repo, state, perShardUsd, options });
  } finally {
    unlock();
  }
}

async function runPlan(
  request: FanoutPlanRequest,
  context: {
    readonly manifest: FanoutManifest;
    readonly base: string;
    readonly repo: GitRepository;
    readonly state: FanoutState;
    readonly perShardUsd: number;
    readonly options: FanoutOptions;
  }
): Promise<Rollup> {
  const { manifest, base, repo, state, perShardUsd, options } = context;
  const planId = manifest.planId;
  const stateDir = state.dir;
  state.writeManifest(manifest);
  options.onProgress?.(
    `Plan ${planId}: ${manifest.unitsBefore} units in ${manifest.shards.length} shards, $${perShardUsd.toFixed(2)} each; ` +
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
  return landAndRecord({ manifest, base, repo, state, results, problems: new Map(), options });
}

/**
 * Continues a fan-out from its folder on the current base: runs again only the shards that are
 * failed, over budget, conflicting, rejected or never started, with what is left of the cap.
 * A finished shard is never run again; its result is landed again (on the new base).
 */
export async function resumeFanout(stateDir: string, options: FanoutOptions): Promise<Rollup> {
  const state = new FanoutState(path.resolve(stateDir), options.repoDir);
  const manifest = await state.readManifest(options.origin);
  const unlock = state.lock();
  try {
    return await resumePlan(manifest, state, options);
  } finally {
    unlock();
  }
}

async function resumePlan(
  manifest: FanoutManifest,
  state: FanoutState,
  options: FanoutOptions
): Promise<Rollup> {
  const repo = new GitRepository(options.repoDir);
  const base = await repo.head();
  const { results, problems } = await state.readResults();
  // Read before any result is dropped: what a dropped result cost was spent all the same.
  const spentBefore = await state.spentUsd(results);
  const granted = await state.grantedBudgets();
  for (const [shardId, result] of results) {
    const shard = manifest.shards.find((candidate) => candidate.id === shardId);
    // The most its attempt can have been given: its planned share, or what a resume gave it.
    const problem = shard
      ? (resultProblem(
          result,
          shard,
          manifest.planId,
          Math.max(shard.budgetUsd, granted.get(shardId) ?? 0)
        ) ?? (await baseProblem(repo, result.base, base)))
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
    const spent = spentBefore;
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
  return landAndRecord({ manifest, base, repo, state, results, problems, options });
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
      validation: options.validation,
      validationTimeoutMs: options.validationTimeoutMs ?? 10 * 60_000,
      signal: options.signal,
      onSpend: (cost, runDir) => state.recordSpend(shard.id, cost, runDir, context.budgets.get(shard.id)!)
    });
    state.writeResult(result);
    context.results.set(shard.id, result);
    options.onProgress?.(
      `${shard.id}: ${result.status} ($${result.costUsd.toFixed(4)}, ${result.files.length} file(s)` +
        `${result.refusedPaths.length > 0 ? `, ${result.refusedPaths.length} out-of-scope edit(s) refused` : ''}).`
    );
  });
}

async function landAndRecord(
  context: Omit<RunContext, 'budgets'> & { readonly problems: Map<string, string> }
): Promise<Rollup> {
  const { manifest, options, state } = context;
  const { landing, rollup } = await landAndRollUp({
    repo: context.repo,
    base: context.base,
    manifest,
    results: context.results,
    problems: context.problems,
    policy: options.policy,
    identity: options.identity,
    stateDir: state.dir,
    spentUsd: await state.spentUsd(context.results),
    env: options.env,
    runner: options.validation,
    signal: options.signal
  });
  state.writeLanding(landing.shards);
  return rollup;
}

/**
 * A result made on a commit outside the current base's history was made on another line of history
 * (or names a commit this repository does not have): not one of this fan-out's runs on this branch.
 */
async function baseProblem(
  repo: GitRepository,
  resultBase: string,
  base: string
): Promise<string | undefined> {
  if (resultBase === base) return undefined;
  try {
    await repo.run(['merge-base', '--is-ancestor', resultBase, base]);
    return undefined;
  } catch {
    return `its base ${resultBase.slice(0, 12)} is not in the history of ${base.slice(0, 12)}, where it would land`;
  }
}
