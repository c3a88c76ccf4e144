/**
 * The words a writer says in their own voice, as GitHub shows them: the markdown with quotes, code
 * (fenced, indented, inline spans) and HTML comments blanked out. The result has the same length and
 * line breaks as the input, so a position in it is a position in the original.
 */
export function blankNonProse(markdown: string): string {
  return blankCodeSpans(blankComments(blankBlocks(markdown)));
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const QUOTE = /^ {0,3}>/;
const INDENTED = /^(?: {4}|\t)/;

/** Fenced and indented code, and blockquotes with their lazy continuation lines. */
function blankBlocks(markdown: string): string {
  let fence: string | undefined;
  let previous: 'blank' | 'prose' | 'quote' | 'other' = 'blank';
  const lines = markdown.split('\n').map((line) => {
    if (fence !== undefined) {
      const close = FENCE.exec(line);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length && close[2]!.trim() === '')
        fence = undefined;
      previous = 'other';
      return blank(line);
    }
    const open = FENCE.exec(line);
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = open[1]!;
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

/** `code`, ``code``: a run of backticks closed by the next run of the same length in the paragraph. */
function blankCodeSpans(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const open = /`+/g;
    open.lastIndex = index;
    const start = open.exec(text);
    if (!start) break;
    const ticks = start[0];
    const closeAt = closingRun(text, start.index + ticks.length, ticks.length);
    const end = closeAt === undefined ? start.index + ticks.length : closeAt + ticks.length;
    out += text.slice(index, start.index);
    out += closeAt === undefined ? ticks : blank(text.slice(start.index, end));
    index = end;
  }
  return out + text.slice(index);
}

function closingRun(text: string, from: number, length: number): number | undefined {
  const run = /`+/g;
  run.lastIndex = from;
  for (let match = run.exec(text); match; match = run.exec(text)) {
    // A span never crosses a blank line (the paragraph ends there).
    if (/\n[ \t]*\n/.test(text.slice(from, match.index))) return undefined;
    if (match[0].length === length) return match.index;
  }
  return undefined;
}

function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}
