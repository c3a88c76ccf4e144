/**
 * Where GitHub's markdown opens and closes a fenced code block, for every module that reads bodies
 * line by line (fitting a report, finding the prose of a comment): one set of rules, so they agree.
 */

/**
 * A fence line: up to three spaces, then three or more backticks or tildes, then an info string. A
 * final carriage return is not part of it: bodies written in GitHub's web editor end lines in CRLF.
 */
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})([^\r\n]*)\r?$/;

export interface FenceOpener {
  /** The backticks or tildes that opened the block: a closer needs as many of the same. */
  readonly marker: string;
  /** What follows the marker (the language, for a diagram `mermaid`). */
  readonly info: string;
}

/** What a line is to the fenced blocks around it. */
export type FenceRole = 'opener' | 'content' | 'closer' | 'outside';

/** Whether a line looks like a fence (an opener or a closer), whatever comes before it. */
export function isFenceLine(line: string): boolean {
  return FENCE_LINE.test(line);
}

/**
 * Reads lines in order and says which belong to a fenced block. A backtick fence's info string may
 * hold no backtick (otherwise the line is inline code); a closer is the opener's character, at least
 * as many of it, and nothing but spaces after.
 */
export class FenceTracker {
  private current: FenceOpener | undefined;

  /** The block the lines read so far leave open, if any. */
  get open(): FenceOpener | undefined {
    return this.current;
  }

  read(line: string): FenceRole {
    const match = FENCE_LINE.exec(line);
    if (this.current !== undefined) {
      const marker = this.current.marker;
      if (
        match &&
        match[1]![0] === marker[0] &&
        match[1]!.length >= marker.length &&
        match[2]!.trim() === ''
      ) {
        this.current = undefined;
        return 'closer';
      }
      return 'content';
    }
    if (match && !(match[1]![0] === '`' && match[2]!.includes('`'))) {
      this.current = { marker: match[1]!, info: match[2]! };
      return 'opener';
    }
    return 'outside';
  }
}
