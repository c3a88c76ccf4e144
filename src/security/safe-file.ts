import { closeSync, constants, fstatSync, ftruncateSync, openSync, writeSync, type Stats } from 'node:fs';

/** A path the action was about to write is not the plain file it should be; nothing was written. */
export class UnsafeFileError extends Error {
  constructor(
    readonly filePath: string,
    problem: string
  ) {
    super(
      `Refusing to write ${filePath}: ${problem}. The agent's commands can replace files in the ` +
        'workspace, so the action writes only to a regular file with a single link, never through a ' +
        'symbolic link, a hard link, a FIFO or a device. Remove whatever is at that path and run again.'
    );
    this.name = 'UnsafeFileError';
  }
}

/**
 * Opens a file for appending (creating it, mode 0600, if absent) in a way a planted trap cannot
 * subvert: O_NOFOLLOW refuses a symbolic link in the last component, O_NONBLOCK makes a FIFO fail
 * at once instead of blocking the process until a reader comes, and fstat on the open descriptor
 * (not the path, which could be swapped in between) checks for a regular file with one link, so
 * a hard link to a file outside the workspace is not written through. Returns the descriptor.
 *
 * Not covered: a symbolic link among the parent folders (the caller resolves and checks those).
 */
export function openRegularFileForAppend(filePath: string): number {
  return openChecked(filePath, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
}

/** Replaces a file's contents under the same checks as openRegularFileForAppend. */
export function writeRegularFile(filePath: string, content: string | Uint8Array): void {
  const fd = openChecked(filePath, constants.O_WRONLY | constants.O_CREAT);
  try {
    // Truncated only after the checks: O_TRUNC at open would empty a hard-linked file before fstat.
    ftruncateSync(fd, 0);
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

function openChecked(filePath: string, flags: number): number {
  let fd: number;
  try {
    fd = openSync(filePath, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new UnsafeFileError(filePath, 'it is a symbolic link');
    if (code === 'ENXIO') throw new UnsafeFileError(filePath, 'it is a FIFO (named pipe) or a socket');
    if (code === 'EISDIR') throw new UnsafeFileError(filePath, 'it is a directory');
    throw error;
  }
  const problem = describeProblem(fstatSync(fd));
  if (problem) {
    closeSync(fd);
    throw new UnsafeFileError(filePath, problem);
  }
  return fd;
}

function describeProblem(info: Stats): string | undefined {
  if (info.isFIFO()) return 'it is a FIFO (named pipe)';
  if (!info.isFile()) return 'it is not a regular file';
  if (info.nlink !== 1) return `it has ${info.nlink} hard links, so writing it would change another file too`;
  return undefined;
}
