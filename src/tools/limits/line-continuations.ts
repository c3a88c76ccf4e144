/**
 * Joins continued lines the way bash does before it reads a command: a backslash-newline is
 * removed wherever bash removes it, so `$\⏎(touch x)` reaches the reader as `$(touch x)`.
 *
 * Bash drops the pair while it reads input characters, before it splits words or finds `$(`, so
 * the pair may sit anywhere, even inside an operator or between `$` and `(`. The bash manual, 3.1.2.1
 * "Escape Character" (gnu.org/software/bash/manual/html_node/Escape-Character.html, read
 * 2026-11-28): "If a \newline pair appears, and the backslash itself is not quoted, the \newline is
 * treated as a line continuation (that is, it is removed from the input stream and effectively
 * ignored)". It stays in:
 * - single quotes (`'a\⏎b'` keeps both characters);
 * - comments (a comment ends at the newline, so `# x \⏎touch y` still runs `touch y`);
 * - an escaped backslash (`\\⏎` is a backslash, then a newline);
 * - `$'…'` and here-document bodies, which the reader refuses anyway.
 *
 * Only the contexts the reader accepts need to be tracked exactly: up to the first construct the
 * reader refuses, this text and bash's agree, and the reader refuses at that construct. The
 * differential test (__tests__/tools/limits/bash-differential.test.ts) checks this against bash.
 */
export function joinContinuedLines(command: string): string {
  let out = '';
  let index = 0;
  /** True where an unquoted `#` would start a comment: at the start, after a blank or an operator. */
  let atWordStart = true;
  const length = command.length;
  while (index < length) {
    const char = command[index]!;
    if (char === '\\') {
      const next = command[index + 1];
      index += next === undefined ? 1 : 2;
      if (next !== '\n') {
        out += next === undefined ? char : char + next;
        atWordStart = false;
      }
    } else if (char === "'") {
      const end = command.indexOf("'", index + 1);
      const stop = end === -1 ? length : end + 1;
      out += command.slice(index, stop);
      index = stop;
      atWordStart = false;
    } else if (char === '"') {
      const [quoted, stop] = doubleQuoted(command, index);
      out += quoted;
      index = stop;
      atWordStart = false;
    } else if (char === '#' && atWordStart) {
      const end = command.indexOf('\n', index);
      const stop = end === -1 ? length : end;
      out += command.slice(index, stop);
      index = stop;
    } else {
      out += char;
      index++;
      atWordStart = WORD_BREAKS.has(char);
    }
  }
  return out;
}

/** Characters after which an unquoted `#` starts a comment (blanks and bash's operator characters). */
const WORD_BREAKS = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/** The double-quoted string that opens at `start`, continuations removed, and where it ends. */
function doubleQuoted(command: string, start: number): [string, number] {
  let out = '"';
  let index = start + 1;
  while (index < command.length) {
    const char = command[index]!;
    if (char === '\\' && index + 1 < command.length) {
      if (command[index + 1] !== '\n') out += char + command[index + 1]!;
      index += 2;
    } else {
      out += char;
      index++;
      if (char === '"') return [out, index];
    }
  }
  return [out, index];
}
