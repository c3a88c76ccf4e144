/**
 * The unified-diff patches of the fake's pull request files, read the way GitHub anchors review
 * comments: a comment's `line` is a file line on one `side` (RIGHT: the head, for added and context
 * lines; LEFT: the base, for deleted and context lines) that the patch shows, and a multi-line
 * comment's `start_line` must be in the same hunk. `position` is the older, diff-relative form: the
 * line just below the first `@@` header is 1, and later headers count too ("Create a review comment
 * for a pull request", https://docs.github.com/rest/pulls/comments, read 2026-11-25).
 */
import type { DiffSide } from './types.js';

export interface DiffLine {
  /** Index in the patch's lines: GitHub's `position` (the first header is 0). */
  position: number;
  hunk: number;
  kind: ' ' | '+' | '-';
  /** The base line number (context and deleted lines). */
  left: number | undefined;
  /** The head line number (context and added lines). */
  right: number | undefined;
  text: string;
}

export interface ParsedPatch {
  lines: DiffLine[];
  /** Each hunk's header position. */
  headers: number[];
  raw: string[];
}

const HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function parsePatch(patch: string): ParsedPatch {
  const raw = patch.split('\n');
  const lines: DiffLine[] = [];
  const headers: number[] = [];
  let left = 0;
  let right = 0;
  raw.forEach((text, position) => {
    const header = HEADER.exec(text);
    if (header) {
      headers.push(position);
      left = Number(header[1]);
      right = Number(header[2]);
      return;
    }
    if (headers.length === 0) return;
    const hunk = headers.length - 1;
    const kind = text[0];
    if (kind === '+')
      lines.push({ position, hunk, kind, left: undefined, right: right++, text: text.slice(1) });
    else if (kind === '-')
      lines.push({ position, hunk, kind, left: left++, right: undefined, text: text.slice(1) });
    else if (kind === ' ' || (text === '' && position < raw.length - 1))
      lines.push({ position, hunk, kind: ' ', left: left++, right: right++, text: text.slice(1) });
    // "\ No newline at end of file" and a trailing empty line are not lines of the file.
  });
  return { lines, headers, raw };
}

/** The diff line showing `line` on `side`, or undefined when the patch does not show it. */
export function findLine(patch: ParsedPatch, side: DiffSide, line: number): DiffLine | undefined {
  return patch.lines.find((l) => (side === 'RIGHT' ? l.right : l.left) === line);
}

/** GitHub's `diff_hunk` of a comment: its hunk's header through the commented line. */
export function diffHunk(patch: ParsedPatch, at: DiffLine): string {
  const start = patch.headers[at.hunk] ?? 0;
  return patch.raw.slice(start, at.position + 1).join('\n');
}
