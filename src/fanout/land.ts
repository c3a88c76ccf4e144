import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GitIdentity, GitRepository } from '../git/repository.js';
import { errorMessage } from '../errors/error-message.js';
import { combinedBranch, ownerBranches, shardBranch } from './branch-names.js';
import { FanoutInputError } from './fanout-error.js';
import type { ManifestShard } from './manifest.js';
import { appliedPaths } from './patch-paths.js';
import { hasControlCharacter, judgeScope } from './scope-guard.js';
import type { ShardResult } from './shard-result.js';

/**
 * One branch per shard, one for all, or one per CODEOWNERS owner group with its shards' changes
 * (a plan grouped by owner only: each of its shards names its owner group).
 */
export type LandPolicy = 'combined' | 'per-shard' | 'per-owner';
export const LAND_POLICIES: readonly LandPolicy[] = ['per-shard', 'combined', 'per-owner'];

/** What landing did with one finished shard. */
export type ShardLanding =
  | {
      readonly status: 'landed';
      readonly shardId: string;
      readonly branch: string | undefined;
      readonly files: readonly string[];
    }
  /** Its change is empty: nothing to land. */
  | { readonly status: 'empty'; readonly shardId: string }
  /** Its patch no longer applies on the base, or touches a file an earlier shard's does: left for a resume. */
  | { readonly status: 'conflict'; readonly shardId: string; readonly reason: string }
  /** Its patch touches paths outside its scope: refused whole, never applied. */
  | { readonly status: 'rejected'; readonly shardId: string; readonly reason: string };

export interface Landing {
  readonly shards: readonly ShardLanding[];
  /** A commit on the base with every landed shard's change (also made under the per-shard policy: the burndown scans it). */
  readonly combinedCommit: string;
  /** The combined branch, under the combined policy. */
  readonly combinedBranch: string | undefined;
}

export interface LandOptions {
  readonly repo: GitRepository;
  readonly base: string;
  readonly planId: string;
  readonly policy: LandPolicy;
  readonly identity: GitIdentity;
  /** The plan's shards, for each result's scope. */
  readonly shards: readonly ManifestShard[];
  /** The `done` results, in shard order. */
  readonly results: readonly ShardResult[];
  readonly title: string;
}

/**
 * Applies each finished shard's patch on the base, through private indexes (the working tree and
 * the person's index are never touched), and points deterministic local branches at the results.
 * A patch that no longer applies, or touches a file an earlier shard's patch did, is a conflict:
 * never merged by hand, left for a resume on the new base. Nothing is pushed.
 */
