import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { toolExchangesFrom, toolResultText } from './history.js';

export interface SpillSettings {
  /** A result longer than this goes to a file. */
  readonly maxResultChars: number;
  /** Characters of preview kept in the history, split between head and tail. */
  readonly previewChars: number;
}

/** Writes a result to disk and returns the path the model should use to read it (repository-relative). */
export type SpillWriter = (toolUseId: string, text: string) => string;

export interface SpilledResult {
  readonly toolUseId: string;
  readonly path: string;
  readonly chars: number;
  /** The message that changed: an edit point for preserved thinking. */
  readonly messageIndex: number;
}

/**
 * Moves oversized tool results of history[from..] (not yet sent) to files and leaves a head-and-tail
 * preview with the path. Returns the same array when nothing was spilled.
 */
export function spillLargeResults(
  history: MessageParam[],
  from: number,
  settings: SpillSettings,
  write: SpillWriter
): { history: MessageParam[]; spilled: SpilledResult[] } {
  const large = toolExchangesFrom(history, from).filter(
    (exchange) => toolResultText(exchange.result).length > settings.maxResultChars
  );
  if (large.length === 0) return { history, spilled: [] };
  const next = [...history];
  const spilled: SpilledResult[] = [];
  for (const { result, messageIndex, blockIndex } of large) {
    const text = toolResultText(result);
    const path = write(result.tool_use_id, text);
    spilled.push({ toolUseId: result.tool_use_id, path, chars: text.length, messageIndex });
    const message = next[messageIndex]!;
    const content = [...(message.content as ToolResultBlockParam[])];
    content[blockIndex] = { ...result, content: preview(text, path, settings.previewChars) };
    next[messageIndex] = { ...message, content } as MessageParam;
  }
  return { history: next, spilled };
}

export function preview(text: string, path: string, previewChars: number): string {
  const half = Math.floor(previewChars / 2);
  const omitted = text.length - 2 * half;
  const lines = text.split('\n').length;
  return [
    text.slice(0, half),
    `\n[... ${omitted} characters omitted. The full output (${text.length} characters, ${lines} lines) is in ${path}:`,
    'read parts of it with read_file and offset/limit, or search it with grep and that path ...]\n',
    text.slice(text.length - half)
  ].join('\n');
}
