import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitRepository } from '../git/repository.js';

/**
 * A git worktree of the repository at `base` (detached), in a fresh temporary folder outside the
 * repository so that neither its `git status` nor the shards see each other. `close` removes it.
 */
export interface ShardWorktree {
  readonly git: GitRepository;
  readonly close: () => Promise<void>;
}

/**
 * `git worktree add`, `remove` and `prune` of one repository, one at a time: git names each
 * worktree's folder under `.git/worktrees/` after the checkout's folder name, and concurrent
 * calls race for the same name and for the lock of that folder.
 */
const worktreeQueues = new Map<string, Promise<unknown>>();

function serialized<T>(repo: GitRepository, work: () => Promise<T>): Promise<T> {
  const previous = worktreeQueues.get(repo.root) ?? Promise.resolve();
  const next = previous.then(work, work);
  worktreeQueues.set(
    repo.root,
    next.catch(() => undefined)
  );
  return next;
}

export async function openShardWorktree(
  repo: GitRepository,
  base: string,
  label: string
): Promise<ShardWorktree> {
  const parent = await mkdtemp(path.join(tmpdir(), `compact-agent-${label}-`));
  // Named after its unique parent, so git's name for it under .git/worktrees/ is unique too.
  const dir = path.join(parent, path.basename(parent));
  await serialized(repo, () => repo.run(['worktree', 'add', '--detach', '--quiet', dir, base])).catch(
    async (error: unknown) => {
      await rm(parent, { recursive: true, force: true });
      throw error;
    }
  );
  return {
    git: new GitRepository(dir),
    close: async () => {
      await serialized(repo, async () => {
        await repo.run(['worktree', 'remove', '--force', dir]).catch(() => undefined);
        await rm(parent, { recursive: true, force: true });
        await repo.run(['worktree', 'prune']).catch(() => undefined);
      });
    }
  };
}
