import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { earlierIdOf, isPartialRepeatNote } from './duplicates.js';
import { normalizedPath, toolExchangesFrom, toolResultText, type ToolExchange } from './history.js';
import { CLEARED_PREFIX, placeholderFor } from './placeholder.js';

export interface MicroSettings {
  /** The most recent tool results that are never cleared (unless superseded). */
  readonly keepRecent: number;
  /** Hysteresis floor: clear only once this many tokens can be cleared, then clear them all. */
  readonly clearAtLeast: number;
  /** Results smaller than this are not worth a placeholder. */
  readonly minResultTokens: number;
  /** Tools whose results are never cleared. */
  readonly preserveTools: readonly string[];
}

/** A result that may be cleared one day: big enough and not from a preserved tool. */
export interface ClearableResult {
  readonly toolUseId: string;
  readonly name: string;
  readonly input: unknown;
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly tokens: number;
  /** Position among all tool results of the history (small and preserved ones included); a repeat moves it up. */
  ordinal: number;
  /** A later call made this result stale: the file was read again or changed, or the same command ran again. */
  superseded: boolean;
  /** For a repeat note: the result it points at, whose text gives the note's placeholder its size. */
  readonly repeats?: ClearableResult;
}

/**
 * What micro-compaction knows about the history, built incrementally: only results not yet cleared
 * and big enough to matter are kept, so its size is bounded by the floor, not by the run's length.
 */
export interface MicroIndex {
  indexedUpTo: number;
  resultCount: number;
  pending: ClearableResult[];
  /** The latest result per supersession key (file path, command, search). */
  latestByKey: Map<string, ClearableResult>;
  /** The repeat notes pointing at each pending result: they are cleared with it, never left dangling. */
  repeatNotes: Map<string, ClearableResult[]>;
}

export function emptyMicroIndex(): MicroIndex {
  return { indexedUpTo: 0, resultCount: 0, pending: [], latestByKey: new Map(), repeatNotes: new Map() };
}

/** Adds the tool results of history[index.indexedUpTo..] to the index (updates it in place). */
export function indexNewResults(
  index: MicroIndex,
  history: readonly MessageParam[],
  settings: MicroSettings,
  estimateTokens: (chars: number) => number
): void {
  for (const exchange of toolExchangesFrom(history, index.indexedUpTo)) {
    const ordinal = index.resultCount++;
    const text = toolResultText(exchange.result);
    const repeated = earlierIdOf(text);
    if (repeated !== undefined) {
      const earlier = refresh(index, repeated, ordinal);
      if (earlier) trackRepeatNote(index, exchange, earlier, ordinal);
      continue;
    }
    markSuperseded(index, exchange);
    if (text.startsWith(CLEARED_PREFIX) || settings.preserveTools.includes(exchange.use.name)) continue;
    const tokens = estimateTokens(text.length);
    if (tokens < settings.minResultTokens) continue;
    const record: ClearableResult = {
      toolUseId: exchange.use.id,
      name: exchange.use.name,
      input: exchange.use.input,
      messageIndex: exchange.messageIndex,
      blockIndex: exchange.blockIndex,
      tokens,
      ordinal,
      superseded: false
    };
    index.pending.push(record);
    const key = supersessionKey(exchange);
    if (key) index.latestByKey.set(key, record);
  }
  index.indexedUpTo = history.length;
}

/**
 * A result repeated unchanged (replaced by a note pointing at it) is as fresh as the repeat: it counts
 * as recent again and is no longer stale, since the note's reader relies on it.
 */
function refresh(index: MicroIndex, toolUseId: string, ordinal: number): ClearableResult | undefined {
  const earlier = index.pending.find((result) => result.toolUseId === toolUseId);
  if (!earlier) return undefined;
  earlier.ordinal = ordinal;
  earlier.superseded = false;
  const key = supersessionKeyOf(earlier.name, earlier.input);
  if (key) index.latestByKey.set(key, earlier);
  return earlier;
}

/**
 * Remembers a repeat note under the result it points at. Only notes pointing at a pending result
 * matter: any other earlier result is never cleared, so its notes stay true.
 */
