/**
 * The failing part of a CI log: the lines around its errors, not the whole log. A job's log runs to
 * megabytes (set-up, downloads, every passing test); the model needs the error and a little around
 * it, and every line it reads costs tokens on every later turn.
 */
export interface ExcerptLimits {
  /** Lines kept before an error line (the command, the test's name). */
  readonly before: number;
  /** Lines kept after it (the stack, the expected and received values). */
  readonly after: number;
  /** The most lines in the excerpt; the last errors win, the end of a log is where a step fails. */
  readonly maxLines: number;
  /** The most characters of one line (a minified bundle on one line is no error message). */
  readonly maxLineChars: number;
}

export const EXCERPT_LIMITS: ExcerptLimits = { before: 3, after: 8, maxLines: 80, maxLineChars: 400 };

/**
 * What marks a line as part of a failure, in the tools' own words (and GitHub's `##[error]`). The
 * `expected … to|but` gap is bounded: unbounded, it is quadratic on a long line of the log.
 */
const ERROR_LINE =
  /##\[error\]|::error\b|\berror\b|\bERR!|\bfail(?:ed|ure|ing|s)?\b|\bFAIL\b|✕|✗|✘|\bassert(?:ion)?\b|exception|traceback|\bpanic\b|expected [^\n]{0,200}? (?:to|but)|\bcannot find\b|\bnot found\b/i;

/**
 * Only a line's start is tested for an error: a tool says what failed at the start of its line, and
 * a log line (one the code under test printed) can be 256 KiB long, which no pattern should scan.
 */
export const ERROR_TEST_CHARS = 2000;

/** GitHub prefixes each line of a job log with its time: `2026-11-28T07:01:02.1234567Z `. */
const LOG_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// eslint-disable-next-line no-control-regex -- the escape sequences of a terminal's colours are what is removed
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** A log's lines as a reader sees them: no times, no colour codes, no carriage returns. */
export function logLines(log: string): string[] {
  return log.split(/\r?\n/).map((line) => line.replace(LOG_TIME, '').replace(ANSI, '').replace(/\r/g, ''));
}

export function isErrorLine(fullLine: string): boolean {
  const line = fullLine.slice(0, ERROR_TEST_CHARS);
  return ERROR_LINE.test(line) && !/\b0 (?:failed|failures|errors)\b|\bno errors?\b/i.test(line);
}

/**
 * The lines around the error lines, merged where they touch, the last ones kept when there are
 * more than `maxLines`; `…` stands where lines were left out. A log with no error line gives its
 * last lines (a step that exited 1 without a word says so at its end, if anywhere).
 */
export function failureExcerpt(log: string, limits: ExcerptLimits = EXCERPT_LIMITS): string {
  const lines = logLines(log);
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  const keep = new Array<boolean>(lines.length).fill(false);
  let found = false;
  lines.forEach((line, index) => {
    if (!isErrorLine(line)) return;
    found = true;
    for (
      let at = Math.max(0, index - limits.before);
      at <= Math.min(lines.length - 1, index + limits.after);
      at++
    )
      keep[at] = true;
  });
  if (!found)
    for (let at = Math.max(0, lines.length - limits.maxLines); at < lines.length; at++) keep[at] = true;
  const chosen: string[] = [];
  let kept = 0;
  let gap = false;
  // From the end backwards, so the last errors are the ones kept.
  for (let at = lines.length - 1; at >= 0; at--) {
    if (!keep[at]) {
      gap = true;
      continue;
    }
    if (kept >= limits.maxLines) {
      gap = true;
      break;
    }
    if (gap) chosen.push('…');
    gap = false;
    chosen.push(clip(lines[at]!, limits.maxLineChars));
    kept++;
  }
  if (gap) chosen.push('…');
  return chosen.reverse().join('\n');
}

function clip(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
