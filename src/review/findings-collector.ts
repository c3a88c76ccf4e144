import { firstLine, type Finding } from './finding.js';
import { normalizeText } from './fingerprint.js';
import type { ResolutionRequest } from './fixed-threads.js';

/** More findings than this in one review is noise no one reads; the model is told to keep the worst. */
export const DEFAULT_MAX_FINDINGS = 50;

export type AddResult =
  | { readonly kind: 'added'; readonly number: number }
  /** The same finding (same place, same words) was recorded before, as `number`. */
  | { readonly kind: 'duplicate'; readonly number: number }
  | { readonly kind: 'full'; readonly max: number };

/**
 * What the model records during a review run, in order: its findings and the earlier threads it
 * says are fixed. Handed to the tools, then read by the caller when the run ends.
 */
export class FindingsCollector {
  private readonly recorded: Finding[] = [];
  private readonly requests: ResolutionRequest[] = [];

  constructor(private readonly maxFindings = DEFAULT_MAX_FINDINGS) {}

  get findings(): readonly Finding[] {
    return this.recorded;
  }

  get resolutions(): readonly ResolutionRequest[] {
    return this.requests;
  }

  /** Findings are numbered from 1, as the tool's answers name them. */
  add(finding: Finding): AddResult {
    const same = this.recorded.findIndex((other) => sameFinding(other, finding));
    if (same !== -1) return { kind: 'duplicate', number: same + 1 };
    if (this.recorded.length >= this.maxFindings) return { kind: 'full', max: this.maxFindings };
    this.recorded.push(finding);
    return { kind: 'added', number: this.recorded.length };
  }

  /** False when the thread was already asked for (the reason given first stands). */
  requestResolution(request: ResolutionRequest): boolean {
    if (this.requests.some((other) => other.commentId === request.commentId)) return false;
    this.requests.push(request);
    return true;
  }
}

function sameFinding(a: Finding, b: Finding): boolean {
  return (
    a.path === b.path &&
    a.side === b.side &&
    a.line === b.line &&
    firstLine(a) === firstLine(b) &&
    normalizeText(a.body) === normalizeText(b.body)
  );
}
