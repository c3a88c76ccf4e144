/**
 * Text from issues and comments reaches the model as data. Hidden content is removed first: what a
 * reader of the thread cannot see must not steer the agent.
 */
export function cleanUntrusted(text: string): string {
  return (
    text
      // HTML comments are invisible on GitHub: a favourite place for injected instructions.
      .replace(/<!--[\s\S]*?(-->|$)/g, '')
      // Zero-width characters and bidi controls hide or reorder text.
      .replace(/[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g, '')
      // Image alt text and link titles are not shown in the thread.
      .replace(/!\[[^\]]*\]\(([^)\s]*)(?:\s+"[^"]*")?\)/g, '![]($1)')
      .replace(/\[([^\]]*)\]\(([^)\s]+)\s+"[^"]*"\)/g, '[$1]($2)')
      .replace(/<details[^>]*>|<\/details>|<summary[^>]*>|<\/summary>/gi, '')
      .trim()
  );
}

/** A delimited block the system prompt declares as data; the closing tag cannot be forged inside. */
export function untrustedBlock(source: string, author: string, text: string): string {
  const body = cleanUntrusted(text).replace(/<\/?untrusted-data/gi, (tag) => tag.replace('<', '&lt;'));
  return `<untrusted-data source="${source}" author="${author}">\n${body}\n</untrusted-data>`;
}
