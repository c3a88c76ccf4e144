import type { ContentBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';

const EPHEMERAL = { type: 'ephemeral' } as const;

/** The system prompt as one block that closes the first cached prefix: tools + system. */
export function systemWithBreakpoint(systemPrompt: string): TextBlockParam[] {
  return [{ type: 'text', text: systemPrompt, cache_control: EPHEMERAL }];
}

/**
 * Marks the last message (the moving breakpoint) and the user message before it, which was the last
 * message of the previous request: its cache entry is then hit exactly, however many blocks the
 * latest turn added (the API only looks about 20 blocks back for an earlier breakpoint).
 * After a compaction changed the history from message `editedFrom` on, the last user message before
 * that point is marked too (the fourth breakpoint the API allows): it was the last message of an
 * earlier request, so the unchanged prefix up to it is read from the cache, not written again, even
 * when the edit lies more than 20 blocks back.
 * Copies only the marked messages, so the history itself is never changed and per-turn work stays O(1).
 */
export function withMessageBreakpoints(
  messages: readonly MessageParam[],
  editedFrom?: number
): MessageParam[] {
  const marked = [...messages];
  const last = marked.length - 1;
  if (last < 0) return marked;
  marked[last] = withBreakpoint(marked[last]!);
  const previousUser = findPreviousUserIndex(marked, last);
  if (previousUser !== undefined) marked[previousUser] = withBreakpoint(marked[previousUser]!);
  if (editedFrom !== undefined && previousUser !== undefined && editedFrom <= previousUser) {
    const beforeEdit = findPreviousUserIndex(marked, Math.min(editedFrom, previousUser));
    if (beforeEdit !== undefined) marked[beforeEdit] = withBreakpoint(marked[beforeEdit]!);
  }
  return marked;
}

function findPreviousUserIndex(messages: readonly MessageParam[], before: number): number | undefined {
  for (let index = before - 1; index >= 0; index--) {
    if (messages[index]!.role === 'user') return index;
  }
  return undefined;
}

function withBreakpoint(message: MessageParam): MessageParam {
  if (typeof message.content === 'string') {
    return {
      ...message,
      content: [{ type: 'text', text: message.content, cache_control: EPHEMERAL }]
    } as MessageParam;
  }
  const blocks = [...message.content];
  for (let index = blocks.length - 1; index >= 0; index--) {
    const block = blocks[index]!;
    if (acceptsCacheControl(block)) {
      blocks[index] = { ...block, cache_control: EPHEMERAL } as ContentBlockParam;
      return { ...message, content: blocks } as MessageParam;
    }
  }
  return message;
}

/** Thinking blocks cannot carry cache_control; every block type we send otherwise can. */
function acceptsCacheControl(block: ContentBlockParam): boolean {
  return block.type !== 'thinking' && block.type !== 'redacted_thinking';
}
