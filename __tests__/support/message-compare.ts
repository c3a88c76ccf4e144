import type { WireContentBlock } from '../../test-support/fake-anthropic/index.js';

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

/** A reply as the loop keeps it in the history: request params, without empty text blocks. */
export function replyAsMessage(content: readonly WireContentBlock[]): ComparableMessage {
  return {
    role: 'assistant',
    content: content.flatMap((block): object[] => {
      switch (block.type) {
        case 'text':
          return block.text.trim() === '' ? [] : [{ type: 'text', text: block.text }];
        case 'tool_use':
          return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
        case 'thinking':
          return [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
        case 'redacted_thinking':
          return [{ type: 'redacted_thinking', data: block.data }];
        case 'compaction':
          return [block];
      }
    })
  };
}
