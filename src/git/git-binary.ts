import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { identify, unchangedProblem, type FileIdentity } from '../security/file-identity.js';

/** Folders searched after the PATH the action started with; where distributions install git. */
const SYSTEM_FOLDERS = ['/usr/bin', '/bin', '/usr/local/bin'];

/** The git executable the action uses, found before the agent ran and checked before every use. */
export interface TrustedGit {
  /** Absolute, symlinks resolved. */
  readonly path: string;
  /** Throws when the file is no longer exactly what was found (replaced, rewritten, re-moded). */
  assertUnchanged(): void;
}

export class UntrustedGitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedGitError';
  }
}

/**
 * Finds git once, before the agent can plant anything: a `git` in a PATH folder the agent can write
 * would otherwise see the push token. Candidates come from `searchPath` (the PATH at start) and then
 * the system folders; the first that passes `candidateProblem` wins, root's own before the runner
 * user's (the agent runs as that user, so it can rewrite that user's files and the helpers git
 * starts next to them), and its identity (inode, size, ctime) is pinned so that a rewrite is noticed.
 */
export function resolveTrustedGit(
  searchPath: string | undefined,
  untrustedFolders: readonly string[]
): TrustedGit {
  const folders = [...(searchPath ?? '').split(path.delimiter), ...SYSTEM_FOLDERS];
  const refused: string[] = [];
  const accepted: string[] = [];
  for (const folder of folders) {
    if (!path.isAbsolute(folder)) continue; // '' and relative entries mean the current folder
    const candidate = path.join(folder, 'git');
    if (!identify(candidate)) continue;
    const problem = candidateProblem(candidate, untrustedFolders);
    if (problem) refused.push(`${candidate} (${problem})`);
    else accepted.push(realpathSync(candidate));
  }
  const chosen = accepted.find((real) => identify(real)?.uid === 0) ?? accepted[0];
  if (chosen) return pinTrustedGit(chosen);
  throw new UntrustedGitError(
    `compact-agent found no git it can trust. It needs a git executable owned by root or by the ` +
      `runner's user, outside the workspace and temporary folders, in a folder no other user can ` +
      `write. ${refused.length > 0 ? `Refused: ${refused.join('; ')}.` : 'None was found on PATH or in /usr/bin.'} ` +
      `Install git on the runner (the GitHub-hosted runners have it in /usr/bin).`
  );
}

/** `file` as it is now, checked before every use (call only with a file `candidateProblem` accepted). */
export function pinTrustedGit(file: string): TrustedGit {
  const real = realpathSync(file);
  const pinned = identify(real);
  if (!pinned) throw new UntrustedGitError(`The git executable ${file} is gone.`);
  return { path: real, assertUnchanged: () => assertStillPinned(real, pinned) };
}

let pinned: TrustedGit | undefined;

/**
 * The git the whole process uses. The first call resolves and pins it; the action calls this at
 * its start, before the agent runs, so later callers (the work ledger's `git status` during the
 * session) get the binary found then, whatever PATH holds by now.
 */
export function pinnedGit(
  searchPath = process.env.PATH,
  untrustedFolders: readonly string[] = []
): TrustedGit {
  pinned ??= resolveTrustedGit(searchPath, [...untrustedFolders, tmpdir()]);
  return pinned;
}

/** Why `candidate` may not be trusted (undefined when it may). */
export function candidateProblem(candidate: string, untrustedFolders: readonly string[]): string | undefined {
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return 'it cannot be resolved';
  }
  const file = identify(real);
  if (!file || file.kind !== 'file') return 'it is not a regular file';
  if ((file.mode & 0o111) === 0) return 'it is not executable';
  for (const untrusted of untrustedFolders) {
    const folder = realOrSelf(untrusted);
    if (isInside(real, folder) || isInside(path.resolve(candidate), path.resolve(untrusted)))
      return `it is inside ${untrusted}`;
  }
  const owners = trustedOwners();
  if (!owners.has(file.uid)) return 'another user owns it';
  if ((file.mode & 0o022) !== 0) return 'other users may write it';
  // Its folder, and the folder it was found through: a writable one lets the file be swapped.
  for (const folder of new Set([path.dirname(real), path.dirname(path.resolve(candidate))])) {
    const identity = identify(folder);
    if (!identity || identity.kind !== 'directory') return `${folder} is not a folder`;
    if (!owners.has(identity.uid)) return `another user owns ${folder}`;
    if ((identity.mode & 0o022) !== 0) return `other users may write ${folder}`;
  }
  return undefined;
}

function assertStillPinned(real: string, before: FileIdentity): void {
  const problem = unchangedProblem(before, identify(real));
  if (problem) {
    throw new UntrustedGitError(
      `The git executable ${real}, checked when the action started, changed during the run (${problem}), ` +
        `so the action will not run it. Something in the job replaced it; nothing was committed or pushed.`
    );
  }
}

function trustedOwners(): Set<number> {
  const owners = new Set([0]);
  if (typeof process.getuid === 'function') owners.add(process.getuid());
  return owners;
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function realOrSelf(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}
