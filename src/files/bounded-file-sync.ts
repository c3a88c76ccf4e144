import { closeSync, fstatSync, openSync } from 'node:fs';
import { checkRegularFile, openProblem } from './bounded-file.js';
import { openFlags, readAtMost } from './unfollowed-file.js';

/**
 * readRegularFile (bounded-file.ts) for a caller that must stay synchronous (input parsing): the
 * same non-blocking open, the same checks on the open descriptor, the same UnreadableFileError.
 */
export function readRegularFileSync(file: string, maxBytes: number): Buffer {
  let descriptor: number;
  try {
    // A person named this file: a link there is theirs to follow.
    descriptor = openSync(file, openFlags('read', { followLinks: true }));
  } catch (error) {
    throw openProblem(file, error);
  }
  try {
    const info = fstatSync(descriptor);
    checkRegularFile(file, info, maxBytes);
    return readAtMost(descriptor, info.size);
  } finally {
    closeSync(descriptor);
  }
}
