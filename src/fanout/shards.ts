import path from 'node:path';
import { FanoutInputError } from './fanout-error.js';
import { ancestors } from './unit-path.js';

/** How units are grouped into shards. Both keep the units' sorted order, so a plan is reproducible. */
export type ShardGrouping =
  /** Consecutive runs of at most `size` units. */
  | { readonly by: 'count'; readonly size: number }
  /** One shard per folder (a unit's parent), a folder of more than `size` units split into runs of `size`. */
  | { readonly by: 'folder'; readonly size: number }
  /**
   * As many shards as `count` would make, cut so that each holds about the same number of bytes:
   * a shard's agent time grows with what it reads, so even bytes make shards end together.
   * `bytes` gives each unit's size (a folder's: its files').
   */
  | { readonly by: 'size'; readonly size: number; readonly bytes: ReadonlyMap<string, number> }
  /**
   * One owner group at a time (unit-owners.ts: a unit's CODEOWNERS owners, `''` for none), a group
   * of more than `size` units split into runs of `size`; groups in their keys' order, the unowned last.
   */
  | { readonly by: 'owner'; readonly size: number; readonly owners: ReadonlyMap<string, string> };

/** A planned shard: a deterministic id and the unit paths it may edit. */
export interface PlannedShard {
  readonly id: string;
  readonly paths: readonly string[];
  /** Grouped by owner only: its units' owner group (`''`: none of them has an owner). */
  readonly owner?: string;
}

/**
 * Groups sorted, normalized units into shards. Shards whose paths would touch a common file (the
 * same path, or a folder and a path inside it) are merged into one, so no two shards can edit
 * the same file. Ids are `shard-01`, `shard-02`, ... in the order of each shard's first unit.
 */
export function groupIntoShards(units: readonly string[], grouping: ShardGrouping): PlannedShard[] {
  if (!Number.isInteger(grouping.size) || grouping.size < 1)
    throw new FanoutInputError(
      `A shard holds a whole number of units, at least 1 (got ${grouping.size}). Give a positive shard size.`
    );
  const groups =
    grouping.by === 'count'
      ? chunks(units, grouping.size)
      : grouping.by === 'folder'
        ? byKey(units, grouping.size, (unit) => path.posix.dirname(unit))
        : grouping.by === 'owner'
          ? byKey(units, grouping.size, (unit) => grouping.owners.get(unit) ?? '', unownedLast)
          : bySize(units, Math.ceil(units.length / grouping.size), grouping.bytes);
  const merged = mergeOverlapping(groups);
  const width = Math.max(2, String(merged.length).length);
  return merged.map((paths, index) => ({
    id: `shard-${String(index + 1).padStart(width, '0')}`,
    paths,
    // Shards are merged only when their units overlap (a folder and a file in it): the merged
    // shard takes its first unit's owner group, so the same plan always lands the same way.
    ...(grouping.by === 'owner' ? { owner: grouping.owners.get(paths[0]!) ?? '' } : {})
  }));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/**
 * Consecutive runs of about `total / shards` bytes each: a run closes once it reaches its share
 * of what is left, so a large unit early does not starve the later shards. Never an empty run.
 */
function bySize(units: readonly string[], shards: number, bytes: ReadonlyMap<string, number>): string[][] {
  const sizeOf = (unit: string) => Math.max(1, bytes.get(unit) ?? 1);
  let left = units.reduce((sum, unit) => sum + sizeOf(unit), 0);
  const out: string[][] = [];
  let current: string[] = [];
  let currentBytes = 0;
  units.forEach((unit, index) => {
    current.push(unit);
    currentBytes += sizeOf(unit);
    const shardsLeft = shards - out.length;
    const unitsLeft = units.length - index - 1;
    const share = left / shardsLeft;
    // Close the run at its share, or when only enough units are left for one per remaining shard.
    if (shardsLeft > 1 && (currentBytes >= share || unitsLeft < shardsLeft)) {
      out.push(current);
      left -= currentBytes;
      current = [];
      currentBytes = 0;
    }
  });
  if (current.length > 0) out.push(current);
  return out;
}

/** Units with the same key together (in the keys' sorted order), each group split into runs of `size`. */
function byKey(
  units: readonly string[],
  size: number,
  keyOf: (unit: string) => string,
  order: (a: string, b: string) => number = (a, b) => (a < b ? -1 : a > b ? 1 : 0)
): string[][] {
  const groups = new Map<string, string[]>();
  for (const unit of units) {
    const key = keyOf(unit);
    groups.set(key, [...(groups.get(key) ?? []), unit]);
  }
  return [...groups.keys()].sort(order).flatMap((key) => chunks(groups.get(key)!, size));
}

/** Owner groups in their sorted order, the unowned (`''`) last. */
function unownedLast(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  return a < b ? -1 : 1;
}

/** Union of the groups that share a file; each merged group keeps its paths sorted, groups in first-seen order. */
function mergeOverlapping(groups: readonly (readonly string[])[]): string[][] {
  const parent = groups.map((_, index) => index);
  const root = (index: number): number => {
    while (parent[index] !== index) index = parent[index] = parent[parent[index]!]!;
    return index;
  };
  const join = (a: number, b: number) => {
    const [x, y] = [root(a), root(b)];
    if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
  };
  // A path overlaps another when they are equal or one is a folder holding the other: looking up
  // each path and its ancestor folders finds every overlap without comparing all pairs.
  const firstOwner = new Map<string, number>();
  groups.forEach((paths, group) => {
    for (const file of paths) {
      const owner = firstOwner.get(file);
      if (owner === undefined) firstOwner.set(file, group);
      else join(owner, group);
    }
  });
  for (const [file, group] of firstOwner) {
    for (const folder of ancestors(file)) {
      const owner = firstOwner.get(folder);
      if (owner !== undefined) join(owner, group);
    }
  }
  const merged = new Map<number, Set<string>>();
  groups.forEach((paths, index) => {
    const into = merged.get(root(index)) ?? new Set<string>();
    for (const file of paths) into.add(file);
    merged.set(root(index), into);
  });
  return [...merged.keys()].sort((a, b) => a - b).map((key) => [...merged.get(key)!].sort());
}
