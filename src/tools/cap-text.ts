/** Shortens text to at most `limit` characters, keeping its head and tail and saying how much was cut. */
export function capText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const keep = Math.floor(limit / 2);
  const omitted = text.length - 2 * keep;
  return `${text.slice(0, keep)}\n[... ${omitted} characters omitted ...]\n${text.slice(text.length - keep)}`;
}
