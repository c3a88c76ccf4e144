import { execFile, type ExecFileException } from 'node:child_process';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConfigEntry } from './config-snapshot.js';
import { pinnedGit, type TrustedGit } from './git-binary.js';

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

export interface GitOptions {
  /** The git executable; by default the one pinned at the action's start. */
  readonly binary?: TrustedGit;
  /** The action's own environment: only proxy settings are taken from it. */
  readonly sourceEnv?: NodeJS.ProcessEnv;
  /** Config given to `push` alone, through the environment (the credential's extraheader). */
  readonly pushConfig?: readonly ConfigEntry[];
  /** How long one command may take before it is killed (default 5 minutes). */
  readonly timeoutMs?: number;
  /**
   * A git folder of our own for `root` as the work tree (GIT_DIR, GIT_WORK_TREE): git then reads no
   * `.git` in `root`, which a box may have written (a fan-out shard's repository).
   */
  readonly gitDir?: string;
}

/**
 * Long enough for a push of a large change over a slow link; short enough that a FIFO planted
 * where git reads (a .gitattributes, a config file) cannot hold the job until its own timeout.
 */
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * Overrides on every command, for settings the repository's config could still carry (the guard
 * rewrites that config, but a command may run before it, e.g. `git status` during the session).
 * Each one names a program git would run or a file it would read on the repository's say.
 */
const SAFE_OVERRIDES = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.sshCommand=ssh',
  'core.askPass=',
  'credential.helper=',
  'core.pager=cat',
  'core.attributesFile=/dev/null',
  'core.excludesFile=/dev/null',
  'diff.external=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'protocol.ext.allow=never',
  'gc.auto=0',
  'maintenance.auto=false'
].flatMap((setting) => ['-c', setting]);

/**
 * The git boundary: the few commands the action runs, each with fixed arguments. Only the action
 * commits and pushes; it never pushes the default branch, and forces only a fan-out branch, with a
 * lease (pushReplacingFanoutBranch).
 */
export class GitRepository {
  private readonly binary: TrustedGit;

  constructor(
    readonly root: string,
    private readonly options: GitOptions = {}
  ) {
    this.binary = options.binary ?? pinnedGit();
  }

  /** The same repository, whose `push` carries `entries` (nothing else sees them). */
  withPushConfig(entries: readonly ConfigEntry[]): GitRepository {
    return new GitRepository(this.root, { ...this.options, binary: this.binary, pushConfig: entries });
  }

  /**
   * Runs git for the action itself: the executable pinned at start (a `git` planted on PATH never
   * runs), no system or global config, a private empty HOME, none of the caller's GIT_* variables,
   * and no secret but what `extraEnv` adds for one command.
   */
  async run(
    args: readonly string[],
    extraEnv: Readonly<Record<string, string>> = {},
    extraConfig: readonly ConfigEntry[] = []
  ): Promise<string> {
    const filters = await this.filterOverrides();
    return this.runWith(args, { ...extraEnv, ...configEnvironment([...filters, ...extraConfig]) });
  }

  /**
   * A filter's clean, smudge or process command runs inside `git add`, `status` and `checkout`
   * for every path .gitattributes (in the tree, so the agent's) gives that filter. Overrides can
   * only name drivers, so the drivers the config defines now (includes and commondir followed,
   * since git lists what it would use) are each switched off. Listing config runs no program.
   * They go through the environment, not `-c`: a driver named `a=b` would split a `-c` wrongly.
   */
  private async filterOverrides(): Promise<ConfigEntry[]> {
    let listing: string;
    try {
      listing = await this.runWith(['config', '-z', '--name-only', '--get-regexp', '^filter\\.'], {});
    } catch {
      return []; // none defined (git exits 1), or no repository yet
    }
    const drivers = new Set(
      listing
        .split('\0')
        .filter((key) => key.includes('.'))
        .map((key) => key.slice(key.indexOf('.') + 1, key.lastIndexOf('.')))
        .filter((driver) => driver !== '')
    );
    return [...drivers].flatMap((driver) =>
      (['clean', 'smudge', 'process', 'required'] as const).map((name) => ({
        key: `filter.${driver}.${name}`,
        value: name === 'required' ? 'false' : ''
      }))
    );
  }

