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

/** A delimited block the system prompt declares as data; the closing tag cannot be forged inside. */
export function untrustedBlock(source: string, author: string, text: string): string {
  const body = cleanUntrusted(text).replace(/<\/?untrusted-data/gi, (tag) => tag.replace('<', '&lt;'));
  return `<untrusted-data source="${source}" author="${author}">\n${body}\n</untrusted-data>`;
}
