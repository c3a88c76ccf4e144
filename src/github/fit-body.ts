/**
 * GitHub refuses comment and PR bodies above 65,536 characters. A body cut to fit must still be
 * well-formed: a `<details>` or a code fence left open would swallow whatever follows it.
 */
export const MAX_BODY_CHARS = 65_000;

const SEPARATOR = '\n\n';
const CUT_MARKER = '[… cut]';
/** A fence opener or closer at the top level (model text is quoted, so its fences are not here). */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

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
 * line end where it can be, and never inside a surrogate pair.
 */
export function cutBalanced(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let budget = maxChars - CUT_MARKER.length - SEPARATOR.length;
  while (budget > 0) {
    const head = safeHead(text, budget);
    const closed = `${head}${closersFor(head)}${SEPARATOR}${CUT_MARKER}`;
    if (closed.length <= maxChars) return closed;
    budget -= closed.length - maxChars;
  }
  return '';
}

function safeHead(text: string, budget: number): string {
  let head = text.slice(0, budget);
  const lineEnd = head.lastIndexOf('\n');
  if (lineEnd > budget / 2) head = head.slice(0, lineEnd);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return head;
}

/** What `head` opened and did not close, closed in the right order. */
function closersFor(head: string): string {
  let fence: string | undefined;
  let details = 0;
  let summaries = 0;
  for (const line of head.split('\n')) {
    const match = FENCE.exec(line);
    if (fence !== undefined) {
      if (match && match[1]![0] === fence[0] && match[1]!.length >= fence.length && match[2]!.trim() === '')
        fence = undefined;
      continue;
    }
    if (match && !(match[1]![0] === '`' && match[2]!.includes('`'))) {
      fence = match[1]!;
      continue;
    }
    details += count(line, /<details[\s>]/gi) - count(line, /<\/details>/gi);
    summaries += count(line, /<summary[\s>]/gi) - count(line, /<\/summary>/gi);
  }
  const closers = [
    ...(fence !== undefined ? [`\n${fence}`] : []),
    ...(summaries > 0 ? ['</summary>'] : []),
    ...Array.from({ length: Math.max(0, details) }, () => '</details>')
  ];
  if (closers.length === 0) return '';
  // The fence closes first; a blank line then ends any paragraph or quote before the tags.
  const [first, ...rest] = fence !== undefined ? closers : ['', ...closers];
  return `${first}${rest.length > 0 ? `${SEPARATOR}${rest.join('\n')}` : ''}`;
}

function count(line: string, pattern: RegExp): number {
  return line.match(pattern)?.length ?? 0;
}
