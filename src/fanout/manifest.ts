import { z } from 'zod';
import { errorMessage } from '../errors/error-message.js';
import { FanoutInputError } from './fanout-error.js';
import { ancestors, normalizeUnitPath } from './unit-path.js';

/**
 * The plan of a fan-out, written once by the plan step and read by every shard, the landing and a
 * resume. In the action it arrives as an artifact, so it is validated where it enters: its shape,
 * its paths, that no two shards share a file, that the budgets fit the cap, and that it was written
 * for this repository and workflow (a manifest from elsewhere would point a shard at another plan).
 */
export const MANIFEST_VERSION = 1;

/** Who the manifest was written for: `owner/name` and the workflow's path on GitHub; the local CLI names the folder. */
export interface ManifestOrigin {
  readonly repository: string;
  readonly workflow: string;
}

const shardSchema = z.object({
  id: z.string().regex(/^shard-\d{2,6}$/),
  paths: z.array(z.string().min(1).max(4096)).min(1).max(10_000),
  /** Extra words for this shard's agent, besides the common prompt (written by the plan when asked). */
  instructions: z.string().max(20_000).optional(),
  /** Grouped by owner only: the CODEOWNERS owners of its units, blank-separated; `''` when they have none. */
  owner: z.string().max(4096).optional(),
  budgetUsd: z.number().positive().finite()
});

export const manifestSchema = z.object({
  version: z.literal(MANIFEST_VERSION),
  planId: z.string().regex(/^[0-9a-f]{8,64}$/),
  origin: z.object({ repository: z.string().min(1).max(4096), workflow: z.string().min(1).max(4096) }),
  prompt: z.string().min(1).max(100_000),
  /** How the units were listed (the command, globs or packages), re-run for the burndown. */
  unitSource: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('command'), command: z.string().min(1).max(10_000) }),
    z.object({ kind: z.literal('globs'), patterns: z.array(z.string().min(1).max(4096)).min(1).max(100) }),
    z.object({ kind: z.literal('packages') }),
    z.object({ kind: z.literal('owners'), owners: z.array(z.string().min(1).max(200)).min(1).max(100) })
  ]),
  unitsBefore: z.number().int().nonnegative(),
  totalCapUsd: z.number().positive().finite(),
  validationCommand: z.string().max(10_000).optional(),
  validationRetries: z.number().int().min(0).max(10),
  shards: z.array(shardSchema).min(1).max(100_000)
});

export type FanoutManifest = z.infer<typeof manifestSchema>;
export type ManifestShard = FanoutManifest['shards'][number];

/** Parses and checks a manifest's text; every problem is a FanoutInputError naming `source`. */
export function parseManifest(text: string, source: string, expected: ManifestOrigin): FanoutManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FanoutInputError(`${source} is not JSON (${errorMessage(error)}). Plan the fan-out again.`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new FanoutInputError(
      `${source} is not a fan-out manifest this version reads (${first ? `${first.path.join('.') || 'top'}: ${first.message}` : 'invalid'}). ` +
        'Plan the fan-out again.'
    );
  }
  const manifest = parsed.data;
  checkOrigin(manifest.origin, expected, source);
  checkShards(manifest, source);
  return manifest;
}

function checkOrigin(found: ManifestOrigin, expected: ManifestOrigin, source: string): void {
  if (found.repository !== expected.repository || found.workflow !== expected.workflow)
    throw new FanoutInputError(
      `${source} was written for ${found.repository} (${found.workflow}), not for ${expected.repository} ` +
        `(${expected.workflow}). A fan-out only takes its own plan: resume with the folder or artifact this ` +
        'repository and workflow wrote, or plan a new fan-out.'
    );
}

/** Ids unique, paths normalized and disjoint across shards, budgets within the cap. */
function checkShards(manifest: FanoutManifest, source: string): void {
  const ids = new Set<string>();
  const owners = new Map<string, string>();
  for (const shard of manifest.shards) {
    if (ids.has(shard.id)) throw new FanoutInputError(`${source}: the shard id ${shard.id} appears twice.`);
    ids.add(shard.id);
    for (const file of shard.paths) {
      if (normalizeUnitPath(file, `${source}, ${shard.id}`) !== file)
        throw new FanoutInputError(`${source}, ${shard.id}: "${file}" is not a normalized repository path.`);
      owners.set(file, owners.has(file) ? `${owners.get(file)!} and ${shard.id}` : shard.id);
    }
  }
  for (const [file, shards] of owners) {
    const holder = ancestors(file).find((folder) => owners.has(folder));
    if (shards.includes(' and ') || holder !== undefined)
      throw new FanoutInputError(
        `${source}: two shards would edit the same files (${holder === undefined ? `${file}: ${shards}` : `${holder} holds ${file}`}). ` +
          'Plan again: the plan merges such shards.'
      );
  }
  const budgets = manifest.shards.reduce((sum, shard) => sum + shard.budgetUsd, 0);
  // A cent of slack for the floating-point sum of many rounded budgets.
  if (budgets > manifest.totalCapUsd + 0.01)
    throw new FanoutInputError(
      `${source}: the shards' budgets add up to $${budgets.toFixed(2)}, more than the cap of ` +
        `$${manifest.totalCapUsd.toFixed(2)}. Plan again.`
    );
}
