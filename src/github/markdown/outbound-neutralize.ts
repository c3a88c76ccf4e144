/**
 * Text the action does not write itself (the model's summary, file names, error messages that quote
 * them) goes into comments and pull request bodies. There it must stay text: it may not close
 * issues, ping people, render HTML or break out of the code span or block it is shown in.
 *
 * The defusing is context-free on purpose: a word joiner (U+2060, invisible) goes where GitHub
 * would otherwise see a closing keyword, a mention or a tag. Inside code it changes nothing a
 * reader sees, so nothing depends on guessing where GitHub thinks code starts and ends.
 */
const JOINER = '\u2060';

/** "Fixes #2", "closed: owner/repo#2", "resolves https://github.com/o/r/issues/2", in any case. */
const CLOSING_REFERENCE =
  /\b(close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved)(?=\s*:?\s*(?:[\w.-]+\/[\w.-]+)?#\d|\s*:?\s*GH-\d|\s*:?\s*https?:\/\/\S+\/(?:issues|pull)\/\d)/gi;
/** `@user` or `@org/team` where GitHub links it: not after a word character (e-mail addresses). */
const MENTION = /(^|[^\w])@(?=[A-Za-z0-9])/g;
/** The start of an HTML tag, comment, declaration or processing instruction. */
const TAG_START = /<(?=[A-Za-z/!?])/g;

/** Closing keywords, mentions and tags defused; everything else, markdown included, kept. */
export function defuse(text: string): string {
  return text
    .replace(CLOSING_REFERENCE, (keyword) => `${keyword[0]}${JOINER}${keyword.slice(1)}`)
    .replace(MENTION, (_, before: string) => `${before}@${JOINER}`)
    .replace(TAG_START, `<${JOINER}`);
}

/**
 * Every control character (newline, carriage return, escape, …) as a space: the text stays on its
 * line, in a comment and in a log alike (a runner splitting a log line on \r could obey a `::…::`
 * command that starts after it).
 */
export function withoutControls(text: string): string {
  return text.replace(/\p{Cc}+/gu, ' ');
}

/** Text for the middle of a sentence: defused, on one line, so it cannot start a block. */
export function inlineText(text: string): string {
  return defuse(withoutControls(text).trim());
}

/**
 * Model text as a block: defused, and inside a blockquote. A quote is a container, so whatever the
 * text opens (a code fence never closed, a list, an indented block) ends with it, and the report's
 * next section is never swallowed.
 */
export function quoteBlock(text: string, lead = ''): string {
  // A lone CR ends a line for GitHub's markdown too: split there, or it would start a block of its own.
  const lines = defuse(text.trimEnd()).split(/\r\n?|\n/);
  lines[0] = `${lead}${lines[0]}`;
  return lines.map((line) => (line === '' ? '>' : `> ${line}`)).join('\n');
}

/** A name (a file, a branch) as inline code, whatever backticks or line breaks it holds. */
export function codeSpan(text: string): string {
  const oneLine = inlineText(text);
  const ticks = '`'.repeat(longestRun(oneLine, '`') + 1);
  const padding = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : '';
  return `${ticks}${padding}${oneLine}${padding}${ticks}`;
}

/**
 * A fenced code block no line of `text` can close (the fence is longer than any backtick run in
 * it). Inside, GitHub reads nothing as markup, so the text is kept byte for byte (a patch stays
 * appliable).
 */
export function fence(text: string, language = ''): string {
  const ticks = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${ticks}${language}\n${text.trimEnd()}\n${ticks}`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    longest = Math.max(longest, current);
  }
  return longest;
}
