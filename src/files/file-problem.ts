/**
 * Why a path could not be used, as a short phrase every command puts inside its own sentence
 * ("--prompt-file task.md: cannot read it (no such file)."), so the same failure reads the same
 * wherever it happens. The caller's sentence names the path and says what to do next.
 */

/** What the caller expected at the path: it names the missing thing ("no such folder"). */
export type ExpectedEntry = 'file' | 'folder';

/**
 * The error's code (ENOENT, EACCES, ...), read as a property rather than through `instanceof
 * Error`: fs errors may come from another realm (jest's module VM, for one).
 */
export function fileErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Nothing is at the path: it, or a folder on the way to it, is not there. */
export function isMissingPath(error: unknown): boolean {
  const code = fileErrorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

const PHRASES: Readonly<Record<string, string>> = {
  ENOTDIR: 'a part of its path is a file, not a folder',
  EACCES: 'permission denied on it or on a folder above it',
  EPERM: 'operation not permitted (a file attribute or a security policy forbids it)',
  ELOOP: 'a loop of symbolic links',
  EISDIR: 'it is a folder',
  EFBIG: 'it is too big',
  ENXIO: 'it is a FIFO (named pipe), a socket or a device with nothing at the other end',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'its name is too long',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  EIO: 'an input/output error (the disk or the network file system failed)'
};

/** The phrase for a failed file-system call; an unknown failure keeps its own message. */
export function describeFileError(error: unknown, expected: ExpectedEntry = 'file'): string {
  const code = fileErrorCode(error);
  if (code === 'ENOENT') return `no such ${expected}`;
  const phrase = code === undefined ? undefined : PHRASES[code];
  if (phrase !== undefined) return phrase;
  const message =
    typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && message !== '') return message;
  return code ?? String(error);
}

/** The parts of fs.Stats that say what kind of entry a path is. */
export interface EntryKind {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSymbolicLink(): boolean;
}

/** What an entry that is not a regular file is instead (a FIFO, a device, ...). */
export function describeEntryKind(info: EntryKind): string {
  if (info.isFile()) return 'it is a regular file';
  if (info.isDirectory()) return 'it is a folder';
  if (info.isFIFO()) return 'it is a FIFO (named pipe)';
  if (info.isSocket()) return 'it is a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'it is a device';
  if (info.isSymbolicLink()) return 'it is a symbolic link';
  return 'it is not a regular file';
}

/** A file larger than what is read of it: both sizes, so the person sees by how much. */
export function describeTooBig(size: number, limit: number): string {
  const shownLimit = formatSize(limit);
  const shownSize = formatSize(size) === shownLimit ? `more than ${shownLimit}` : formatSize(size);
  return `it is too big (${shownSize}; it is read only up to ${shownLimit})`;
}

const KiB = 1024;
const MiB = 1024 * KiB;

function formatSize(bytes: number): string {
  if (bytes >= MiB) return `${Math.round(bytes / MiB)} MiB`;
  if (bytes >= KiB) return `${Math.round(bytes / KiB)} KiB`;
  return `${bytes} bytes`;
}
