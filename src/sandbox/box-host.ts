import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync
} from 'node:fs';
import path from 'node:path';
import type { GitGuardPaths, SystemEntry } from './box-layout.js';

/** Read-only system folders: programs, libraries, configuration, the runner's tool cache (/opt). */
const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

/** Folders in HOME that hold credentials, never shown even when a PATH entry lies inside. */
const SECRET_HOME_FOLDERS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config',
  '.docker',
  '.kube',
  '.netrc',
  '.npmrc'
];

/** Credential files inside toolchain folders (cargo keeps its registry token in CARGO_HOME). */
const TOOLCHAIN_SECRET_FILES = ['credentials.toml', 'credentials'];

export function systemEntries(): SystemEntry[] {
  const entries: SystemEntry[] = [];
  for (const folder of SYSTEM_FOLDERS) {
    let stat;
    try {
      stat = lstatSync(folder);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) entries.push({ kind: 'link', path: folder, target: readlinkSync(folder) });
    else if (stat.isDirectory()) entries.push({ kind: 'folder', path: folder });
  }
  return entries;
}

export interface ToolchainScan {
  readonly folders: string[];
  readonly masked: string[];
}

/**
 * The folders the job's toolchain lives in that the system folders do not cover: PATH entries and
 * toolchain variables (CARGO_HOME, GOROOT, ...) outside /usr, /opt. Under HOME, the top folder
 * (~/.cargo for ~/.cargo/bin, ~/.pyenv for its shims), unless it holds something hidden (the
 * workspace's parent, RUNNER_TEMP, the action's temp folder) or is a credentials folder; then only
 * the entry itself. Never a folder that contains a hidden one.
 */
export function toolchainFolders(
  candidates: readonly string[],
  home: string,
  hidden: readonly string[]
): ToolchainScan {
  const folders = new Set<string>();
  for (const candidate of candidates) {
    if (!path.isAbsolute(candidate) || !isFolder(candidate)) continue;
    const folder = path.resolve(candidate);
    if (SYSTEM_FOLDERS.some((root) => within(folder, root))) continue;
    const chosen = within(folder, home) && folder !== home ? homeToolchain(folder, home, hidden) : folder;
    if (chosen === undefined) continue;
    if (hidden.some((secret) => within(secret, chosen) || within(chosen, secret))) continue;
    if (within(home, chosen)) continue; // `/` or `/home` in PATH would show the real home.
    folders.add(chosen);
  }
  const list = [...folders].sort();
  const masked = list.flatMap((folder) =>
    TOOLCHAIN_SECRET_FILES.map((file) => path.join(folder, file)).filter(isFile)
  );
  return { folders: list, masked };
}

function homeToolchain(folder: string, home: string, hidden: readonly string[]): string | undefined {
  const top = path.join(home, path.relative(home, folder).split(path.sep)[0]!);
  if (SECRET_HOME_FOLDERS.includes(path.basename(top))) return undefined;
  const holdsHidden = hidden.some((secret) => within(secret, top));
  return holdsHidden ? folder : top;
}

