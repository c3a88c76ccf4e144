import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { SandboxConfig } from '../config/sandbox-input.js';
import type { GitRepository } from '../git/repository.js';
import { DEFAULT_ALLOWED_HOSTS } from './default-hosts.js';
import { parseHostRule, type HostRule } from './host-rules.js';

/** How deep below the root a go.mod still counts (a monorepo's `services/api/go.mod`). */
const MAX_DEPTH = 3;
/** A bound on the folders read, so a huge checkout costs milliseconds, not seconds. */
const MAX_FOLDERS = 5_000;
/** Folders that hold others' modules or test data, never the repository's own Go module. */
const SKIPPED = new Set(['node_modules', 'vendor', 'testdata']);

/**
 * The box's rules for this repository: the default hosts that only some repositories need (the Go
 * module mirror and checksum database, which fetch from any origin a request names) join the rules
 * when the repository has a go.mod or go.work. Called once, before the agent runs, on the checkout
 * as it was then: a go.mod the agent writes later opens nothing.
 */
export function sandboxForRepository(config: SandboxConfig, root: string): SandboxConfig {
  return sandboxWithGoHosts(config, hasGoModule(root));
}

/** The rules with the Go hosts added when `goModule` says the repository has a Go module. */
export function sandboxWithGoHosts(config: SandboxConfig, goModule: boolean): SandboxConfig {
  if (config.rules === undefined || !config.defaultHosts || !goModule) return config;
  const goHosts = DEFAULT_ALLOWED_HOSTS.filter((entry) => entry.onlyWith === 'go.mod').map(
    (entry) => parseHostRule(entry.host, false) as HostRule
  );
  return { ...config, rules: [...config.rules, ...goHosts] };
}

/**
 * Whether a pull request's base branch has a Go module: a run on a pull request works in a checkout
 * of its head (or the merge with it), where a fork's go.mod would open the relays. The base is read
 * from origin through git's tree, as the config file is; if it cannot be read, the relays stay shut.
 */
export async function baseHasGoModule(git: GitRepository, baseBranch: string): Promise<boolean> {
  try {
    await git.run(['fetch', '--no-tags', 'origin', `refs/heads/${baseBranch}`]);
    const listing = await git.run(['ls-tree', '-r', '-z', 'FETCH_HEAD']);
    return treeHasGoModule(
      listing
        .split('\0')
        .filter((line) => line !== '')
        .map((line) => ({ mode: line.slice(0, line.indexOf(' ')), path: line.slice(line.indexOf('\t') + 1) }))
    );
  } catch {
    return false;
  }
}

/** The rule of hasGoModule over a git tree's entries: regular files only, no links. */
export function treeHasGoModule(
  entries: readonly { readonly mode: string; readonly path: string }[]
): boolean {
  return entries.some(({ mode, path: file }) => {
    if (mode !== '100644' && mode !== '100755') return false;
    const parts = file.split('/');
    const name = parts.pop()!;
    if (name !== 'go.mod' && name !== 'go.work') return false;
    return parts.length <= MAX_DEPTH && parts.every((part) => !part.startsWith('.') && !SKIPPED.has(part));
  });
}

/** A regular go.mod or go.work at the root or a few folders below it (links are not followed). */
export function hasGoModule(root: string): boolean {
  const queue: { folder: string; depth: number }[] = [{ folder: root, depth: 0 }];
  for (let read = 0; read < queue.length && read < MAX_FOLDERS; read++) {
    const { folder, depth } = queue[read]!;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue; // unreadable: nothing to find there
    }
    for (const entry of entries) {
      if (entry.isFile() && (entry.name === 'go.mod' || entry.name === 'go.work')) return true;
      if (
        entry.isDirectory() &&
        depth < MAX_DEPTH &&
        !entry.name.startsWith('.') &&
        !SKIPPED.has(entry.name)
      ) {
        queue.push({ folder: path.join(folder, entry.name), depth: depth + 1 });
      }
    }
  }
  return false;
}