export async function landShards(options: LandOptions): Promise<Landing> {
  const { repo, base } = options;
  const owners = options.policy === 'per-owner' ? ownerBranchesOf(options) : undefined;
  const scratch = await mkdtemp(path.join(tmpdir(), 'compact-agent-land-'));
  try {
    const combinedIndex = { GIT_INDEX_FILE: path.join(scratch, 'combined.index') };
    await repo.run(['read-tree', base], combinedIndex);
    const ownerIndexes = new Map<string, OwnerIndex>();
    const ownerIndexOf = async (shard: ManifestShard): Promise<OwnerIndex | undefined> => {
      if (!owners) return undefined;
      const branch = owners.get(shard.owner!)!;
      let index = ownerIndexes.get(branch);
      if (!index) {
        index = {
          branch,
          env: { GIT_INDEX_FILE: path.join(scratch, `owner-${ownerIndexes.size}.index`) },
          shards: []
        };
        await repo.run(['read-tree', base], index.env);
        ownerIndexes.set(branch, index);
      }
      return index;
    };
    const touchedBy = new Map<string, string>();
    const landings: ShardLanding[] = [];
    for (const result of options.results) {
      const shard = options.shards.find((candidate) => candidate.id === result.shardId);
      if (!shard) throw new Error(`no planned shard ${result.shardId}`);
      if (result.patch.trim() === '') {
        landings.push({ status: 'empty', shardId: shard.id });
        continue;
      }
      const patchFile = path.join(scratch, `${shard.id}.patch`);
      await writeFile(patchFile, result.patch);
      const ownerIndex = await ownerIndexOf(shard);
      // One result that breaks the landing must not stop the others: it alone is rejected.
      const landing = await landOne(options, shard, patchFile, touchedBy, {
        combinedIndex,
        ownerIndex,
        scratch
      }).catch((error: unknown): ShardLanding => ({
        status: 'rejected',
        shardId: shard.id,
        reason: `its patch could not be landed (${errorMessage(error).slice(0, 300)})`
      }));
      landings.push(landing);
      if (landing.status === 'landed') {
        for (const file of landing.files) touchedBy.set(file, shard.id);
        ownerIndex?.shards.push(shard.id);
      }
    }
    for (const index of ownerIndexes.values()) {
      if (index.shards.length === 0) continue;
      const tree = (await repo.run(['write-tree'], index.env)).trim();
      const commit = await repo.commitTree(
        tree,
        base,
        `${options.title} (${index.branch.slice(index.branch.lastIndexOf('/') + 1)})\n\n` +
          `fan-out ${options.planId}: ${index.shards.length} shard(s) of one owner group (${index.shards.join(', ')}).`,
        options.identity
      );
      await repo.run(['update-ref', `refs/heads/${index.branch}`, commit]);
    }
    const tree = (await repo.run(['write-tree'], combinedIndex)).trim();
    const landed = landings
      .filter((landing) => landing.status === 'landed')
      .map((landing) => landing.shardId);
    const combinedCommit = await repo.commitTree(
      tree,
      base,
      `${options.title}\n\nfan-out ${options.planId}: ${landed.length} shard(s) landed (${landed.join(', ') || 'none'}).`,
      options.identity
    );
    const branch = options.policy === 'combined' ? combinedBranch(options.planId) : undefined;
    if (branch) await repo.run(['update-ref', `refs/heads/${branch}`, combinedCommit]);
    return { shards: landings, combinedCommit, combinedBranch: branch };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A per-owner landing's private index: the owner group's branch and the shards landed on it. */
interface OwnerIndex {
  readonly branch: string;
  readonly env: Readonly<Record<string, string>>;
  readonly shards: string[];
}

/** Each owner group's branch; a shard planned without an owner (not grouped by owner) cannot land per owner. */
function ownerBranchesOf(options: LandOptions): Map<string, string> {
  const without = options.shards.filter((shard) => shard.owner === undefined);
  if (without.length > 0)
    throw new FanoutInputError(
      `Landing per owner needs a plan grouped by CODEOWNERS owner, and ${without.length} of its shards ` +
        `(${without
          .slice(0, 3)
          .map((shard) => shard.id)
          .join(', ')}${without.length > 3 ? ', ...' : ''}) have no owner. Land it per shard or combined, ` +
        'or plan again grouped by owner.'
    );
  return ownerBranches(
    options.planId,
    options.shards.map((shard) => shard.owner!)
  );
}

async function landOne(
  options: LandOptions,
  shard: ManifestShard,
  patchFile: string,
  touchedBy: ReadonlyMap<string, string>,
  indexes: {
    readonly combinedIndex: Readonly<Record<string, string>>;
    readonly ownerIndex: OwnerIndex | undefined;
    readonly scratch: string;
  }
): Promise<ShardLanding> {
  const { combinedIndex, ownerIndex, scratch } = indexes;
  const { repo, base } = options;
  try {
    await repo.run(['apply', '--numstat', '-z', patchFile]);
  } catch (error) {
    return {
      status: 'rejected',
      shardId: shard.id,
      reason: `git cannot read its patch (${errorMessage(error).slice(0, 300)})`
    };
  }
  // Applied first to a private index of its own, and judged by what that index then holds.
  const ownIndex = { GIT_INDEX_FILE: path.join(scratch, `${shard.id}.index`) };
  try {
    await repo.run(['read-tree', base], ownIndex);
    await repo.run(['apply', '--cached', '--whitespace=nowarn', patchFile], ownIndex);
  } catch (error) {
    return {
      status: 'conflict',
      shardId: shard.id,
      reason: `its patch no longer applies on ${base.slice(0, 12)} (${errorMessage(error).slice(0, 300)})`
    };
  }
  const files = await appliedPaths(repo, base, ownIndex);
  const outside = judgeScope(files, shard.paths).outOfScope;
  if (outside.length > 0)
    return {
      status: 'rejected',
      shardId: shard.id,
      reason: `its patch touches paths outside its scope: ${outside.slice(0, 5).map(shownPath).join(', ')}`
    };
  const overlap = files.find((file) => touchedBy.has(file));
  if (overlap !== undefined)
    return {
      status: 'conflict',
      shardId: shard.id,
      reason: `its patch touches ${overlap}, which ${touchedBy.get(overlap)!}'s patch already changes`
    };
  try {
    await repo.run(['apply', '--cached', '--whitespace=nowarn', patchFile], combinedIndex);
    // Its owner group's other shards touch other files (checked above): it applies there as on the base.
    if (ownerIndex) await repo.run(['apply', '--cached', '--whitespace=nowarn', patchFile], ownerIndex.env);
  } catch (error) {
    return {
      status: 'conflict',
      shardId: shard.id,
      reason: `its patch no longer applies on ${base.slice(0, 12)} (${errorMessage(error).slice(0, 300)})`
    };
  }
  let branch = ownerIndex?.branch;
  if (options.policy === 'per-shard') {
    const tree = (await repo.run(['write-tree'], ownIndex)).trim();
    const commit = await repo.commitTree(
      tree,
      base,
      `${options.title} (${shard.id})\n\nfan-out ${options.planId}, ${shard.id}: ${files.length} file(s).`,
      options.identity
    );
    branch = shardBranch(options.planId, shard.id);
    await repo.run(['update-ref', `refs/heads/${branch}`, commit]);
  }
  return { status: 'landed', shardId: shard.id, branch, files };
}

/** A path as the roll-up may show it: control characters written as JSON escapes (\t, \n), never raw. */
function shownPath(file: string): string {
  return hasControlCharacter(file) ? JSON.stringify(file) : file;
}
