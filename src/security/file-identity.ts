import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync
} from 'node:fs';
import path from 'node:path';

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
 * Puts `content` at `file` as a new inode: written to a fresh name in the same folder (O_EXCL, so
 * nothing prepared there is reused) and renamed over the old entry. A hard link or a symlink the
 * agent left at `file` is replaced as a name, and its target never receives a byte.
 */
export function replaceFile(file: string, content: string | Buffer, mode = 0o600): void {
  const folder = path.dirname(file);
  const fresh = path.join(folder, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(
    fresh,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode
  );
  try {
    writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(fresh, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(fresh, file);
  } catch (error) {
    rmSync(fresh, { force: true });
    throw error;
  }
}

/**
 * The content of a regular file; undefined when nothing is there, and a marker naming the kind when
 * something else is (a FIFO would block a plain read forever, a link would lead elsewhere).
 */
export function readRegularFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `\0not readable: ${(error as NodeJS.ErrnoException).code ?? 'error'}`;
  }
  try {
    if (!fstatSync(fd).isFile()) return '\0not a regular file';
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
