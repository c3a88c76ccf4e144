import { errorMessage } from '../errors/error-message.js';
import { SandboxUnavailableError } from '../sandbox/session-box.js';
import type { GitIdentity, GitRepository } from '../git/repository.js';
import { landShards, type Landing, type LandPolicy } from './land.js';
import type { FanoutManifest } from './manifest.js';
import { buildRollup, type Rollup } from './rollup.js';
import type { ShardResult } from './shard-result.js';
import { openShardRepository } from './shard-repository.js';
import { countUnits } from './units.js';
import type { ValidationRunner } from './validation.js';

/** Everything a landing needs: the plan, the base, each shard's result, and what was spent. */
export interface LandingParts {
  readonly repo: GitRepository;
  readonly base: string;
  readonly manifest: FanoutManifest;
  /** Each shard's last result (only `done` ones are landed). */
  readonly results: ReadonlyMap<string, ShardResult>;
  /** Results that could not be trusted, with why: their shards are `rejected`. */
  readonly problems: ReadonlyMap<string, string>;
  readonly policy: LandPolicy;
  readonly identity: GitIdentity;
  /** Where the fan-out's files are (the CLI's folder; the action's run), shown in the roll-up. */
  readonly stateDir: string;
  readonly spentUsd: number;
  /** For the burndown's re-scan: the unit command runs with this environment (without secrets). */
  readonly env: NodeJS.ProcessEnv;
  /**
   * Where the burndown's unit command runs: on the landed change, the agents' code (a test runner's
   * collection imports it), so in the box the shards' validation had. Required: there is no default
   * that would run it on the host, where the land job holds the only write credential.
   */
  readonly runner: ValidationRunner;
  readonly signal: AbortSignal;
}

/**
 * Lands every finished shard on the base (local branches, nothing pushed), re-scans the units on
 * the landed change, and builds the roll-up. The CLI and the action's land job share it.
 */
export async function landAndRollUp(
  parts: LandingParts
): Promise<{ landing: Landing; rollup: Rollup; rescanSkipped?: RescanSkipped }> {
  const { manifest } = parts;
  const done = manifest.shards
    .map((shard) => parts.results.get(shard.id))
    .filter(
      (result): result is ShardResult => result?.status === 'done' && !parts.problems.has(result.shardId)
    );
  const landing = await landShards({
    repo: parts.repo,
    base: parts.base,
    planId: manifest.planId,
    policy: parts.policy,
    identity: parts.identity,
    shards: manifest.shards,
    results: done,
    title: `fan-out: ${manifest.prompt.split('\n')[0]!.slice(0, 60)}`
  });
  const { unitsAfter, skipped } = await rescan(parts, landing.combinedCommit);
  const rollup = buildRollup({
    manifest,
    stateDir: parts.stateDir,
    base: parts.base,
    policy: parts.policy,
    results: parts.results,
    problems: parts.problems,
    landings: landing.shards,
    spentUsd: parts.spentUsd,
    unitsAfter,
    combinedBranch: landing.combinedBranch
  });
  return { landing, rollup, ...(skipped !== undefined ? { rescanSkipped: skipped } : {}) };
}

/** Why the burndown has no count: a line for the roll-up, and the cause for the job's log. */
export interface RescanSkipped {
  readonly summary: string;
  readonly detail: string;
}

/**
 * The burndown: the unit listing run again, in the box, on a repository of its own at everything
 * landed. It never stops the landing: a runner that cannot build its box (SandboxUnavailableError)
 * skips it, saying so; any other failure leaves the count unknown.
 */
async function rescan(
  parts: LandingParts,
  commit: string
): Promise<{ unitsAfter: number | undefined; skipped?: RescanSkipped }> {
  let runnerError: unknown;
  const runner: ValidationRunner = async (command, options) => {
    try {
      return await parts.runner(command, options);
    } catch (error) {
      runnerError = error;
      throw error;
    }
  };
  try {
    const worktree = await openShardRepository(parts.repo, commit, 'rescan');
    try {
      const unitsAfter = await countUnits(parts.manifest.unitSource, {
        repoDir: worktree.root,
        env: parts.env,
        signal: parts.signal,
        runner,
        readOnlyFolders: worktree.sharedObjects
      });
      if (runnerError instanceof SandboxUnavailableError)
        return {
          unitsAfter: undefined,
          skipped: { summary: 're-scan skipped: no sandbox in the land job', detail: runnerError.message }
        };
      return { unitsAfter };
    } finally {
      await worktree.close();
    }
  } catch (error) {
    return { unitsAfter: undefined, skipped: { summary: 're-scan failed', detail: errorMessage(error) } };
  }
}
