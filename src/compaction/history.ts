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

const KEPT_TASK_OPEN = '<task note="the task as given, kept verbatim after the API\'s compaction">\n';
const KEPT_TASK_CLOSE = '\n</task>';

/** The task as it stands after an API compaction (the block must come first, so the task follows it). */
export function keptTaskText(task: string): string {
  return `${KEPT_TASK_OPEN}${task}${KEPT_TASK_CLOSE}`;
}

/**
 * The task: the first text of the first message, or, once the API's compaction block stands first,
 * the latest task our rebuild put back after it (keptTaskText).
 */
export function taskOf(history: readonly MessageParam[]): string {
  const first = history[0];
  if (!first) return '';
  const block = blocksOf(first)[0];
  if (block?.type === 'text') return block.text;
  if ((block as { type: string } | undefined)?.type !== 'compaction') return '';
  // Only user messages: ours. A reply could imitate the wrapper (an injected model) and take the task.
  for (let index = history.length - 1; index > 0; index--) {
    if (history[index]!.role !== 'user') continue;
    for (const part of blocksOf(history[index]!)) {
      if (part.type === 'text' && part.text.startsWith(KEPT_TASK_OPEN) && part.text.endsWith(KEPT_TASK_CLOSE))
        return part.text.slice(KEPT_TASK_OPEN.length, part.text.length - KEPT_TASK_CLOSE.length);
    }
  }
  return '';
}

/** A path as tool inputs name it, compared by compaction: `./a` and `a//b` are `a` and `a/b`. */
export function normalizedPath(value: string): string {
  return value.replace(/^\.\//, '').replace(/\/+/g, '/');
}
