/**
 * Text from issues and comments reaches the model as data. Hidden content is removed first: what a
 * reader of the thread cannot see must not steer the agent.
 */
export function cleanUntrusted(text: string): string {
  return (
    text
      // HTML comments are invisible on GitHub: a favourite place for injected instructions.
      .replace(/<!--[\s\S]*?(-->|$)/g, '')
      // Format characters (zero-width, bidi controls, Unicode tags) hide or reorder text.
      .replace(/\p{Cf}/gu, '')
      // Reference definitions (`[x]: url "title"`, `[//]: # (...)`) are never shown.
      .replace(/^ {0,3}\[[^\]\n]+\]:[^\n]*$/gm, '')
      // Image alt text (brackets may nest) and link titles in any of their three quotings.
      .replace(/!\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*([^)\s]*)[^)]*\)/g, '![]($1)')
      .replace(/\]\(\s*([^)\s]+)\s+(?:"[^"]*"|'[^']*'|\([^)]*\))\s*\)/g, ']($1)')
      // HTML attributes that render no text: alt and title.
      .replace(/\s(?:alt|title)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, '')
      .replace(/<details[^>]*>|<\/details>|<summary[^>]*>|<\/summary>/gi, '')
      .trim()
  );
}

/**
 * A delimited block the system prompt declares as data; the closing tag cannot be forged inside,
 * and its attributes (a CI job's name, a file path: text others chose) cannot close the tag.
 */
export function untrustedBlock(source: string, author: string, text: string): string {
  const body = cleanUntrusted(text).replace(/<\/?untrusted-data/gi, (tag) => tag.replace('<', '&lt;'));
  return `<untrusted-data source="${attribute(source)}" author="${attribute(author)}">\n${body}\n</untrusted-data>`;
}

/** An attribute's value: one line, at most 200 characters, with `&`, `"`, `<` and `>` escaped. */
function attribute(value: string): string {
  return untrustedLine(value, 200)
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Untrusted text on one line: control and format characters (newlines among them) become spaces. */
function untrustedLine(value: string, maxLength: number): string {
  return value
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, ' ')
    .trim()
    .slice(0, maxLength);
}

/**
 * A name others chose (a CI job or step, a file path) set inside our own words, outside any block:
 * one line, cut, and in double quotes with quotes and angle brackets escaped, so that it reads as
 * a quoted name and cannot open or close a block or start a line of its own.
 */
export function quotedUntrustedName(value: string, maxLength = 200): string {
  return JSON.stringify(untrustedLine(value, maxLength)).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}
