import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  type BigIntStats
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A git folder or file a command made inside the workspace, and where it went. */
export interface MovedGitEntry {
  /** Relative to the workspace root, with `/`: `vendor/tool/.git`, or `.git/modules/tool`. */
  readonly path: string;
  readonly kind: 'folder' | 'file' | 'link' | 'other';
  /** Where it is now (a private temporary folder), or undefined when it could only be deleted. */
  readonly movedTo: string | undefined;
  /**
   * Why: `made` (new since the start), `unreadable` (a folder the sweep could not list even after
   * making it listable: the whole folder went, for git can still open a `.git` in it by path), or
   * `rewritten` (a `.git` file of the start whose content changed: the changed one was moved out
   * and the original content written back).
   */
  readonly reason?: 'unreadable' | 'rewritten';
}

/**
 * Nested repositories made during the run. Git runs a repository's own settings (core.fsmonitor,
 * hooks) wherever it finds one: `git status` looks into every populated submodule, and
 * actions/checkout's post step runs `git submodule foreach --recursive` at the job's end, outside
 * the box, with the job's token. A submodule counts as populated when `<path>/.git` exists (a
 * folder, a `gitdir:` file, or a link to either), or for the top repository's own modules,
 * `.git/modules/<name>`. So every `.git` below the root that was not there when the watch began is
 * moved out of the workspace (kept, not deleted), as is every new entry of `.git/modules`.
 * A bare repository under another name is left alone: git only takes a folder for one when a
 * command runs inside it, and neither `git status` nor `submodule foreach` at the root does.
 */
export interface NestedRepositoryWatch {
  /** Moves what appeared since the start out of the workspace; returns what it moved now. */
  sweep(): MovedGitEntry[];
  /** Everything moved so far, in order. */
  moved(): readonly MovedGitEntry[];
  /** The `.git` entries below the root there at the start (relative, with `/`): the box guards them. */
  atStart(): readonly string[];
}

interface SeenFolder {
  readonly ino: bigint;
  readonly ctimeNs: bigint;
  readonly subfolders: readonly string[];
}

/**
 * A folder whose inode change time is this recent may still change within the same clock tick
 * without its time changing (git's "racily clean" problem): it is read again at the next sweep.
 */
const RACY_NS = 2_000_000_000n;

/**
 * Takes the snapshot now (before the first command). The sweep reads again only the folders whose
 * change time moved (an entry added, removed or renamed in a folder changes it, and no program can
 * set it back), so a sweep after each command costs one lstat per folder of an unchanged tree.
 * Links are never followed.
 */
export function watchNestedRepositories(
  root: string,
  /** Where the moved entries go: a folder outside the workspace the box does not show. */
  quarantineParent: string = os.tmpdir()
): NestedRepositoryWatch {
  const workspace = path.resolve(root);
  const seen = new Map<string, SeenFolder>();
  const atStart = new Map<string, bigint>();
  // A `.git` file names the repository git opens; it is tiny, so its content is kept to compare.
  const filesAtStart = new Map<string, Buffer>();
  for (const entry of findGitEntries(workspace, seen)) {
    atStart.set(entry.path, entry.ino);
    if (entry.kind === 'file') filesAtStart.set(entry.path, readFileSync(path.join(workspace, entry.path)));
  }
  const moved: MovedGitEntry[] = [];
  let quarantine: string | undefined;
  const quarantined = (entry: FoundEntry, count: number): MovedGitEntry => {
    quarantine ??= mkdtempSync(path.join(quarantineParent, 'compact-agent-planted-'));
    return moveOut(workspace, entry, path.join(quarantine, String(moved.length + count)));
  };
  return {
    sweep: () => {
      const now: MovedGitEntry[] = [];
      // First the start's `.git` files rewritten since (in place keeps the inode, and the folder's
      // change time, so the walk below would not look at them): each is put back as it was.
      for (const [relative, original] of filesAtStart) {
        const current = lstatOrUndefined(path.join(workspace, relative));
        if (!current || sameFile(path.join(workspace, relative), current, original)) continue;
        const out = quarantined({ path: relative, ino: current.ino, kind: kindOf(current) }, now.length);
        writeFileSync(path.join(workspace, relative), original);
        atStart.set(relative, lstatSync(path.join(workspace, relative), { bigint: true }).ino);
        now.push({ ...out, reason: 'rewritten' });
      }
      for (const entry of findGitEntries(workspace, seen)) {
        if (atStart.get(entry.path) === entry.ino) continue;
        const out = quarantined(entry, now.length);
        now.push(entry.unreadable ? { ...out, reason: 'unreadable' } : out);
      }
      moved.push(...now);
      return now;
    },
    moved: () => moved,
    atStart: () => [...atStart.keys()].filter((relative) => relative.endsWith('/.git'))
  };
}

function sameFile(file: string, stat: BigIntStats, original: Buffer): boolean {
  if (!stat.isFile() || stat.size !== BigInt(original.length)) return false;
  try {
    return readFileSync(file).equals(original);
  } catch {
    return false;
  }
}

