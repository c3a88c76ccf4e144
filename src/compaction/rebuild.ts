import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';

export interface RestoredFile {
  readonly path: string;
  /** The file as read_file shows it (numbered lines), already bounded. */
  readonly text: string;
}

export interface CompactedParts {
  /** The original task, verbatim: always the first block of the first message. */
  readonly task: string;
  /** The summary with the transcript path, or the note that replaces it in a fallback. */
  readonly header: string;
  readonly ledger: string;
  readonly files: readonly RestoredFile[];
  /** Recent messages; starts with an assistant message, so every tool_result keeps its tool_use. */
  readonly tail: readonly MessageParam[];
}

/** The history after a compaction: task + summary + ledger + files in one user message, then the tail. */
export function compactedHistory(parts: CompactedParts): MessageParam[] {
  const blocks: TextBlockParam[] = [
    { type: 'text', text: parts.task },
    { type: 'text', text: parts.header },
    { type: 'text', text: parts.ledger },
    ...parts.files.map((file): TextBlockParam => ({
      type: 'text',
      text: `<recent-file path="${file.path}" note="re-read from disk after the compaction">\n${file.text}\n</recent-file>`
    }))
  ];
  if (parts.tail.length === 0) {
    blocks.push({ type: 'text', text: 'Continue the task from the next step in the summary.' });
  }
  return [{ role: 'user', content: blocks }, ...parts.tail];
}

/**
 * The most recent messages that fit in `budgetTokens`, cut at an assistant message: a kept
 * tool_result then always has its tool_use right before it. The first message (the task) is never
 * part of the tail; it is rebuilt.
 */
export function selectTail(
  history: readonly MessageParam[],
  budgetTokens: number,
  tokensOf: (message: MessageParam) => number
): MessageParam[] {
  let start = history.length;
  let used = 0;
  while (start > 1) {
    const cost = tokensOf(history[start - 1]!);
    if (used + cost > budgetTokens) break;
    used += cost;
    start--;
  }
  while (start < history.length && history[start]!.role !== 'assistant') start++;
  return history.slice(start);
}

/**
 * Where the messages the model has not seen yet start, when a summary can leave them out and keep
 * them whole in the tail: the reply the model just wrote (an assistant message, so every kept
 * tool_result keeps its tool_use) and the results of its calls, if together they fit in
 * `budgetTokens`. Undefined when nothing is unseen or it is too big to keep.
 */
export function unseenTurnStart(
  history: readonly MessageParam[],
  sentCount: number,
  budgetTokens: number,
  tokensOf: (message: MessageParam) => number
): number | undefined {
  if (sentCount < 2 || sentCount >= history.length) return undefined;
  if (history[sentCount]!.role !== 'assistant') return undefined;
  const tokens = history.slice(sentCount).reduce((sum, message) => sum + tokensOf(message), 0);
  return tokens <= budgetTokens ? sentCount : undefined;
}
