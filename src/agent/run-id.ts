import { randomBytes } from 'node:crypto';

/** A sortable, unique folder name for a run's transcripts: 20261122T070102Z-3fa9c1. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
