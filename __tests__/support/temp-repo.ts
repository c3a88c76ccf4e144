import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempRepo {
  readonly root: string;
  write(relative: string, content: string): string;
  git(...args: string[]): string;
  remove(): void;
}

/** A real git repository in a fresh temporary folder, optionally seeded from a folder of files. */
export function createTempRepo(seedFrom?: string): TempRepo {
  const root = mkdtempSync(path.join(tmpdir(), 'compact-agent-repo-'));
  if (seedFrom) cpSync(seedFrom, root, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.com'
      }
    });
  git('init', '--quiet', '--initial-branch=main');
  if (seedFrom) {
    git('add', '-A');
    git('commit', '--quiet', '-m', 'seed');
  }
  return {
    root,
    write(relative, content) {
      const absolute = path.join(root, relative);
      mkdirSync(path.dirname(absolute), { recursive: true });
      writeFileSync(absolute, content);
      return absolute;
    },
    git,
    remove: () => rmSync(root, { recursive: true, force: true })
  };
}

/** A temporary folder outside any repository, for escape attempts. */
export function createTempDir(prefix = 'compact-agent-outside-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export interface RepoWithRemote extends TempRepo {
  /** The bare repository that is `origin`. */
  readonly remote: string;
  /** `git` in the bare remote, to see what was pushed. */
  remoteGit(...args: string[]): string;
}

/** An empty bare repository in a fresh temporary folder, to push to; returns its path. */
export function createBareRepository(prefix = 'compact-agent-remote-'): string {
  const bare = mkdtempSync(path.join(tmpdir(), prefix));
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  return bare;
}

/** A repository whose `origin` is a local bare repository, with `main` pushed: pushes stay on this machine. */
export function createRepoWithRemote(seedFrom?: string): RepoWithRemote {
  const remote = createBareRepository();
  const repo = createTempRepo(seedFrom);
  if (!seedFrom) {
    repo.write('README.md', '# demo\n');
    repo.git('add', '-A');
    repo.git('commit', '--quiet', '-m', 'first');
  }
  repo.git('remote', 'add', 'origin', remote);
  repo.git('push', '--quiet', 'origin', 'main');
  const remoteGit = (...args: string[]) => execFileSync('git', args, { cwd: remote, encoding: 'utf8' });
  return {
    ...repo,
    remote,
    remoteGit,
    remove: () => {
      repo.remove();
      rmSync(remote, { recursive: true, force: true });
    }
  };
}
