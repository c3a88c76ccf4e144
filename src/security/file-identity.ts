import { closeSync, lstatSync, readFileSync } from 'node:fs';
import { fileErrorCode } from '../files/file-problem.js';
import { describeDescriptor, openUnfollowed } from '../files/unfollowed-file.js';

/**
 * What a path was when the action looked at it: which inode, how many names it had, and (for files
 * whose content matters) when its content or metadata last changed. The agent runs as the action's
 * own user, so any path it can reach may be swapped for a symlink, hard-linked elsewhere or
 * rewritten between two looks; comparing identities is how the action notices.
 */
export interface FileIdentity {
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
  readonly dev: number;
  readonly ino: number;
  readonly nlink: number;
  readonly uid: number;
  readonly mode: number;
  readonly size: number;
  readonly mtimeMs: number;
  /** ctime cannot be set back by an unprivileged process: a rewrite in place always moves it. */
  readonly ctimeMs: number;
}

/** The identity of `file` itself (symlinks are not followed), or undefined when nothing is there. */
export function identify(file: string): FileIdentity | undefined {
  let stats;
  try {
    stats = lstatSync(file);
  } catch {
    return undefined;
  }
  const kind = stats.isFile()
    ? 'file'
    : stats.isDirectory()
      ? 'directory'
      : stats.isSymbolicLink()
        ? 'symlink'
        : 'other';
  return {
    kind,
    dev: stats.dev,
    ino: stats.ino,
    nlink: stats.nlink,
    uid: stats.uid,
    mode: stats.mode,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs
  };
}

/** Why `now` is not the same inode as `before` (undefined when it is). */
export function sameInodeProblem(before: FileIdentity, now: FileIdentity | undefined): string | undefined {
  if (!now) return 'it is gone';
  if (now.kind !== before.kind) return `it was a ${before.kind} and is now a ${now.kind}`;
  if (now.dev !== before.dev || now.ino !== before.ino) return 'it was replaced by another file';
  if (now.uid !== before.uid) return 'its owner changed';
  return undefined;
}

/** Why `now` is not exactly `before`, content included (undefined when it is). */
export function unchangedProblem(before: FileIdentity, now: FileIdentity | undefined): string | undefined {
  const moved = sameInodeProblem(before, now);
  if (moved || !now) return moved;
  if (now.mode !== before.mode) return 'its mode changed';
  if (now.size !== before.size || now.mtimeMs !== before.mtimeMs || now.ctimeMs !== before.ctimeMs)
    return 'it was modified';
  return undefined;
}

/**
 * The content of a regular file; undefined when nothing is there, and a marker naming the kind when
 * something else is (a FIFO would block a plain read forever, a link would lead elsewhere).
 */
export function readRegularFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openUnfollowed(file, 'read');
  } catch (error) {
    if (fileErrorCode(error) === 'ENOENT') return undefined;
    return `\0not readable: ${fileErrorCode(error) ?? 'error'}`;
  }
  try {
    const info = describeDescriptor(fd);
    if (!info.isFile()) return '\0not a regular file';
    // To the end, not to the size seen: a file still growing must not read as the old content.
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