interface FoundEntry {
  readonly path: string;
  readonly ino: bigint;
  readonly kind: MovedGitEntry['kind'];
  /** A folder that could not be listed: git may still open a `.git` in it by path. */
  readonly unreadable?: true;
}

function findGitEntries(workspace: string, seen: Map<string, SeenFolder>): FoundEntry[] {
  const found: FoundEntry[] = [];
  const racyAfter = BigInt(Date.now()) * 1_000_000n - RACY_NS;
  const visit = (relative: string): void => {
    const absolute = path.join(workspace, relative);
    const stat = lstatOrUndefined(absolute);
    if (!stat?.isDirectory()) return;
    const before = seen.get(relative);
    if (before && before.ino === stat.ino && before.ctimeNs === stat.ctimeNs) {
      for (const folder of before.subfolders) visit(folder);
      return;
    }
    const names = listFolder(absolute, stat);
    if (names === undefined) {
      // `chmod 111` hides what a folder holds from a listing, not from git opening `<path>/.git`.
      seen.delete(relative);
      if (relative !== '') found.push({ path: relative, ino: stat.ino, kind: 'folder', unreadable: true });
      return;
    }
    const subfolders: string[] = [];
    for (const name of names) {
      const child = relative === '' ? name : `${relative}/${name}`;
      const childStat = lstatOrUndefined(path.join(workspace, child));
      if (!childStat) continue;
      if (name === '.git') {
        // The repository's own .git is the guard's (repository-guard.ts); only its modules are looked at.
        if (relative !== '') found.push({ path: child, ino: childStat.ino, kind: kindOf(childStat) });
        continue; // a git folder's insides are git's, not the workspace's
      }
      if (childStat.isDirectory()) subfolders.push(child);
    }
    if (stat.ctimeNs < racyAfter) seen.set(relative, { ino: stat.ino, ctimeNs: stat.ctimeNs, subfolders });
    else seen.delete(relative);
    for (const folder of subfolders) visit(folder);
  };
  visit('');
  found.push(...topModules(workspace));
  return found;
}

/** `.git/modules/<name>`: what a gitlink at any path finds as its repository, once `<path>/.git` names it. */
function topModules(workspace: string): FoundEntry[] {
  const modules = path.join(workspace, '.git', 'modules');
  if (!lstatOrUndefined(path.join(workspace, '.git'))?.isDirectory()) return [];
  const stat = lstatOrUndefined(modules);
  if (!stat?.isDirectory()) return [];
  const names = listFolder(modules, stat) ?? [];
  return names.flatMap((name) => {
    const stat = lstatOrUndefined(path.join(modules, name));
    return stat ? [{ path: `.git/modules/${name}`, ino: stat.ino, kind: kindOf(stat) }] : [];
  });
}

/**
 * The names in a folder; one without read and search for its owner is made listable first (the
 * runner owns what a command in the box made, so it may). Undefined when it still cannot be listed.
 */
function listFolder(absolute: string, stat: BigIntStats): string[] | undefined {
  if ((Number(stat.mode) & 0o700) !== 0o700) makeOwnerFull(absolute, stat);
  try {
    return readdirSync(absolute);
  } catch {
    return undefined;
  }
}

function makeOwnerFull(absolute: string, stat: BigIntStats): void {
  try {
    chmodSync(absolute, (Number(stat.mode) & 0o7777) | 0o700);
  } catch {
    // Not ours: the caller finds out by what it cannot do.
  }
}

function moveOut(workspace: string, entry: FoundEntry, destination: string): MovedGitEntry {
  const source = path.join(workspace, entry.path);
  // A parent made read-only would keep the entry where it is.
  const parent = lstatOrUndefined(path.dirname(source));
  if (parent?.isDirectory()) makeOwnerFull(path.dirname(source), parent);
  try {
    renameSync(source, destination);
    return { path: entry.path, kind: entry.kind, movedTo: destination };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') return deleted(source, entry);
  }
  // Another file system (a tmpfs /tmp): a copy, links copied as links, then the original removed.
  try {
    cpSync(source, destination, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
  } catch {
    rmSync(destination, { recursive: true, force: true });
    return deleted(source, entry);
  }
  rmSync(source, { recursive: true, force: true });
  return { path: entry.path, kind: entry.kind, movedTo: destination };
}

/** What could not be moved (a FIFO, a full disk) is deleted: it must not stay where git looks. */
function deleted(source: string, entry: FoundEntry): MovedGitEntry {
  rmSync(source, { recursive: true, force: true });
  return { path: entry.path, kind: entry.kind, movedTo: undefined };
}

function kindOf(stat: BigIntStats): MovedGitEntry['kind'] {
  if (stat.isSymbolicLink()) return 'link';
  if (stat.isDirectory()) return 'folder';
  return stat.isFile() ? 'file' : 'other';
}

function lstatOrUndefined(file: string): BigIntStats | undefined {
  try {
    return lstatSync(file, { bigint: true });
  } catch {
    return undefined;
  }
}
