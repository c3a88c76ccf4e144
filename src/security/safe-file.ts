import { closeSync, ftruncateSync, lstatSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describeEntryKind, fileErrorCode } from '../files/file-problem.js';
import {
  describeDescriptor,
  openFailure,
  openUnfollowed,
  plainFileProblem,
  writeAll,
  type OpenFor
} from '../files/unfollowed-file.js';

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
 * Parent folders: with `within` (a folder the action created and resolved), every folder between
 * it and the file must be a real folder, not a symbolic link; without it they are not checked.
 */
export function openRegularFileForAppend(filePath: string, options: SafeFileOptions = {}): number {
  return openChecked(filePath, 'append-or-create', options);
}

export interface SafeFileOptions {
  /** A trusted folder holding the file; the folders below it on the way to the file are checked too. */
  readonly within?: string;
}

/** Replaces a file's contents under the same checks as openRegularFileForAppend. */
export function writeRegularFile(
  filePath: string,
  content: string | Uint8Array,
  options: SafeFileOptions = {}
): void {
  const fd = openChecked(filePath, 'write-or-create', options);
  try {
    // Truncated only after the checks: O_TRUNC at open would empty a hard-linked file before fstat.
    ftruncateSync(fd, 0);
    writeAll(fd, content);
  } finally {
    closeSync(fd);
  }
}

/** Appends text to a file under the same checks, closing it again (for occasional records). */
export function appendToRegularFile(filePath: string, text: string, options: SafeFileOptions = {}): void {
  const fd = openRegularFileForAppend(filePath, options);
  try {
    writeAll(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Errors that mean a trap is at the path (a link, a FIFO, a folder), not a failing disk. */
const TRAP_CODES = new Set(['ELOOP', 'ENXIO', 'EISDIR']);

function openChecked(filePath: string, purpose: OpenFor, options: SafeFileOptions): number {
  if (options.within !== undefined) checkFolders(filePath, options.within);
  let fd: number;
  try {
    fd = openUnfollowed(filePath, purpose);
  } catch (error) {
    if (TRAP_CODES.has(fileErrorCode(error) ?? '')) throw new UnsafeFileError(filePath, openFailure(error));
    throw error;
  }
  const info = describeDescriptor(fd);
  const problem = plainFileProblem(info);
  if (problem) {
    closeSync(fd);
    throw new UnsafeFileError(
      filePath,
      problem === 'links'
        ? `it has ${info.nlink} hard links, so writing it would change another file too`
        : describeEntryKind(info)
    );
  }
  return fd;
}

/** Each folder strictly below `within` on the way to the file must be a folder, not a link to one. */
export function assertRealFolders(filePath: string, within: string): void {
  checkFolders(filePath, within);
}

/**
 * Makes the folders below `within` on the way to the file, one at a time, each checked with lstat
 * before the next is made inside it: `mkdir -p` would follow a link the agent put on the way and
 * make the rest of the path wherever it points.
 */
export function makeRealFolders(filePath: string, within: string): void {
  const relative = path.relative(within, path.dirname(filePath));
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new UnsafeFileError(filePath, `it is not inside ${within}`);
  }
  let folder = within;
  for (const part of relative.split(path.sep).filter((name) => name !== '')) {
    folder = path.join(folder, part);
    try {
      mkdirSync(folder);
    } catch (error) {
      if (fileErrorCode(error) !== 'EEXIST') throw error;
    }
    const info = lstatSync(folder);
    if (info.isSymbolicLink()) throw new UnsafeFileError(filePath, `its folder ${folder} is a symbolic link`);
    if (!info.isDirectory()) throw new UnsafeFileError(filePath, `${folder} is not a folder`);
  }
}

function checkFolders(filePath: string, within: string): void {
  const relative = path.relative(within, path.dirname(filePath));
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new UnsafeFileError(filePath, `it is not inside ${within}`);
  }
  let folder = within;
  for (const part of relative.split(path.sep).filter((name) => name !== '')) {
    folder = path.join(folder, part);
    const info = lstatSync(folder);
    if (info.isSymbolicLink()) throw new UnsafeFileError(filePath, `its folder ${folder} is a symbolic link`);
    if (!info.isDirectory()) throw new UnsafeFileError(filePath, `${folder} is not a folder`);
  }
}