function trackRepeatNote(
  index: MicroIndex,
  exchange: ToolExchange,
  earlier: ClearableResult,
  ordinal: number
): void {
  const note: ClearableResult = {
    toolUseId: exchange.use.id,
    name: exchange.use.name,
    input: exchange.use.input,
    messageIndex: exchange.messageIndex,
    blockIndex: exchange.blockIndex,
    // Turning a one-line note into a one-line placeholder saves nothing towards the floor.
    tokens: 0,
    ordinal,
    superseded: false,
    repeats: earlier
  };
  index.repeatNotes.set(earlier.toolUseId, [...(index.repeatNotes.get(earlier.toolUseId) ?? []), note]);
}

/** A read is stale once the file is read again or changed; a command or search once it is repeated. */
function markSuperseded(index: MicroIndex, exchange: ToolExchange): void {
  const input = exchange.use.input as Record<string, unknown>;
  if (
    (exchange.use.name === 'edit_file' || exchange.use.name === 'write_file') &&
    typeof input.path === 'string'
  ) {
    const read = index.latestByKey.get(`file:${normalizedPath(input.path)}`);
    if (read) read.superseded = true;
    return;
  }
  const key = supersessionKey(exchange);
  const previous = key ? index.latestByKey.get(key) : undefined;
  if (previous) previous.superseded = true;
}

function supersessionKey({ use }: ToolExchange): string | undefined {
  return supersessionKeyOf(use.name, use.input);
}

function supersessionKeyOf(name: string, value: unknown): string | undefined {
  const input = value as Record<string, unknown>;
  switch (name) {
    case 'read_file':
      return typeof input.path === 'string' ? `file:${normalizedPath(input.path)}` : undefined;
    case 'bash':
      return typeof input.command === 'string' ? `bash:${input.command.trim()}` : undefined;
    case 'grep':
    case 'glob':
      return `${name}:${JSON.stringify(input)}`;
    default:
      return undefined;
  }
}

/**
 * The results to clear now: superseded ones first (they cost least to lose), then every result older
 * than the `keepRecent` most recent. Results of the newest message, not yet seen by the model, stay.
 * The repeat notes pointing at a cleared result come last, wherever they are: in the same edit they
 * become placeholders too, so no note points at a placeholder and the cache is not broken twice.
 */
export function clearCandidates(
  index: MicroIndex,
  settings: MicroSettings,
  newestMessageIndex: number
): ClearableResult[] {
  const recentFrom = index.resultCount - settings.keepRecent;
  const eligible = index.pending.filter(
    (result) => result.messageIndex < newestMessageIndex && (result.superseded || result.ordinal < recentFrom)
  );
  return [
    ...eligible.filter((result) => result.superseded),
    ...eligible.filter((result) => !result.superseded),
    ...eligible.flatMap((result) => index.repeatNotes.get(result.toolUseId) ?? [])
  ];
}

export type MicroDecision = { readonly clear: false } | { readonly clear: true; readonly reason: string };

/**
 * How far past the floor a batch may wait for a cheap moment (see `decideMicroClear`): twice the
 * floor. Waiting a turn costs the uncleared tokens at the cache-read price (0.05x to 0.1x); clearing
 * at a dear moment writes the kept result again at the cache-write price (1.25x), so a short wait
 * pays, and the cap keeps the context bounded when the agent reads big results turn after turn.
 */
export const WAIT_FOR_CHEAP_CLEAR_UP_TO_FLOORS = 2;

/**
 * Tokens of the kept results (recent, not cleared) that lie after the first result a clear would
 * replace, in messages the model has already seen: the prompt cache is cut at the first replaced
 * result, so a clear now writes these again. Results of the newest message are new on this
 * request and written anyway.
 */
export function keptTokensAfterClearPoint(
  index: MicroIndex,
  candidates: readonly ClearableResult[],
  newestMessageIndex: number
): number {
  if (candidates.length === 0) return 0;
  const cleared = new Set(candidates);
  const first = candidates.reduce((a, b) => (isBefore(b, a) ? b : a));
  return index.pending
    .filter(
      (result) => !cleared.has(result) && isBefore(first, result) && result.messageIndex < newestMessageIndex
    )
    .reduce((sum, result) => sum + result.tokens, 0);
}

function isBefore(a: ClearableResult, b: ClearableResult): boolean {
  return (
    a.messageIndex < b.messageIndex || (a.messageIndex === b.messageIndex && a.blockIndex < b.blockIndex)
  );
}

/** What makes this request a cheap or a dear moment to clear. */
export interface ClearMoment {
  /** Kept tokens a clear now would write again (`keptTokensAfterClearPoint`). */
  readonly rewriteTokens: number;
  /** Tokens left before the auto-compaction threshold. */
  readonly headroomTokens: number;
}

