import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { checkRegularFile, openProblem } from './bounded-file.js';

/**
 * readRegularFile (bounded-file.ts) for a caller that must stay synchronous (input parsing): the
 * same non-blocking open, the same checks on the open descriptor, the same UnreadableFileError.
 */
export function readRegularFileSync(file: string, maxBytes: number): Buffer {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw openProblem(file, error);
  }
  try {
    const info = fstatSync(descriptor);
    checkRegularFile(file, info, maxBytes);
    const buffer = Buffer.alloc(info.size);
    let filled = 0;
    while (filled < buffer.length) {
      const bytesRead = readSync(descriptor, buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    closeSync(descriptor);
  }
}
