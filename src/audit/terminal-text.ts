/**
 * Text from outside (a zip's entry names, a report comment's requester or status, a file's path)
 * made safe to print to a terminal: every control character (Unicode category Cc: ESC, BEL, CR,
 * backspace, tab, C1 controls…) becomes a visible `\xNN`/`\uNNNN` escape, so a name cannot move the
 * cursor, rewrite an earlier line, set the window title or hide text. Newlines are kept: the printed
 * text is built from lines, and each piece of outside text is one line already (a newline inside one
 * only starts a new line, which cannot hide anything).
 */
export function terminalSafe(text: string): string {
  return text.replace(/(?!\n)\p{Cc}/gu, (char) => {
    const code = char.codePointAt(0)!;
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
