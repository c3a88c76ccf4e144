import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitRepository } from './repository.js';

export interface HiddenCredentials {
  /** Files whose credential entries were taken out for the agent's run. */
  readonly files: readonly string[];
  /** Puts every file back exactly as it was, for the action's own push. */
  restore(): Promise<void>;
}

/**
 * actions/checkout leaves the token where any process can read it: as `http.<url>.extraheader` in
 * .git/config (v4, v5), or in a file under RUNNER_TEMP that .git/config includes (v6 and later).
 * Both are emptied while the agent runs, so `cat .git/config`, `git config -l` or reading the
 * included file show nothing; the contents are held in this process only, and restored after.
 */
export async function hideCredentials(git: GitRepository): Promise<HiddenCredentials> {
  const origins = await credentialOrigins(git);
  const saved = new Map<string, Buffer>();
  // The repository's own config comes back whole, whatever the agent set in it (hooks, helpers).
  const localConfig = path.join(git.root, '.git', 'config');
  const localSnapshot = await readFile(localConfig).catch(() => undefined);
  for (const [file, keys] of origins) {
    saved.set(file, await readFile(file));
    for (const key of keys) await git.run(['config', '--file', file, '--unset-all', key]);
  }
  return {
    files: [...saved.keys()],
    restore: async () => {
      for (const [file, content] of saved) await writeFile(file, content);
      if (localSnapshot && !saved.has(localConfig)) await writeFile(localConfig, localSnapshot);
    }
  };
}

/** Which config files hold extraheader entries, includes followed (git reports each value's file). */
async function credentialOrigins(git: GitRepository): Promise<Map<string, Set<string>>> {
  let listing: string;
  try {
    listing = await git.run([
      'config',
      '--show-origin',
      '--name-only',
      '--get-regexp',
      '^http\\..*\\.extraheader$'
    ]);
  } catch {
    return new Map(); // git exits 1 when nothing matches
  }
  const origins = new Map<string, Set<string>>();
  for (const line of listing.split('\n')) {
    const match = /^file:(.+?)\t(.+)$/.exec(line);
    if (!match) continue;
    const [, shown, key] = match as unknown as [string, string, string];
    // git quotes paths with unusual characters, C-style; relative paths are the repository's own.
    const unquoted = shown.startsWith('"') ? (JSON.parse(shown) as string) : shown;
    const file = path.resolve(git.root, unquoted);
    if (!origins.has(file)) origins.set(file, new Set());
    origins.get(file)!.add(key);
  }
  return origins;
}
