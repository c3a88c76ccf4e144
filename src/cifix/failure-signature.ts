import { createHash } from 'node:crypto';
import { isErrorLine, logLines } from './failure-excerpt.js';

/** What failed, as the signature reads it: each failed job's name, its failed steps, and its log. */
export interface FailedPart {
  readonly job: string;
  readonly steps: readonly string[];
  readonly log: string;
}

/**
 * A short fingerprint of a failure: the same test failing the same way after a fix gives the same
 * one, so a CI fix that did not help is not tried again. Built from the failed jobs and steps and
 * their error lines with what changes from run to run taken out: numbers (times, durations, line
 * counts, ports, ids), hex (commits, addresses) and temporary paths.
 */
export function failureSignature(parts: readonly FailedPart[]): string {
  const normalized = parts
    .map((part) =>
      [
        `job ${part.job}`,
        ...[...part.steps].sort().map((step) => `step ${step}`),
        ...logLines(part.log).filter(isErrorLine).map(normalizeLine)
      ].join('\n')
    )
    .sort()
    .join('\n\n');
  return createHash('sha256').update(normalized).digest('hex').slice(0, 16);
}

function normalizeLine(line: string): string {
  return line
    .replace(/\/tmp\/[^\s:'"]+/g, '/tmp/…')
    .replace(/\b[0-9a-f]{7,40}\b/gi, 'H')
    .replace(/\d+(?:\.\d+)?/g, 'N')
    .replace(/\s+/g, ' ')
    .trim();
}
