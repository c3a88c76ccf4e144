import { FenceTracker } from './code-fence.js';

/**
 * The words a writer says in their own voice, as GitHub shows them: the markdown with quotes, code
 * (fenced, indented, inline spans) and HTML comments blanked out. The result has the same length and
 * line breaks as the input, so a position in it is a position in the original.
 */
export function blankNonProse(markdown: string): string {
  return blankCodeSpans(blankComments(blankBlocks(markdown)));
}

const QUOTE = /^ {0,3}>/;
const INDENTED = /^(?: {4}|\t)/;

/** Fenced and indented code, and blockquotes with their lazy continuation lines. */
function blankBlocks(markdown: string): string {
  const fences = new FenceTracker();
  let previous: 'blank' | 'prose' | 'quote' | 'other' = 'blank';
  const lines = markdown.split('\n').map((line) => {
    if (fences.read(line) !== 'outside') {
      previous = 'other';
      return blank(line);
    }
    if (line.trim() === '') {
      previous = 'blank';
      return line;
    }
    // A line right after a quoted one continues the quote (lazy continuation), as on GitHub.
    if (QUOTE.test(line) || previous === 'quote') {
      previous = 'quote';
      return blank(line);
    }
    // Indented code cannot interrupt a paragraph: after prose, an indented line is more prose.
    if (INDENTED.test(line) && previous !== 'prose') {
      previous = 'other';
      return blank(line);
    }
    previous = 'prose';
    return line;
  });
  return lines.join('\n');
}

function blankComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, blank);
}

/**
 * `code`, ``code``: a run of backticks closed by the next run of the same length in the paragraph
 * (an unmatched run is literal). Runs and paragraph ends are indexed once, so a body full of
 * unmatched backticks (anyone can comment) costs n log n, not n².
 */
function blankCodeSpans(text: string): string {
  const runs = [...text.matchAll(/`+/g)].map((match) => ({ start: match.index, length: match[0].length }));
  const runsOfLength = new Map<number, number[]>();
  runs.forEach((run, index) => {
    const list = runsOfLength.get(run.length) ?? [];
    list.push(index);
    runsOfLength.set(run.length, list);
  });
  const paragraphEnds = [...text.matchAll(/\n[ \t]*\n/g)].map((match) => match.index);
  let out = '';
  let cursor = 0;
  let index = 0;
  while (index < runs.length) {
    const open = runs[index]!;
    const sameLength = runsOfLength.get(open.length)!;
    const next = sameLength[firstAbove(sameLength, index)];
    const close = next === undefined ? undefined : runs[next]!;
    const paragraphEnd = paragraphEnds[firstAbove(paragraphEnds, open.start)];
    if (
      close === undefined ||
      next === undefined ||
      (paragraphEnd !== undefined && paragraphEnd < close.start)
    ) {
      index++;
      continue;
    }
    out += text.slice(cursor, open.start) + blank(text.slice(open.start, close.start + close.length));
    cursor = close.start + close.length;
    index = next + 1;
  }
  return out + text.slice(cursor);
}

/** The position of the first value above `value` in an ascending list (its length if none). */
function firstAbove(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! > value) high = middle;
    else low = middle + 1;
  }
  return low;
}

function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}