const ANY_MOMENT: ClearMoment = { rewriteTokens: 0, headroomTokens: Number.POSITIVE_INFINITY };

/**
 * Hysteresis: clear when the floor is reached, or at once when the prompt cache has gone cold anyway.
 * Past the floor, a batch waits for a moment when no kept result lies after the clear point (the
 * result the model read last turn is often a big file; the next turn's is often a short command),
 * up to `WAIT_FOR_CHEAP_CLEAR_UP_TO_FLOORS` floors, and never past the threshold: there a wait would
 * let a summary (a model call that drops whole turns) do what a clear does. (Waiting until a floor
 * short of the threshold was dearer on every plan of the bench: it clears at dear moments too often.)
 */
export function decideMicroClear(
  candidates: readonly ClearableResult[],
  settings: MicroSettings,
  idleMs: number | undefined,
  cacheTtlMs: number,
  moment: ClearMoment = ANY_MOMENT
): MicroDecision {
  if (candidates.length === 0) return { clear: false };
  const clearable = candidates.reduce((sum, result) => sum + result.tokens, 0);
  const stale = candidates.filter((result) => result.superseded).length;
  const what = `${candidates.length} result${candidates.length === 1 ? '' : 's'} (${stale} superseded), ~${clearable} tokens`;
  if (idleMs !== undefined && idleMs > cacheTtlMs) {
    return { clear: true, reason: `cache cold (${Math.round(idleMs / 1000)} s idle): cleared ${what}` };
  }
  if (clearable < settings.clearAtLeast) return { clear: false };
  const floorReached = `floor of ${settings.clearAtLeast} tokens reached`;
  if (moment.rewriteTokens === 0) return { clear: true, reason: `${floorReached}: cleared ${what}` };
  if (moment.headroomTokens <= 0) {
    return { clear: true, reason: `${floorReached} past the threshold: cleared ${what}` };
  }
  const ceiling = WAIT_FOR_CHEAP_CLEAR_UP_TO_FLOORS * settings.clearAtLeast;
  if (clearable >= ceiling) {
    return {
      clear: true,
      reason: `${ceiling} tokens reached (twice the floor) while ~${moment.rewriteTokens} kept tokens follow the clear point: cleared ${what}`
    };
  }
  return { clear: false };
}

/** Returns a new history with the given results replaced by placeholders; the input is not changed. */
export function clearResults(
  history: readonly MessageParam[],
  results: readonly ClearableResult[]
): MessageParam[] {
  const next = [...history];
  const byMessage = new Map<number, ClearableResult[]>();
  for (const result of results)
    byMessage.set(result.messageIndex, [...(byMessage.get(result.messageIndex) ?? []), result]);
  for (const [messageIndex, cleared] of byMessage) {
    const message = next[messageIndex]!;
    if (typeof message.content === 'string') continue;
    const content = [...message.content];
    for (const result of cleared) {
      const block = content[result.blockIndex] as ToolResultBlockParam;
      const placeholder: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: block.tool_use_id,
        content: placeholderFor(result.name, result.input, originalText(history, result)),
        ...(block.is_error ? { is_error: true } : {})
      };
      content[result.blockIndex] = placeholder;
    }
    next[messageIndex] = { ...message, content } as MessageParam;
  }
  return next;
}

/**
 * The text a result held: for a repeat note, that of the result it repeats (the note is one line);
 * undefined for a note of a partial repeat, whose own lines were never kept (its size is unknown).
 */
function originalText(history: readonly MessageParam[], result: ClearableResult): string | undefined {
  if (result.repeats && isPartialRepeatNote(textAt(history, result))) return undefined;
  return textAt(history, result.repeats ?? result);
}

function textAt(history: readonly MessageParam[], at: ClearableResult): string {
  const message = history[at.messageIndex]!;
  if (typeof message.content === 'string') return '';
  return toolResultText(message.content[at.blockIndex] as ToolResultBlockParam);
}

/** Drops cleared results, and the repeat notes pointing at them, from the index (updates it in place). */
export function forgetCleared(index: MicroIndex, cleared: readonly ClearableResult[]): void {
  const gone = new Set(cleared);
  index.pending = index.pending.filter((result) => !gone.has(result));
  for (const [key, result] of index.latestByKey) if (gone.has(result)) index.latestByKey.delete(key);
  for (const result of cleared) index.repeatNotes.delete(result.toolUseId);
}