export function within(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function isFolder(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

function isFile(candidate: string): boolean {
  try {
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/**
 * Files in /etc that only root may read: password hashes and the machine's SSH host keys. A runner
 * that runs as root (a container, a self-hosted machine) runs the box as uid 0, which owns them; the
 * box shows them empty. Nothing else in the read-only system folders is a secret of the runner's.
 */
export function systemSecretFiles(): string[] {
  let sshKeys: string[] = [];
  try {
    sshKeys = readdirSync('/etc/ssh')
      .filter((name) => /^ssh_host_.*_key$/.test(name))
      .map((name) => path.join('/etc/ssh', name));
  } catch {
    sshKeys = [];
  }
  return ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/gshadow-', '/etc/sudoers', ...sshKeys].filter(
    isFile
  );
}

/**
 * The common git folder of a worktree checkout (`.git` is a file: `gitdir: <main>/.git/worktrees/<name>`),
 * which lies outside the repository; undefined for an ordinary clone, whose `.git` is inside. Only a
 * folder that is a git folder (it holds `worktrees/`) is returned, and never a hidden one.
 */
export function worktreeCommonDir(workspace: string, hidden: readonly string[]): string | undefined {
  let text: string;
  try {
    const dotGit = path.join(workspace, '.git');
    if (!lstatSync(dotGit).isFile()) return undefined;
    text = readFileSync(dotGit, 'utf8');
  } catch {
    return undefined;
  }
  const gitdir = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  if (!gitdir) return undefined;
  const own = path.resolve(workspace, gitdir);
  const common = path.dirname(path.dirname(own));
  if (path.basename(path.dirname(own)) !== 'worktrees' || !isFolder(common)) return undefined;
  if (hidden.some((secret) => within(secret, common) || within(common, secret))) return undefined;
  return common;
}

/**
 * What in the repository's git folders could make git run a program later, outside the box: the
 * config (core.fsmonitor, core.pager, filters, core.hooksPath, includes), the hooks, and for a
 * worktree the `.git` file that names its git folder, and the submodules' repositories (`modules/`).
 * The box shows them read-only, and pins an
 * ordinary `.git` folder in place (so it cannot be moved aside and replaced), so a command cannot
 * plant a program that the CLI's user, or a later step of the job, runs the next time they use git
 * there. A missing hooks folder is made (empty) first: a folder the box may create is one it may fill.
 */
/**
 * A `commondir` file planted in an ordinary `.git` folder sends git to another folder's config (one
 * the command wrote, with a core.fsmonitor of its own) the next time git runs there, outside the
 * box. It cannot be shown read-only before it exists, so it is removed after every boxed program;
 * says which were removed.
 */
export function removePlantedCommonDir(pinned: readonly string[]): string[] {
  const removed: string[] = [];
  for (const gitDir of pinned) {
    const planted = path.join(gitDir, 'commondir');
    try {
      lstatSync(planted);
    } catch {
      continue;
    }
    rmSync(planted, { recursive: true, force: true });
    removed.push(planted);
  }
  return removed;
}

export function gitGuardPaths(workspace: string, gitCommonDir: string | undefined): GitGuardPaths {
  const dotGit = path.join(workspace, '.git');
  const gitDirs: string[] = [];
  const pinned: string[] = [];
  const readOnly: string[] = [];
  try {
    const stat = lstatSync(dotGit);
    if (stat.isDirectory()) {
      gitDirs.push(dotGit);
      pinned.push(dotGit);
    } else if (stat.isFile()) {
      readOnly.push(dotGit);
      const own = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (own) gitDirs.push(path.resolve(workspace, own));
      if (gitCommonDir !== undefined) gitDirs.push(gitCommonDir);
    }
  } catch {
    return { pinned, readOnly };
  }
  for (const gitDir of gitDirs) {
    // modules/<name> is a submodule's repository, config and hooks included: a gitlink whose
    // `<path>/.git` names one is a repository git runs settings of (git status, submodule foreach).
    const folders = ['hooks', 'modules'].map((name) => path.join(gitDir, name));
    for (const folder of folders) {
      try {
        if (!existsSync(folder)) mkdirSync(folder);
      } catch {
        // A folder we cannot make is one the box cannot make either.
      }
    }
    const files = ['config', 'config.worktree', 'commondir'].map((name) => path.join(gitDir, name));
    for (const candidate of [...files, ...folders]) {
      try {
        const stat = lstatSync(candidate);
        if (stat.isFile() || stat.isDirectory()) readOnly.push(candidate);
      } catch {
        // Absent: git reads nothing there.
      }
    }
  }
  return { pinned, readOnly };
}

/**
 * The workspace's own git paths and, guarded the same way, those of every `.git` below it that was
 * there at the start (a submodule's `gitdir:` file, a nested repository's folder): git runs their
 * settings too (`git status`, the checkout's post-step `submodule foreach`). Paths outside the
 * workspace are left out: they would show the box a folder it does not otherwise see.
 */
export function workspaceGitGuardPaths(
  workspace: string,
  gitCommonDir: string | undefined,
  nestedAtStart: readonly string[]
): GitGuardPaths {
  const top = gitGuardPaths(workspace, gitCommonDir);
  const pinned = [...top.pinned];
  const readOnly = [...top.readOnly];
  const inside = (candidate: string) => candidate.startsWith(workspace + path.sep);
  for (const relative of nestedAtStart) {
    const nested = gitGuardPaths(path.dirname(path.join(workspace, relative)), undefined);
    pinned.push(...nested.pinned.filter(inside));
    readOnly.push(...nested.readOnly.filter(inside));
  }
  return { pinned: [...new Set(pinned)], readOnly: [...new Set(readOnly)] };
}
