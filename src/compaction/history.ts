import type {
  ContentBlockParam,
  MessageParam,
  ToolResultBlockParam,
  ToolUseBlockParam
} from '@anthropic-ai/sdk/resources/messages';

/** A message's content as blocks; a string is one text block, as the API reads it. */
export function blocksOf(message: MessageParam): readonly ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** Size used for token estimates: the JSON the SDK sends, which is what the ratio is learned on. */
export function messageChars(message: MessageParam): number {
  return JSON.stringify(message.content).length + 20;
}

export function historyChars(history: readonly MessageParam[]): number {
  let total = 0;
  for (const message of history) total += messageChars(message);
  return total;
}

export function toolResultText(block: ToolResultBlockParam): string {
  if (block.content === undefined) return '';
  if (typeof block.content === 'string') return block.content;
  return block.content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part))).join('\n');
}

/** A tool call and its answer, located in the history. */
export interface ToolExchange {
  readonly use: ToolUseBlockParam;
  readonly result: ToolResultBlockParam;
  /** Index of the user message holding the result, and of the result block in it. */
  readonly messageIndex: number;
  readonly blockIndex: number;
}

/**
 * The tool exchanges whose results sit in history[from..]: each result is paired with the tool_use
 * of the assistant message right before it. Work is proportional to the messages scanned only.
 */
export function toolExchangesFrom(history: readonly MessageParam[], from: number): ToolExchange[] {
  const exchanges: ToolExchange[] = [];
  for (let index = Math.max(from, 1); index < history.length; index++) {
    const message = history[index]!;
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    const previous = history[index - 1];
    if (!previous || previous.role !== 'assistant') continue;
    const uses = new Map<string, ToolUseBlockParam>();
    for (const block of blocksOf(previous)) if (block.type === 'tool_use') uses.set(block.id, block);
    message.content.forEach((block, blockIndex) => {
      if (block.type !== 'tool_result') return;
      const use = uses.get(block.tool_use_id);
      if (use) exchanges.push({ use, result: block, messageIndex: index, blockIndex });
    });
  }
  return exchanges;
}

/** The first text of the first message: where the task always stands. */
export function taskOf(history: readonly MessageParam[]): string {
  const first = history[0];
  if (!first) return '';
  const block = blocksOf(first)[0];
  return block?.type === 'text' ? block.text : '';
}

/** A path as tool inputs name it, compared by compaction: `./a` and `a//b` are `a` and `a/b`. */
export function normalizedPath(value: string): string {
  return value.replace(/^\.\//, '').replace(/\/+/g, '/');
}
