import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { COMPACTION_LAYERS } from '../compaction/compaction-count.js';
import type { CompactionEvent, CompactionLayer } from '../compaction/compactor.js';
import type { UsageRecord } from '../transcript/events.js';
import { lineEnvelope } from '../transcript/line-envelope.js';
import type { AuditToolCall, AuditToolStats, AuditTurn, RunAudit, SkippedLine } from './run-audit.js';

type Line = Record<string, unknown> & { readonly type: string };

const NO_USAGE: UsageRecord = { input: 0, cache_write: 0, cache_read: 0, output: 0 };
const FILE_WRITERS = new Set(['write_file', 'edit_file']);

/**
 * A compaction line's own fields, checked because the page counts events by layer and draws them by
 * their tokens: an unknown layer or a missing number is a skipped line, not a NaN on the page.
 */
const compactionLine = z.looseObject({
  turn: z.number().finite(),
  layer: z.enum(COMPACTION_LAYERS as [CompactionLayer, ...CompactionLayer[]]),
  reason: z.string(),
  tokens_before: z.number().finite(),
  tokens_after: z.number().finite(),
  results_cleared: z.number().finite(),
  summary_tokens: z.number().finite(),
  summary_cost_usd: z.number().finite(),
  duration_ms: z.number().finite(),
  segment_path: z.string().nullable(),
  focus: z.string().nullable(),
  summary: z.string().optional(),
  tool_use_ids: z.array(z.string()).optional()
});

/** run_start's thread record (events.ts ThreadRecord), checked: a follow-up carries it on. */
const threadRecord = z.object({
  original_task: z.string(),
  requests: z.array(z.string())
});

/**
 * Reads a transcript into a RunAudit. A damaged transcript still gives what could be read: bad
 * lines are skipped and listed, and a missing run_end marks the run incomplete.
 */
export function parseTranscript(text: string): RunAudit {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const skipped: SkippedLine[] = [];
  const events: Line[] = [];
  lines.forEach((raw, index) => {
    const parsed = parseLine(raw);
    if (typeof parsed === 'string') skipped.push({ line: index + 1, reason: parsed });
    else events.push(parsed);
  });
  return buildAudit(events, skipped, lines.length);
}

function parseLine(raw: string): Line | string {
  if (raw.trim() === '') return 'empty line';
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    // A line that starts as an event but does not close is one a crash cut short.
    return raw.trimStart().startsWith('{') && !raw.trimEnd().endsWith('}')
      ? 'cut off (not valid JSON)'
      : 'not valid JSON';
  }
  if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') {
    return 'not a transcript event (no type)';
  }
  // The same envelope the writer writes (seq, time, type, and the chain fields when present).
  const envelope = lineEnvelope.safeParse(value);
  if (!envelope.success) return 'not a transcript event (seq, time or chain fields are malformed)';
  if (envelope.data.type === 'compaction' && !compactionLine.safeParse(value).success) {
    return `a compaction event with an unknown layer (not ${COMPACTION_LAYERS.join(', ')}) or malformed fields`;
  }
  return envelope.data as Line;
}

function buildAudit(events: readonly Line[], skippedLines: SkippedLine[], lineCount: number): RunAudit {
  const start = events.find((event) => event.type === 'run_start');
  const end = events.find((event) => event.type === 'run_end');
  const timeline = new TimelineBuilder();
  const compactions: CompactionEvent[] = [];
  const contextTokensPerTurn: Array<{ turn: number; tokens: number }> = [];
  let usage = NO_USAGE;
  let costUsd = 0;
  for (const event of events) {
    switch (event.type) {
      case 'message':
        if (event.context === undefined) timeline.message(event);
        break;
      case 'response': {
        const turn = num(event.turn);
        timeline.response(event);
        if (turn !== undefined && typeof event.context_tokens === 'number') {
          contextTokensPerTurn.push({ turn, tokens: event.context_tokens });
        }
        if (typeof event.total_cost_usd === 'number') costUsd = event.total_cost_usd;
        if (isUsage(event.usage)) usage = add(usage, event.usage);
        break;
      }
      case 'tool_result':
        timeline.toolResult(event);
        break;
      case 'compaction': {
        const { type: _type, seq: _seq, time: _time, prev: _prev, hash: _hash, ...rest } = event;
        compactions.push(rest as unknown as CompactionEvent);
        break;
      }
    }
  }
  const turns = timeline.turns();
  return {
    runId: str(start?.run_id),
    task: str(start?.task),
    thread: threadOf(start),
    model: str(start?.model),
    stopReason: str(end?.stop_reason),
    error: str(end?.error),
    summary: str(end?.summary),
    turns: num(end?.turns) ?? contextTokensPerTurn.length,
    durationMs: num(end?.duration_ms) ?? elapsed(events),
    startedAt: str(start?.time),
    usage: isUsage(end?.usage) ? end.usage : usage,
    costUsd: num(end?.cost_usd) ?? costUsd,
    contextWindow: num(start?.context_window),
    compactionThresholdTokens: num(start?.compaction_threshold_tokens),
    contextTokensPerTurn,
    compactions,
    toolStats: toolStats(turns),
    filesChanged: filesChanged(turns),
    timeline: turns,
    incomplete: end === undefined,
    skippedLines,
    lineCount
  };
}

function threadOf(start: Line | undefined): RunAudit['thread'] {
  const parsed = threadRecord.safeParse(start?.thread);
  return parsed.success
    ? { originalTask: parsed.data.original_task, requests: parsed.data.requests }
    : undefined;
}

