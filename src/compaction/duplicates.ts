import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { describeToolCall } from '../tools/describe-call.js';
import { WINDOW_MARKER_PATTERN } from '../tools/read-file.js';
import { normalizedPath, toolExchangesFrom, toolResultText, type ToolExchange } from './history.js';
import { CLEARED_PREFIX, placeholderFor } from './placeholder.js';

/** Marks a result that repeats an earlier one still in the context; such results are never cleared. */
export const DUPLICATE_PREFIX = '[unchanged: ';

/** A new tool result whose call and text equal those of an earlier result the model can still see. */
export interface DuplicateResult {
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly toolUseId: string;
  readonly name: string;
  readonly input: unknown;
  /** The earlier result it repeats, which stays in the context. */
  readonly earlierToolUseId: string;
  readonly chars: number;
  /** `repeat`: the same call printed the same; `lines`: a read whose numbered lines the earlier read shows. */
  readonly kind: 'repeat' | 'lines';
}

/**
 * The results in history[from..] that repeat what the context still shows whole:
 * - the result of the same call (same tool, same input), byte for byte: a file read again unchanged,
 *   a search or a command that printed the same;
 * - a read of a file whose numbered lines, all of them, the file's current read still shows, when
 *   both reads saw the file at the same length (a window of a file read whole, unchanged there; a
 *   whole read by another window that covered the file). A read of a file whose length changed is
 *   never pointed at an earlier one: its own length is news.
 *   The current read is the latest one that showed something the one before it did not: a read
 *   that disagrees shows the file changed (through a command, say), so earlier reads may be stale;
 *   a read that agrees changes nothing. An edit or write of the file ends the current read's use.
 * Results shorter than `minChars` are left alone (a pointer would not be shorter). Only the repeated
 * copy goes: the earlier one stays where the cached prefix holds it.
 */
export function findDuplicateResults(
  history: readonly MessageParam[],
  from: number,
  minChars: number
): DuplicateResult[] {
  // Only tools with a new result big enough to repeat matter: the rest of the history is skipped
  // without building keys (this runs before every request, over the whole history).
  const fresh = toolExchangesFrom(history, from).filter(
    (exchange) => toolResultText(exchange.result).length >= minChars
  );
  if (fresh.length === 0) return [];
  const tools = new Set(fresh.map((exchange) => exchange.use.name));
  // Only the files a new read shows need their reads followed (this keeps the scan cheap).
  const freshReads = new Set(
    fresh
      .filter((exchange) => exchange.use.name === 'read_file')
      .map((exchange) => filePathOf(exchange.use.input))
  );
  const latest = new Map<string, { toolUseId: string; text: string }>();
  const latestRead = new Map<string, { toolUseId: string; read: NumberedRead }>();
  const duplicates: DuplicateResult[] = [];
  for (const exchange of toolExchangesFrom(history, 0)) {
    const named = filePathOf(exchange.use.input);
    const path = named !== undefined && freshReads.has(named) ? named : undefined;
    if (path !== undefined && (exchange.use.name === 'edit_file' || exchange.use.name === 'write_file')) {
      latestRead.delete(path);
      continue;
    }
    if (!tools.has(exchange.use.name)) continue;
    const key = `${exchange.use.name}:${canonicalInput(exchange.use.input)}`;
    const text = toolResultText(exchange.result);
    const live = !text.startsWith(CLEARED_PREFIX) && !text.startsWith(DUPLICATE_PREFIX);
    const candidate =
      exchange.messageIndex >= from && live && !exchange.result.is_error && text.length >= minChars;
    const earlier = latest.get(key);
    const read = exchange.use.name === 'read_file' && path !== undefined ? numberedRead(text) : undefined;
    const current = path !== undefined ? latestRead.get(path) : undefined;
    const container = read && candidate ? current : undefined;
    if (candidate && earlier !== undefined && earlier.text === text) {
      duplicates.push(duplicateOf(exchange, earlier.toolUseId, text.length, 'repeat'));
    } else if (container && showsAll(container.read, read!)) {
      duplicates.push(duplicateOf(exchange, container.toolUseId, text.length, 'lines'));
    } else if (live) {
      latest.set(key, { toolUseId: exchange.use.id, text });
      if (read && !exchange.result.is_error) {
        // A read that shows nothing new leaves the current one current.
        if (!current || !showsAll(current.read, read))
          latestRead.set(path!, { toolUseId: exchange.use.id, read });
      } else if (path !== undefined && exchange.use.name === 'read_file') latestRead.delete(path);
    } else if (text.startsWith(CLEARED_PREFIX)) {
      latest.delete(key);
      // A later read, even cleared, saw the file after the one before it: that one is no longer the latest.
      if (path !== undefined && exchange.use.name === 'read_file') latestRead.delete(path);
    }
  }
  return duplicates;
}

/** A read_file result as lines: its numbered lines and the file's length then. */
interface NumberedRead {
  /** The numbered lines wrapped in newlines, so that `includes` matches whole lines only. */
  readonly lines: string;
  readonly fileLines: number;
}

/** Undefined for a text that is not numbered lines (an empty file's note, an error). */
function numberedRead(text: string): NumberedRead | undefined {
  const marker = WINDOW_MARKER_PATTERN.exec(text);
  const body = marker ? text.slice(0, marker.index) : text;
  if (!/^ *\d+\t/.test(body)) return undefined;
  const fileLines = marker ? Number(/ of (\d+);/.exec(marker[0])![1]) : body.split('\n').length;
  return { lines: `\n${body}\n`, fileLines };
}