  private runWith(args: readonly string[], extraEnv: Readonly<Record<string, string>>): Promise<string> {
    this.binary.assertUnchanged();
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      execFile(
        this.binary.path,
        ['--no-pager', ...SAFE_OVERRIDES, ...args],
        {
          cwd: this.root,
          env: {
            ...gitEnvironment(this.binary, this.root, this.options.sourceEnv ?? process.env),
            ...(this.options.gitDir === undefined
              ? {}
              : { GIT_DIR: this.options.gitDir, GIT_WORK_TREE: this.root }),
            ...extraEnv
          },
          maxBuffer: 64 * 1024 * 1024,
          timeout: timeoutMs,
          killSignal: 'SIGKILL'
        },
        (error, stdout, stderr) =>
          error ? reject(new GitError(args, stderr || whyItFailed(error, timeoutMs))) : resolve(stdout)
      );
    });
  }

  async currentBranch(): Promise<string> {
    return (await this.run(['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
  }

  async head(): Promise<string> {
    return (await this.run(['rev-parse', 'HEAD'])).trim();
  }

  /** The tree of a commit, e.g. to tell "nothing changed" from a new tree. */
  async treeOf(revision: string): Promise<string> {
    return (await this.run(['rev-parse', '--verify', `${revision}^{tree}`])).trim();
  }

  /** The absolute .git folder (where config, objects and refs live). */
  async gitDir(): Promise<string> {
    return (await this.run(['rev-parse', '--absolute-git-dir'])).trim();
  }

  /** Keeps the run's transcripts out of the agent's `git status`, without touching .gitignore. */
  async excludeFromCommits(relativePath: string): Promise<void> {
    const exclude = path.join(this.root, '.git', 'info', 'exclude');
    await mkdir(path.dirname(exclude), { recursive: true });
    const current = await readFile(exclude, 'utf8').catch(() => '');
    const line = `/${relativePath.replace(/^\/+/, '')}`;
    if (!current.split('\n').includes(line))
      await appendFile(exclude, `${current.endsWith('\n') || current === '' ? '' : '\n'}${line}\n`);
  }

  /** Whether origin has exactly this branch (ls-remote matches patterns by their tail: x/refs/heads/<name> would do). */
  async remoteHasBranch(branch: string): Promise<boolean> {
    return (await this.listedHead(branch, [])) !== undefined;
  }

  /** The commit origin's branch points at, or undefined when it has none; asked with the push's credential. */
  async remoteBranchHead(branch: string): Promise<string | undefined> {
    return this.listedHead(branch, this.options.pushConfig ?? []);
  }

  private async listedHead(branch: string, config: readonly ConfigEntry[]): Promise<string | undefined> {
    const ref = `refs/heads/${branch}`;
    const listed = await this.run(['ls-remote', '--heads', 'origin', ref], {}, config);
    return listed
      .split('\n')
      .map((line) => line.split('\t'))
      .find((fields) => fields[1] === ref)?.[0];
  }

  /**
   * The tree and first parent of a commit, fetching it from origin's `branch` (with the push's
   * credential, to the same origin) when it is not here yet; undefined when it cannot be had.
   */
  async commitShape(commit: string, branch: string): Promise<{ tree: string; parent: string } | undefined> {
    if (!/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
    const shape = async () => ({
      tree: (await this.run(['rev-parse', '--verify', '--quiet', `${commit}^{tree}`])).trim(),
      parent: (await this.run(['rev-parse', '--verify', '--quiet', `${commit}^1`])).trim()
    });
    try {
      return await shape();
    } catch {
      try {
        await this.run(
          ['fetch', '--no-tags', 'origin', `refs/heads/${branch}`],
          {},
          this.options.pushConfig ?? []
        );
        return await shape();
      } catch {
        return undefined;
      }
    }
  }

  /** Fetches a branch or pull ref from origin and checks it out (the PR's head, for PR comments). */
  async checkoutFromOrigin(ref: string, localBranch: string | undefined): Promise<void> {
    await this.run(['fetch', '--no-tags', 'origin', ref]);
    await this.run(
      localBranch ? ['checkout', '-B', localBranch, 'FETCH_HEAD'] : ['checkout', '--detach', 'FETCH_HEAD']
    );
  }

  /**
   * The tree to publish: `source` (the working tree, or a commit) with the `asInBase` paths put
   * back as they are in `base`. `withheld` lists what that undid under `withheldFolders`;
   * `withheldSubmodules` the gitlinks and `.gitmodules` put back unless `allowSubmodules`.
   */
  async treeToPublish(
    base: string,
    source: 'working-tree' | 'HEAD',
    asInBase: readonly string[],
    withheldFolders: readonly string[],
    allowSubmodules = false
  ): Promise<{ tree: string; withheld: string[]; withheldSubmodules: string[] }> {
    // From HEAD, a private index leaves the repository's own untouched (and needs no working tree).
    const indexEnv: Record<string, string> =
      source === 'HEAD'
        ? { GIT_INDEX_FILE: path.join(privateHome(), `index-${process.hrtime.bigint()}`) }
        : {};
    if (source === 'HEAD') await this.run(['read-tree', 'HEAD'], indexEnv);
    else await this.run(['add', '--all']);
    const withheld =
      withheldFolders.length === 0
        ? []
        : (
            await this.run(
              [
                'diff',
                '--no-ext-diff',
                '--no-textconv',
                '--cached',
                '--no-renames',
                '--name-only',
                base,
                '--',
                ...withheldFolders
              ],
              indexEnv
            )
          )
            .split('\n')
            .filter((line) => line !== '');
    const withheldSubmodules = allowSubmodules ? [] : await this.submoduleChanges(base, indexEnv);
    const putBack = [...asInBase, ...withheldSubmodules.map(literalPathspec)];
    if (putBack.length > 0) await this.run(['reset', '-q', base, '--', ...putBack], indexEnv);
    const tree = (await this.run(['write-tree'], indexEnv)).trim();
    return { tree, withheld, withheldSubmodules };
  }

  /**
   * The index's gitlinks (mode 160000) and `.gitmodules` that differ from `base`'s. A gitlink
   * with a `.gitmodules` entry is a submodule: git (`git status`, actions/checkout's post step)
   * runs the settings of the repository it names, so the run may not add or change one unasked.
   */
  private async submoduleChanges(base: string, indexEnv: Record<string, string>): Promise<string[]> {
    const raw = await this.run(
      ['diff', '--no-ext-diff', '--no-textconv', '--cached', '--no-renames', '--raw', '-z', base],
      indexEnv
    );
    // `:<old mode> <new mode> <old id> <new id> <status>\0<path>\0` per changed path.
    const fields = raw.split('\0');
    const changed: string[] = [];
    for (let index = 0; index + 1 < fields.length; index += 2) {
      const [oldMode, newMode] = fields[index]!.replace(/^:/, '').split(' ');
      const file = fields[index + 1]!;
      if (oldMode === GITLINK_MODE || newMode === GITLINK_MODE || file === '.gitmodules') changed.push(file);
    }
    return changed;
  }

  /** A commit of `tree` on `parent`, authored and committed by `identity` (the environment wins over any config). */
  async commitTree(tree: string, parent: string, message: string, identity: GitIdentity): Promise<string> {
    const who = {
      GIT_AUTHOR_NAME: identity.name,
      GIT_AUTHOR_EMAIL: identity.email,
      GIT_COMMITTER_NAME: identity.name,
      GIT_COMMITTER_EMAIL: identity.email
    };
    return (await this.run(['commit-tree', tree, '-p', parent, '-m', message], who)).trim();
  }

  /** Points `branch` at `commit` and checks it out, leaving the working tree as it is. */
  async moveBranchTo(branch: string, commit: string): Promise<void> {
    await this.run(['update-ref', `refs/heads/${branch}`, commit]);
    await this.run(['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
    // The index only mirrors the new commit for whoever looks later; the push does not need it,
    // and after a fault (a full disk) a stale index.lock may be in the way.
    await this.run(['reset', '-q']).catch(() => undefined);
  }

  async diffStat(base: string, commit = 'HEAD'): Promise<string> {
    return (await this.run(['diff', '--no-ext-diff', '--no-textconv', '--stat', base, commit])).trimEnd();
  }

  async patch(base: string, commit = 'HEAD'): Promise<string> {
    return this.run(['diff', '--no-ext-diff', '--no-textconv', '--binary', base, commit]);
  }

  /**
   * The one push that replaces a branch: a fan-out's landing moves its deterministic branch
   * (`fanout/<plan>/...`) to a new commit on a re-run, which is no fast-forward. The lease replaces
   * only what was seen there (`expected`; undefined: the branch must not exist yet), so a commit
   * someone pushed since is never lost; any other branch is refused.
   */
  async pushReplacingFanoutBranch(
    branch: string,
    expected: string | undefined,
    defaultBranch: string
  ): Promise<void> {
    const ref = `refs/heads/${branch}`;
    if (branch === defaultBranch || !branch.startsWith(FANOUT_BRANCH_PREFIX))
      throw new GitError(
        ['push', 'origin', branch],
        `refusing to replace ${branch}: only fan-out branches (${FANOUT_BRANCH_PREFIX}...) are replaced`
      );
    await this.run(
      ['push', `--force-with-lease=${ref}:${expected ?? ''}`, 'origin', `${ref}:${ref}`],
      {},
      this.options.pushConfig ?? []
    );
  }

  /**
   * The push of a new branch or a fast-forward: the branch to the same branch on origin, never
   * forced, never the default branch. The push config (the credential: github_token's header or the checkout's) goes
   * to this one command, in its environment: never to a file, never to another command.
   */
  async push(branch: string, defaultBranch: string): Promise<void> {
    if (branch === defaultBranch)
      throw new GitError(['push', 'origin', branch], 'refusing to push the default branch');
    await this.run(
      ['push', 'origin', `refs/heads/${branch}:refs/heads/${branch}`],
      {},
      this.options.pushConfig ?? []
    );
  }
}

/** Where every fan-out branch lives (src/fanout/branch-names.ts). */
const FANOUT_BRANCH_PREFIX = 'fanout/';

/** A tree entry's mode for a gitlink: a commit of another repository, where a submodule goes. */
const GITLINK_MODE = '160000';

/** A path for a pathspec, taken as written (no glob, no magic a file name could hold). */
function literalPathspec(file: string): string {
  return `:(literal)${file}`;
}

/** How git ended, without the command line (it is long, and says nothing the caller does not know). */
function whyItFailed(error: ExecFileException, timeoutMs: number): string {
  if (error.killed && error.signal === 'SIGKILL')
    return `git did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped (something in the repository, such as a FIFO where git reads a file, may block it)`;
  if (error.signal)
    return `git was killed by ${error.signal}${error.signal === 'SIGXFSZ' ? ' (a file grew past the size limit)' : ''}`;
  return typeof error.code === 'number' ? `git exited with code ${error.code}` : error.message;
}

/** Config through the environment (git 2.31+): it is in no file and on no command line. */
function configEnvironment(entries: readonly ConfigEntry[]): Record<string, string> {
  if (entries.length === 0) return {};
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach((entry, index) => {
    env[`GIT_CONFIG_KEY_${index}`] = entry.key;
    env[`GIT_CONFIG_VALUE_${index}`] = entry.value ?? 'true';
  });
  return env;
}

const PROXY_VARIABLES = [
  'http_proxy',
  'https_proxy',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'no_proxy',
  'NO_PROXY',
  'ALL_PROXY',
  'all_proxy'
];

/**
 * What git needs to run, and nothing more: no tokens, no inputs, no GIT_* from outside. PATH holds
 * only git's own folder and the system's, for the helpers git starts (ssh, its remote helpers).
 */
function gitEnvironment(binary: TrustedGit, root: string, source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const home = privateHome();
  const env: NodeJS.ProcessEnv = {
    PATH: [...new Set([path.dirname(binary.path), '/usr/bin', '/bin'])].join(path.delimiter),
    HOME: home,
    XDG_CONFIG_HOME: home,
    LANG: source.LANG ?? 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    // A workspace whose .git was removed must not make git use a repository above it.
    GIT_CEILING_DIRECTORIES: path.dirname(path.resolve(root))
  };
  for (const name of PROXY_VARIABLES) if (source[name]) env[name] = source[name];
  return env;
}

let home: string | undefined;

/** An empty folder of the action's own, as git's HOME: no ~/.gitconfig, no XDG git files. */
function privateHome(): string {
  home ??= mkdtempSync(path.join(tmpdir(), 'compact-agent-git-home-'));
  return home;
}
