import { FenceTracker, isFenceLine } from './code-fence.js';
import { GITHUB_COMMENT_LIMIT } from './outbound-comment-limit.js';

/**
 * The room for a report or PR body: 65,000, GitHub's limit less a margin for what is added after
 * the fit (the tracking comment's marker). A body cut to fit must still be well-formed: a `<details>` or a code fence
 * left open would swallow whatever follows it.
 */
export const MAX_BODY_CHARS = GITHUB_COMMENT_LIMIT - 536;

const SEPARATOR = '\n\n';
const CUT_MARKER = '[… cut]';

/**
 * Joins the sections, cutting the longest ones first (each to a fair share of the room) so the short
 * ones (status, links, usage) always survive whole; `note` says the body was cut.
 */
export function fitSections(sections: readonly string[], maxChars: number, note: string): string {
  const whole = sections.join(SEPARATOR);
  if (whole.length <= maxChars) return whole;
  let room = maxChars - note.length - SEPARATOR.length * (sections.length - 1);
  const shares = new Array<number>(sections.length).fill(0);
  const byLength = sections.map((section, index) => ({ index, length: section.length }));
  byLength.sort((a, b) => a.length - b.length);
  byLength.forEach(({ index, length }, position) => {
    const share = Math.floor(room / (sections.length - position));
    shares[index] = Math.min(length, Math.max(0, share));
    room -= shares[index]!;
  });
  return (
    sections
      .map((section, index) => cutBalanced(section, shares[index]!))
      .filter((section) => section !== '')
      .join(SEPARATOR) + note
  );
}

/**
 * The longest head of `text` within `maxChars` that, with the closers it needs appended (an open
 * top-level code fence, then `</summary>` and `</details>` tags), stays balanced. It is cut at a
 * line end, and inside a line only when that line is plain text (never a table row, a fence or a
 * tag, and never inside a surrogate pair). A table keeps its header, delimiter and whole rows, or
 * goes; a diagram fence (mermaid) goes whole, since half a diagram renders as an error.
 */
export function cutBalanced(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let budget = maxChars - CUT_MARKER.length - SEPARATOR.length;
  while (budget > 0) {
    const head = wellFormedHead(text, budget);
    if (head.trim() === '') return '';
    const closed = `${head}${closersFor(openBlocks(head))}${SEPARATOR}${CUT_MARKER}`;
    if (closed.length <= maxChars) return closed;
    budget -= closed.length - maxChars;
  }
  return '';
}

/** A cut table row (after any quote markers): `| a | b |`. Our tables always start with a pipe. */
const TABLE_ROW = /^ {0,3}(?:> ?)*\s*\|/;
/** A table's delimiter row: `| ---: | --- |`. */
const TABLE_DELIMITER = /^ {0,3}(?:> ?)*\s*\|?(?:\s*:?-+:?\s*\|)+\s*(?::?-+:?\s*)?$/;
/** Fences whose content GitHub draws as a picture: cut, they render as an error box. */
const DIAGRAM = /^\s*(mermaid|geojson|topojson|stl)\b/i;

function wellFormedHead(text: string, budget: number): string {
  let head = lineSafeHead(text, budget);
  const open = openBlocks(head);
  if (open.fence && DIAGRAM.test(open.fence.info)) head = head.slice(0, open.fence.start).trimEnd();
  else if (!open.fence) head = withoutHalfTable(head, text);
  return head;
}

/** The head cut at the last line end, or inside the cut line when it is plain and the head is short. */
function lineSafeHead(text: string, budget: number): string {
  const lineEnd = text.lastIndexOf('\n', budget);
  if (lineEnd === budget) return text.slice(0, budget);
  const lineStart = lineEnd + 1;
  const nextEnd = text.indexOf('\n', lineStart);
  const line = text.slice(lineStart, nextEnd === -1 ? undefined : nextEnd);
  if (lineEnd >= budget / 2 || !isPlain(line)) return text.slice(0, Math.max(0, lineEnd));
  let head = text.slice(0, budget);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return head;
}

/** A line that may be cut in the middle: text, not a table row, a fence or a line with a tag. */
function isPlain(line: string): boolean {
  return !TABLE_ROW.test(line) && !isFenceLine(line) && !/<[A-Za-z/!?]/.test(line);
}

/**
 * A head that ends in a table keeps whole rows with their header and delimiter: a header cut off
 * from its delimiter, or a header and delimiter with no row left, is dropped.
 */
function withoutHalfTable(head: string, text: string): string {
  const lines = head.split('\n');
  let first = lines.length;
  while (first > 0 && TABLE_ROW.test(lines[first - 1]!)) first--;
  const table = lines.slice(first);
  if (table.length === 0) return head;
  const nextLine = text.slice(head.length + 1).split('\n', 1)[0] ?? '';
  const headerOnly = table.length === 1 && TABLE_DELIMITER.test(nextLine);
  const noRows = table.length === 2 && TABLE_DELIMITER.test(table[1]!);
  return headerOnly || noRows ? lines.slice(0, first).join('\n').trimEnd() : head;
}

interface OpenBlocks {
  /** A top-level code fence left open: its marker, info string and where its opener starts. */
  readonly fence: { readonly marker: string; readonly info: string; readonly start: number } | undefined;
  readonly details: number;
  readonly summaries: number;
}

/** What `head` opened and did not close (model text is quoted, so its fences are not top-level). */
function openBlocks(head: string): OpenBlocks {
  const fences = new FenceTracker();
  let fenceStart = 0;
  let details = 0;
  let summaries = 0;
  let offset = 0;
  for (const line of head.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const role = fences.read(line);
    if (role === 'opener') fenceStart = start;
    if (role !== 'outside') continue;
    details += count(line, /<details[\s>]/gi) - count(line, /<\/details>/gi);
    summaries += count(line, /<summary[\s>]/gi) - count(line, /<\/summary>/gi);
  }
  const fence = fences.open === undefined ? undefined : { ...fences.open, start: fenceStart };
  return { fence, details, summaries };
}

/** The closers for what is open, in the right order. */
function closersFor(open: OpenBlocks): string {
  const closers = [
    ...(open.fence !== undefined ? [`\n${open.fence.marker}`] : []),
    ...(open.summaries > 0 ? ['</summary>'] : []),
    ...Array.from({ length: Math.max(0, open.details) }, () => '</details>')
  ];
  if (closers.length === 0) return '';
  // The fence closes first; a blank line then ends any paragraph, table or quote before the tags.
  const [first, ...rest] = open.fence !== undefined ? closers : ['', ...closers];
  return `${first}${rest.length > 0 ? `${SEPARATOR}${rest.join('\n')}` : ''}`;
}

function count(line: string, pattern: RegExp): number {
  return line.match(pattern)?.length ?? 0;
}
