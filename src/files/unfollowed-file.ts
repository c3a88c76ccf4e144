import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
  type BigIntStats
} from 'node:fs';
import path from 'node:path';
import { describeFileError, fileErrorCode } from './file-problem.js';

/**
 * The one way the action opens a file the agent's commands can reach (the run folder, the runner's
 * file commands, .git): never through a symbolic link in the last component (O_NOFOLLOW), never
 * waiting on a FIFO (O_NONBLOCK), and judged by fstat on the open descriptor, not by the path,
 * which could be swapped between a look and the open.
 */
export type OpenFor =
  'read' | 'read-write' | 'append' | 'append-or-create' | 'write-or-create' | 'create-new';

const ACCESS: Readonly<Record<OpenFor, number>> = {
  read: constants.O_RDONLY,
  'read-write': constants.O_RDWR,
  append: constants.O_WRONLY | constants.O_APPEND,
  'append-or-create': constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
  // No O_TRUNC: it would empty a hard-linked file before fstat could refuse it.
  'write-or-create': constants.O_WRONLY | constants.O_CREAT,
  'create-new': constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL
};

export interface OpenOptions {
  /** Only for a file a person named (--prompt-file): a link there is their choice, not a trap. */
  readonly followLinks?: boolean;
}

/** The open flags, for a caller that opens the file itself (fs/promises, or following links). */
export function openFlags(purpose: OpenFor, options: OpenOptions = {}): number {
  return ACCESS[purpose] | constants.O_NONBLOCK | (options.followLinks ? 0 : constants.O_NOFOLLOW);
}

/** `mode` is that of a file the open creates. */
export function openUnfollowed(file: string, purpose: OpenFor, mode = 0o600): number {
  return openSync(file, openFlags(purpose), mode);
}

/** Why an unfollowed open failed, as "it is …" for the caller's sentence. */
export function openFailure(error: unknown): string {
  const code = fileErrorCode(error);
  if (code === 'ELOOP') return 'it is a symbolic link';
  if (code === 'ENXIO') return 'it is a FIFO (named pipe) or a socket';
  if (code === 'ENOENT') return 'it is gone';
  return describeFileError(error);
}

/** Which file a path named: an inode number can pass 2^53, so both are compared as bigints. */
export interface FileKey {
  readonly dev: bigint;
  readonly ino: bigint;
}

/** What the descriptor must be: how many names it may have (one unless said), and which file. */
export interface Expected {
  readonly links?: bigint;
  readonly key?: FileKey;
}

export function describeDescriptor(fd: number): BigIntStats {
  return fstatSync(fd, { bigint: true });
}

/** How an open file differs from the plain file expected; each caller words it in its own sentence. */
export type PlainFileProblem = 'not-regular' | 'links' | 'other-file';

/**
 * Whether the open file is the plain file expected (undefined when it is): a regular file, with the
 * expected number of names (a hard link lets another name change it), and the expected inode.
 */
export function plainFileProblem(info: BigIntStats, expected: Expected = {}): PlainFileProblem | undefined {
  if (!info.isFile()) return 'not-regular';
  if (info.nlink !== (expected.links ?? 1n)) return 'links';
  const key = expected.key;
  if (key && (info.dev !== key.dev || info.ino !== key.ino)) return 'other-file';
  return undefined;
}

/** Every byte, or an error: a write cut short (a full disk) is retried, and the retry fails. */
export function writeAll(fd: number, content: string | Uint8Array): void {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  for (let offset = 0; offset < bytes.length;) {
    const written = writeSync(fd, bytes, offset);
    if (written === 0) throw new Error(`write made no progress after ${offset} of ${bytes.length} bytes`);
    offset += written;
  }
}

/** At most `maxBytes` from the start, however much the file grows while it is read. */
export function readAtMost(fd: number, maxBytes: number): Buffer {
  const bytes = Buffer.alloc(maxBytes);
  let filled = 0;
  while (filled < maxBytes) {
    const read = readSync(fd, bytes, filled, maxBytes - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return bytes.subarray(0, filled);
}

/**
 * Puts `content` at `file` as a new inode, in one step: written and synced under a fresh name in
 * the same folder (O_EXCL, so nothing prepared there is reused or followed), then renamed over the
 * entry. Whatever was at `file` (a link, a FIFO, a hard link) is replaced as a name, never written
 * through, and at no moment is there nothing at `file`. Returns the new file's key.
 */
export function replaceFile(file: string, content: string | Uint8Array, mode = 0o600): FileKey {
  const fresh = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`
  );
  const fd = openUnfollowed(fresh, 'create-new', mode);
  let key: FileKey;
  try {
    writeAll(fd, content);
    fsyncSync(fd);
    const info = describeDescriptor(fd);
    key = { dev: info.dev, ino: info.ino };
    renameSync(fresh, file);
  } catch (error) {
    rmSync(fresh, { force: true });
    throw error;
  } finally {
    closeSync(fd);
  }
  return key;
}
