import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitRepository } from '../git/repository.js';
import { identify, readRegularFile, sameInodeProblem } from '../security/file-identity.js';

/**
 * A shard's own repository at `base`, in a fresh temporary folder: never a linked worktree of the
 * person's repository. The shard's box sees this folder only, `.git` included (pinned and guarded
 * like a normal run's checkout), so nothing it does can reach the person's branches, index,
 * objects or config, nor another shard. The person's objects are borrowed read-only: the shard's
 * `.git/objects/info/alternates` names them and the box shows those folders read-only. Our own git
 * (the scope guard, the patch) uses a second git folder beside it that no box ever sees, with the
 * shard's folder as its work tree: a `.git` the box rewrote cannot send our git anywhere.
 */
export interface ShardRepository {
  /** The shard's folder: its work tree, with its own `.git` inside. */
  readonly root: string;
  /** Our git for that folder: a private git folder (GIT_DIR) no box sees, the folder as work tree. */
  readonly git: GitRepository;
  /** The person's object folders, for the box to show read-only (the shard's alternates name them). */
  readonly sharedObjects: readonly string[];
  /**
   * Why the shard's `.git` no longer is what we made (it could send git elsewhere: a commondir, a
   * config.worktree, other alternates, another config), or undefined. Asked after every boxed program.
   */
  readonly redirection: () => string | undefined;
  readonly close: () => Promise<void>;
}

/** Files in a git folder that make git read another folder's objects, config or work tree. */
const REDIRECTING_FILES = ['commondir', 'config.worktree', 'objects/info/http-alternates'];

export async function openShardRepository(
  repo: GitRepository,
  base: string,
  label: string
): Promise<ShardRepository> {
  const parent = await mkdtemp(path.join(tmpdir(), `compact-agent-${label}-`));
  try {
    // The shard's folder; its sibling `guard.git` (ours) is outside what the box shows.
    const root = path.join(parent, path.basename(parent));
    const guardDir = path.join(parent, 'guard.git');
    mkdirSync(root);
    const objects = await personObjects(repo);
    const format = (await repo.run(['rev-parse', '--show-object-format'])).trim();
    const shallow = path.resolve(repo.root, (await repo.run(['rev-parse', '--git-path', 'shallow'])).trim());
    const own = new GitRepository(root);
    // A fresh repository: nothing of the person's config (remotes, credentials, filters) in it.
    await own.run(['init', '--quiet', `--object-format=${format}`]);
    const guardInit = new GitRepository(parent);
    await guardInit.run(['init', '--quiet', '--bare', `--object-format=${format}`, guardDir]);
    await guardInit.run(['--git-dir', guardDir, 'config', 'core.bare', 'false']);
    const dotGit = path.join(root, '.git');
    const alternates = `${objects[0]!}\n`;
    for (const gitDir of [dotGit, guardDir]) {
      mkdirSync(path.join(gitDir, 'objects', 'info'), { recursive: true });
      writeFileSync(path.join(gitDir, 'objects', 'info', 'alternates'), alternates);
      // A shallow clone's boundary, so that git log stops there instead of failing.
      if (existsSync(shallow)) await copyFile(shallow, path.join(gitDir, 'shallow'));
    }
    await own.run(['checkout', '--quiet', '--detach', base]);
    const before = {
      dotGit: identify(dotGit),
      config: readRegularFile(path.join(dotGit, 'config')),
      alternates: readRegularFile(path.join(dotGit, 'objects', 'info', 'alternates'))
    };
    return {
      root,
      git: new GitRepository(root, { gitDir: guardDir }),
      sharedObjects: objects,
      redirection: () => {
        const moved = before.dotGit ? sameInodeProblem(before.dotGit, identify(dotGit)) : 'it was not made';
        if (moved) return `its .git folder changed: ${moved}`;
        const planted = REDIRECTING_FILES.find((name) => identify(path.join(dotGit, name)) !== undefined);
        if (planted !== undefined) return `a command wrote .git/${planted}`;
        if (readRegularFile(path.join(dotGit, 'config')) !== before.config)
          return 'a command changed .git/config';
        if (readRegularFile(path.join(dotGit, 'objects', 'info', 'alternates')) !== before.alternates)
          return 'a command changed .git/objects/info/alternates';
        return undefined;
      },
      close: () => rm(parent, { recursive: true, force: true })
    };
  } catch (error) {
    await rm(parent, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The person's object folder, then the folders its own alternates name (git follows those too, so
 * the box must show them): absolute real paths, only existing folders.
 */
async function personObjects(repo: GitRepository): Promise<string[]> {
  const objects = realpathSync(
    path.resolve(repo.root, (await repo.run(['rev-parse', '--git-path', 'objects'])).trim())
  );
  const found = [objects];
  for (let index = 0; index < found.length && found.length < 10; index++) {
    const listed = readRegularFile(path.join(found[index]!, 'info', 'alternates'));
    if (listed === undefined || listed.startsWith('\0')) continue;
    for (const line of listed.split('\n')) {
      const entry = line.trim();
      if (entry === '' || entry.startsWith('#')) continue;
      try {
        const folder = realpathSync(path.resolve(found[index]!, entry));
        if (!found.includes(folder)) found.push(folder);
      } catch {
        // Gone: git skips it too.
      }
    }
  }
  return found;
}