/** Whether `earlier` shows every numbered line of `later`, of a file of the same length. */
function showsAll(earlier: NumberedRead, later: NumberedRead): boolean {
  return earlier.fileLines === later.fileLines && earlier.lines.includes(later.lines);
}

function duplicateOf(
  exchange: ToolExchange,
  earlierToolUseId: string,
  chars: number,
  kind: DuplicateResult['kind']
): DuplicateResult {
  return {
    messageIndex: exchange.messageIndex,
    blockIndex: exchange.blockIndex,
    toolUseId: exchange.use.id,
    name: exchange.use.name,
    input: exchange.use.input,
    earlierToolUseId,
    chars,
    kind
  };
}

function filePathOf(input: unknown): string | undefined {
  const path = (input as Record<string, unknown> | null)?.path;
  return typeof path === 'string' ? normalizedPath(path) : undefined;
}

/** The same input whatever the order of its keys, and with paths normalized (`./a` is `a`). */
function canonicalInput(input: unknown): string {
  if (typeof input !== 'object' || input === null) return JSON.stringify(input);
  const record = input as Record<string, unknown>;
  return JSON.stringify(
    Object.keys(record)
      .sort()
      .map((key) => {
        const value = record[key];
        return [key, key === 'path' && typeof value === 'string' ? normalizedPath(value) : value];
      })
  );
}

/** What the model sees instead of a repeated result: where the identical one is. */
export function duplicateNote(
  name: string,
  input: unknown,
  earlierToolUseId: string,
  kind: DuplicateResult['kind'] = 'repeat'
): string {
  const what = kind === 'repeat' ? `returned exactly what it returned` : PARTIAL_REPEAT_WORDS;
  return (
    `${DUPLICATE_PREFIX}${describeToolCall(name, input, 120)} ${what} for ` +
    `tool_use ${earlierToolUseId}, which is still above in this conversation; read it there]`
  );
}

const PARTIAL_REPEAT_WORDS = 'returned only lines shown, unchanged and with the same numbers, in the result';

/** Whether a note stands for a partial repeat: its own text was a part of the result it points at. */
export function isPartialRepeatNote(text: string): boolean {
  return earlierIdOf(text) !== undefined && text.includes(` ${PARTIAL_REPEAT_WORDS} for tool_use `);
}

/** The tool_use id a duplicate note points at, or undefined when the text is not such a note. */
export function earlierIdOf(text: string): string | undefined {
  if (!text.startsWith(DUPLICATE_PREFIX)) return undefined;
  // Anchored at the note's fixed ending: the call's own description (a path, a pattern the model
  // chose) comes first and may hold the same words.
  return / for tool_use (\S+), which is still above in this conversation; read it there\]$/.exec(text)?.[1];
}

/** Returns a new history with each duplicate replaced by its note; the input is not changed. */
export function replaceDuplicates(
  history: readonly MessageParam[],
  duplicates: readonly DuplicateResult[]
): MessageParam[] {
  const next = [...history];
  for (const duplicate of duplicates) {
    const message = next[duplicate.messageIndex]!;
    if (typeof message.content === 'string') continue;
    const content = [...message.content];
    const block = content[duplicate.blockIndex] as ToolResultBlockParam;
    content[duplicate.blockIndex] = {
      type: 'tool_result',
      tool_use_id: block.tool_use_id,
      content: duplicateNote(duplicate.name, duplicate.input, duplicate.earlierToolUseId, duplicate.kind)
    };
    next[duplicate.messageIndex] = { ...message, content } as MessageParam;
  }
  return next;
}

/**
 * `kept` (the messages a summary keeps) with every note whose earlier result is not kept with it
 * turned into a placeholder for the call, sized by the result it pointed at in `source`: a note must
 * never point at a result the summary dropped. Other messages stay the same objects.
 */
export function withoutDanglingNotes(
  kept: readonly MessageParam[],
  source: readonly MessageParam[]
): MessageParam[] {
  const exchanges = toolExchangesFrom(kept, 0);
  const keptIds = new Set(exchanges.map((exchange) => exchange.use.id));
  const dangling = exchanges.filter((exchange) => {
    const target = earlierIdOf(toolResultText(exchange.result));
    return target !== undefined && !keptIds.has(target);
  });
  if (dangling.length === 0) return [...kept];
  const sourceTexts = new Map(
    toolExchangesFrom(source, 0).map((exchange) => [exchange.use.id, toolResultText(exchange.result)])
  );
  const next = [...kept];
  for (const exchange of dangling) {
    const message = next[exchange.messageIndex]!;
    if (typeof message.content === 'string') continue;
    const content = [...message.content];
    const note = toolResultText(exchange.result);
    const target = earlierIdOf(note)!;
    const sized = isPartialRepeatNote(note) ? undefined : (sourceTexts.get(target) ?? '');
    content[exchange.blockIndex] = {
      type: 'tool_result',
      tool_use_id: exchange.result.tool_use_id,
      content: placeholderFor(exchange.use.name, exchange.use.input, sized)
    };
    next[exchange.messageIndex] = { ...message, content } as MessageParam;
  }
  return next;
}

/** Files whose content `messages` show in a live read_file result (not a placeholder, not a note). */
export function filesShownIn(messages: readonly MessageParam[]): Set<string> {
  const shown = new Set<string>();
  for (const exchange of toolExchangesFrom(messages, 0)) {
    if (exchange.use.name !== 'read_file' || exchange.result.is_error) continue;
    const text = toolResultText(exchange.result);
    const path = filePathOf(exchange.use.input);
    if (path !== undefined && !text.startsWith(CLEARED_PREFIX) && !text.startsWith(DUPLICATE_PREFIX))
      shown.add(path);
  }
  return shown;
}
