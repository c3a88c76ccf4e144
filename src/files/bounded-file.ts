import type { Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { describeEntryKind, describeFileError, describeTooBig, isMissingPath } from './file-problem.js';
import { openFlags } from './unfollowed-file.js';

/**
 * Why a file a person named cannot be read, as a phrase for the caller's own sentence ("--prompt-file
 * task.md: cannot read it (it is a FIFO (named pipe))."), and which kind of problem it is, so a
 * caller can treat a folder or a missing file in its own way.
 */
export type UnreadableKind = 'missing' | 'folder' | 'not-regular' | 'too-big' | 'unreadable';

export class UnreadableFileError extends Error {
  constructor(
    readonly file: string,
    readonly kind: UnreadableKind,
    /** The phrase from file-problem.ts: "no such file", "it is a FIFO (named pipe)", ... */
    readonly reason: string
  ) {
    super(`${file}: ${reason}`);
    this.name = 'UnreadableFileError';
  }
}

/** Why a file could not be read: the reader's own phrase, or the shared one for any other fs error. */
export function unreadableReason(error: unknown): string {
  return error instanceof UnreadableFileError ? error.reason : describeFileError(error);
}

/**
 * The whole file, if it is a regular file of at most `maxBytes`. Opened without blocking, so a FIFO
 * with no writer cannot hang the reader, and checked on the open descriptor (one look, no race):
 * a device, a pipe or a FIFO reports no size and would never end.
 */
export async function readRegularFile(file: string, maxBytes: number): Promise<Buffer> {
  let handle: FileHandle;
  try {
    // A person named this file: a link there is theirs to follow.
    handle = await open(file, openFlags('read', { followLinks: true }));
  } catch (error) {
    throw openProblem(file, error);
  }
  try {
    const info = await handle.stat();
    checkRegularFile(file, info, maxBytes);
    return await readAll(handle, info.size);
  } finally {
    await handle.close();
  }
}

/** Why the open failed; where a folder cannot be opened as a file (Windows), the error says it is one. */
export function openProblem(file: string, error: unknown): UnreadableFileError {
  if (isMissingPath(error)) return new UnreadableFileError(file, 'missing', describeFileError(error));
  const reason = describeFileError(error);
  return new UnreadableFileError(file, reason === 'it is a folder' ? 'folder' : 'unreadable', reason);
}

/** Refuses a folder, anything else that is not a regular file, and a file larger than `maxBytes`. */
export function checkRegularFile(file: string, info: Stats, maxBytes: number): void {
  if (info.isDirectory()) throw new UnreadableFileError(file, 'folder', describeEntryKind(info));
  if (!info.isFile()) throw new UnreadableFileError(file, 'not-regular', describeEntryKind(info));
  if (info.size > maxBytes)
    throw new UnreadableFileError(file, 'too-big', describeTooBig(info.size, maxBytes));
}

/** The first `size` bytes at most, however the file changes while it is read. */
export async function readAll(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
