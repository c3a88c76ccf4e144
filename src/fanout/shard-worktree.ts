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

export async function openShardWorktree(
  repo: GitRepository,
  base: string,
  label: string
): Promise<ShardWorktree> {
  const parent = await mkdtemp(path.join(tmpdir(), `compact-agent-${label}-`));
  const dir = path.join(parent, 'work');
  await repo.run(['worktree', 'add', '--detach', '--quiet', dir, base]);
  return {
    git: new GitRepository(dir),
    close: async () => {
      await repo.run(['worktree', 'remove', '--force', dir]).catch(() => undefined);
      await rm(parent, { recursive: true, force: true });
      await repo.run(['worktree', 'prune']).catch(() => undefined);
    }
  };
}
