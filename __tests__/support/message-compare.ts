/** A message in the shape both the API and the transcript use. */
export type ComparableMessage = { role: string; content: string | readonly object[] };

/** JSON with sorted keys, so objects compare by content whatever order their fields were written in. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A message as the API sees it: string content is one text block, cache markers are not content. */
export function normalizeMessage(message: ComparableMessage): string {
  const blocks =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  return canonical({
    role: message.role,
    content: blocks.map((block) => {
      const { cache_control: _marker, ...rest } = block as { cache_control?: unknown };
      return rest;
    })
  });
}