/** Pairs assistant messages, tool calls and their results into turns, in the order they happened. */
class TimelineBuilder {
  private readonly byTurn = new Map<
    number,
    { text: string[]; calls: Map<string, AuditToolCall>; meta: Partial<AuditTurn> }
  >();
  private readonly outputs = new Map<string, { output: string; isError: boolean }>();
  private readonly durations = new Map<string, number>();
  private readonly callTurn = new Map<string, number>();
  /** Turns whose response is recorded and whose reply is not yet. */
  private readonly awaitingReply = new Set<number>();
  /** The text of every reply kept, to know a rewritten copy of one. */
  private readonly replies = new Set<string>();

  message(event: Line): void {
    const role = event.role;
    const content = event.content as MessageParam['content'] | undefined;
    if (!Array.isArray(content)) return;
    if (role === 'assistant') {
      if (!this.isReply(num(event.turn) ?? 0, content)) return;
      // An assistant message is recorded after its response, whose turn number it carries.
      const turn = this.entry(num(event.turn) ?? 0);
      for (const block of content) {
        if (block.type === 'text') turn.text.push(block.text);
        if (block.type === 'tool_use') {
          turn.calls.set(block.id, {
            id: block.id,
            name: block.name,
            input: block.input,
            output: undefined,
            isError: false,
            durationMs: undefined
          });
          this.callTurn.set(block.id, num(event.turn) ?? 0);
        }
      }
    } else if (role === 'user') {
      for (const block of content) {
        if (block.type !== 'tool_result') continue;
        const text =
          typeof block.content === 'string'
            ? block.content
            : (block.content ?? []).map((part) => ('text' in part ? part.text : '')).join('\n');
        // Only the first (full) result is kept: later copies are placeholders written by compaction.
        if (!this.outputs.has(block.tool_use_id))
          this.outputs.set(block.tool_use_id, { output: text, isError: block.is_error === true });
      }
    }
  }

  /**
   * The reply is the first assistant message after its turn's response. A compaction records the
   * messages it rewrote again (thinking removed, results cleared) under the turn it ran in: those
   * copies are not new words of that turn. Any other assistant message (the closing summary a limit
   * asks for has no response line) is kept unless it repeats calls or text already shown.
   */
  private isReply(turn: number, content: readonly ContentBlockParam[]): boolean {
    const text = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    const ids = content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    const isCopy =
      ids.length > 0 ? ids.every((id) => this.callTurn.has(id)) : text === '' || this.replies.has(text);
    const isReply = this.awaitingReply.delete(turn) || !isCopy;
    if (isReply) this.replies.add(text);
    return isReply;
  }

  response(event: Line): void {
    const turn = num(event.turn);
    if (turn === undefined) return;
    this.awaitingReply.add(turn);
    const entry = this.entry(turn);
    entry.meta = {
      stopReason: str(event.stop_reason) ?? null,
      contextTokens: num(event.context_tokens),
      costUsd: num(event.cost_usd),
      time: str(event.time)
    };
  }

  toolResult(event: Line): void {
    const id = str(event.tool_use_id);
    if (id && typeof event.duration_ms === 'number') this.durations.set(id, event.duration_ms);
  }

  turns(): AuditTurn[] {
    return [...this.byTurn.entries()]
      .sort(([a], [b]) => a - b)
      .map(([turn, entry]) => ({
        turn,
        text: entry.text.join('\n').trim(),
        toolCalls: [...entry.calls.values()].map((call) => {
          const result = this.outputs.get(call.id);
          return {
            ...call,
            output: result?.output,
            isError: result?.isError ?? false,
            durationMs: this.durations.get(call.id)
          };
        }),
        stopReason: entry.meta.stopReason ?? null,
        contextTokens: entry.meta.contextTokens,
        costUsd: entry.meta.costUsd,
        time: entry.meta.time
      }));
  }

  private entry(turn: number) {
    let entry = this.byTurn.get(turn);
    if (!entry) {
      entry = { text: [], calls: new Map(), meta: {} };
      this.byTurn.set(turn, entry);
    }
    return entry;
  }
}

function toolStats(turns: readonly AuditTurn[]): AuditToolStats[] {
  const stats = new Map<string, { calls: number; failures: number }>();
  for (const call of turns.flatMap((turn) => turn.toolCalls)) {
    const entry = stats.get(call.name) ?? { calls: 0, failures: 0 };
    entry.calls++;
    if (call.isError) entry.failures++;
    stats.set(call.name, entry);
  }
  return [...stats.entries()]
    .map(([name, entry]) => ({ name, ...entry }))
    .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
}

function filesChanged(turns: readonly AuditTurn[]): string[] {
  const files = new Set<string>();
  for (const call of turns.flatMap((turn) => turn.toolCalls)) {
    const path = (call.input as { path?: unknown } | null)?.path;
    if (FILE_WRITERS.has(call.name) && !call.isError && call.output !== undefined && typeof path === 'string')
      files.add(path);
  }
  return [...files].sort();
}

function elapsed(events: readonly Line[]): number | undefined {
  const times = events
    .flatMap((event) => (typeof event.time === 'string' ? [Date.parse(event.time)] : []))
    .filter(Number.isFinite);
  return times.length >= 2 ? times.at(-1)! - times[0]! : undefined;
}

function isUsage(value: unknown): value is UsageRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    ['input', 'cache_write', 'cache_read', 'output'].every(
      (key) => typeof (value as Record<string, unknown>)[key] === 'number'
    )
  );
}

function add(a: UsageRecord, b: UsageRecord): UsageRecord {
  return {
    input: a.input + b.input,
    cache_write: a.cache_write + b.cache_write,
    cache_read: a.cache_read + b.cache_read,
    output: a.output + b.output
  };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
