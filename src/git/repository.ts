import { execFile } from 'node:child_process';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface GitIdentity {
  readonly name: string;
  readonly email: string;
}

export class GitError extends Error {
  constructor(args: readonly string[], stderr: string) {
    super(`git ${args.join(' ')} failed: ${stderr.trim().split('\n').slice(-3).join(' ')}`);
    this.name = 'GitError';
  }
}

/**
 * The git boundary: the few commands the action runs, each with fixed arguments. Only the action
 * commits and pushes; it never force-pushes and never pushes the default branch.
 */
export class GitRepository {
  constructor(
    readonly root: string,
    private readonly env: NodeJS.ProcessEnv = process.env
  ) {}

  /**
   * Runs git for the action itself. The agent may have planted hooks, an fsmonitor or a credential
   * helper (in .git or in ~/.gitconfig): hooks and fsmonitor are switched off, global and system
   * config are not read, and git gets a minimal environment without the action's secrets.
   */
  run(args: readonly string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        'git',
        ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args],
        { cwd: this.root, env: gitEnvironment(this.env), maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) =>
          error ? reject(new GitError(args, stderr || error.message)) : resolve(stdout)
      );
    });
  }

  async currentBranch(): Promise<string> {
    return (await this.run(['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
  }

  async head(): Promise<string> {
    return (await this.run(['rev-parse', 'HEAD'])).trim();
  }

  /** Keeps the run's transcripts out of every commit, without touching the repository's .gitignore. */
  async excludeFromCommits(relativePath: string): Promise<void> {
    const exclude = path.join(this.root, '.git', 'info', 'exclude');
    await mkdir(path.dirname(exclude), { recursive: true });
    const current = await readFile(exclude, 'utf8').catch(() => '');
    const line = `/${relativePath.replace(/^\/+/, '')}`;
    if (!current.split('\n').includes(line))
      await appendFile(exclude, `${current.endsWith('\n') || current === '' ? '' : '\n'}${line}\n`);
  }

  /** Fetches a branch or pull ref from origin and checks it out (the PR's head, for PR comments). */
  async checkoutFromOrigin(ref: string, localBranch: string | undefined): Promise<void> {
    await this.run(['fetch', '--no-tags', 'origin', ref]);
    await this.run(
      localBranch ? ['checkout', '-B', localBranch, 'FETCH_HEAD'] : ['checkout', '--detach', 'FETCH_HEAD']
    );
  }

  async createBranch(name: string): Promise<void> {
    await this.run(['checkout', '-b', name]);
  }

  /** Stages everything (the exclude file keeps transcripts out) and commits when something changed. */
  async commitAll(message: string, identity: GitIdentity): Promise<boolean> {
    await this.run(['add', '--all']);
    const staged = await this.run(['diff', '--cached', '--name-only']);
    if (staged.trim() === '') return false;
    await this.run([
      '-c',
      `user.name=${identity.name}`,
      '-c',
      `user.email=${identity.email}`,
      'commit',
      '--quiet',
      '--no-verify',
      '-m',
      message
    ]);
    return true;
  }

  /** Paths under `folder` that differ from `base`, committed or not, tracked or new. */
  async changedUnder(base: string, folder: string): Promise<string[]> {
    const committed = await this.run(['diff', '--name-only', base, '--', folder]);
    const uncommitted = await this.run(['status', '--porcelain', '--untracked-files=all', '--', folder]);
    const paths = [
      ...committed.split('\n'),
      ...uncommitted.split('\n').map((line) => line.slice(3).replace(/^.* -> /, ''))
    ].filter((line) => line.trim() !== '');
    return [...new Set(paths)].sort();
  }

  /** Puts `folder` back as it is in `base`: changes undone, new files removed. */
  async revertFolder(base: string, folder: string): Promise<void> {
    await this.run(['checkout', base, '--', folder]).catch(() => undefined); // the folder may not exist in base
    await this.run(['clean', '-fdq', '--', folder]);
    const left = await this.run(['diff', '--name-only', base, '--', folder]);
    for (const file of left.split('\n').filter((line) => line !== ''))
      await this.run(['rm', '-q', '--cached', '--ignore-unmatch', file]);
  }

  async diffStat(base: string): Promise<string> {
    return (await this.run(['diff', '--stat', base, 'HEAD'])).trimEnd();
  }

  async patch(base: string): Promise<string> {
    return this.run(['diff', '--binary', base, 'HEAD']);
  }

  /** The only push there is: `push origin <branch>`, never forced, never the default branch. */
  async push(branch: string, defaultBranch: string): Promise<void> {
    if (branch === defaultBranch)
      throw new GitError(['push', 'origin', branch], 'refusing to push the default branch');
    await this.run(['push', 'origin', branch]);
  }
}

/** What git needs to run, and nothing more: no tokens, no inputs. */
function gitEnvironment(source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: source.PATH,
    HOME: source.HOME,
    LANG: source.LANG ?? 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1'
  };
}
