import path from 'node:path';
import type { ConfigEntry } from './config-snapshot.js';
import type { GitRepository } from './repository.js';

export interface TakenCredentials {
  /** The `http.<url>.extraheader` entries, held in this process only, for the push. */
  readonly entries: readonly ConfigEntry[];
  /** Files they were taken out of. */
  readonly files: readonly string[];
}

/**
 * actions/checkout leaves the token where any process can read it: as `http.<url>.extraheader` in
 * .git/config (v4, v5), or in a file under RUNNER_TEMP that .git/config includes (v6 and later).
 * Both are taken out before the agent runs and never written back: a file the agent could reach
 * (hard-linked, swapped for a symlink) would receive the token. The push gets the entries through
 * its environment instead. Later steps of the job that push need their own credentials.
 */
export async function takeCredentials(git: GitRepository): Promise<TakenCredentials> {
  let listing: string;
  try {
    listing = await git.run(['config', '--show-origin', '-z', '--get-regexp', '^http\\..*\\.extraheader$']);
  } catch {
    return { entries: [], files: [] }; // git exits 1 when nothing matches
  }
  const entries: ConfigEntry[] = [];
  const origins = new Map<string, Set<string>>();
  // -z: `file:<path>\0<key>\n<value>\0` per value, paths unquoted.
  const records = listing.split('\0');
  for (let index = 0; index + 1 < records.length; index += 2) {
    const origin = records[index]!;
    const record = records[index + 1]!;
    if (!origin.startsWith('file:')) continue;
    const newline = record.indexOf('\n');
    const key = newline < 0 ? record : record.slice(0, newline);
    const value = newline < 0 ? undefined : record.slice(newline + 1);
    entries.push({ key, value });
    const file = path.resolve(git.root, origin.slice('file:'.length));
    if (!origins.has(file)) origins.set(file, new Set());
    origins.get(file)!.add(key);
  }
  for (const [file, keys] of origins)
    for (const key of keys) await git.run(['config', '--file', file, '--unset-all', key]);
  return { entries, files: [...origins.keys()] };
}
