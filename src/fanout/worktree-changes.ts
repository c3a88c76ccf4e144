import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GitRepository } from '../git/repository.js';
import { judgeScope } from './scope-guard.js';

/**
 * A shard's change set, read from its folder after the agent ran: the scope guard applied. `worktree`
 * is our own git for the shard's folder (ShardRepository.git: a git folder no box ever saw, the
 * shard's folder as work tree), so nothing the box wrote in the shard's `.git` steers it.
 */
export interface GuardedChanges {
  /** The in-scope paths the change touches. */
  readonly files: readonly string[];
  /** Paths the agent changed outside the shard's scope, now put back as the base has them. */
  readonly refused: readonly string[];
  /** `git diff --binary` of the in-scope change against the base. */
  readonly patch: string;
}

/** A path for a pathspec, taken as written (no glob, no magic a file name could hold). */
const literal = (file: string) => `:(literal)${file}`;

/**
 * Stages everything in the worktree, puts every out-of-scope path back as `base` has it (in the
 * index and on disk, so a validation run sees the shard's change alone), and returns the patch.
 * Renames are off so that each side of a move is judged as its own path.
 */
export async function guardedChanges(
  worktree: GitRepository,
  base: string,
  scope: readonly string[]
): Promise<GuardedChanges> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'compact-agent-scope-'));
  try {
    return await guardWith(worktree, base, scope, { GIT_INDEX_FILE: path.join(scratch, 'index') });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * With a fresh index read from the base: an index with stat data could keep a planted blob for a
 * file whose stat data were made to match. A fresh index has none: every file is read and hashed.
 */
async function guardWith(
  worktree: GitRepository,
  base: string,
  scope: readonly string[],
  index: Readonly<Record<string, string>>
): Promise<GuardedChanges> {
  await worktree.run(['read-tree', base], index);
  await worktree.run(['add', '--all'], index);
  const changed = await nameStatus(worktree, base, index);
  const verdict = judgeScope(
    changed.map((entry) => entry.file),
    scope
  );
  const refused = new Set(verdict.outOfScope);
  for (const entry of changed.filter((item) => refused.has(item.file))) {
    if (entry.status === 'A') {
      await worktree.run(['rm', '-q', '--cached', '--', literal(entry.file)], index);
      await rm(path.join(worktree.root, entry.file), { force: true, recursive: true });
    } else {
      await worktree.run(['checkout', base, '--', literal(entry.file)], index);
    }
  }
  const patch = await worktree.run(
    ['diff', '--cached', '--no-ext-diff', '--no-textconv', '--no-renames', '--binary', '--full-index', base],
    index
  );
  return { files: verdict.inScope, refused: verdict.outOfScope, patch };
}

async function nameStatus(
  worktree: GitRepository,
  base: string,
  index: Readonly<Record<string, string>>
): Promise<{ status: string; file: string }[]> {
  const raw = await worktree.run(['diff', '--cached', '--no-renames', '--name-status', '-z', base], index);
  const fields = raw.split('\0');
  const entries: { status: string; file: string }[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2)
    entries.push({ status: fields[index]!.charAt(0), file: fields[index + 1]! });
  return entries;
}
