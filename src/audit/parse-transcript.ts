import { sandboxAudit } from './sandbox-audit.js';
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { COMPACTION_LAYERS } from '../compaction/compaction-count.js';
import type { CompactionEvent } from '../compaction/compactor.js';
import {
  TRANSCRIPT_EVENT_TYPES,
  transcriptEvent,
  unrecordedEvent,
  type TranscriptLine,
  type UsageRecord
} from '../transcript/events.js';
import { lineEnvelope } from '../transcript/line-envelope.js';
import { netFilesChanged } from './net-files.js';
import type { AuditToolCall, AuditToolStats, AuditTurn, RunAudit, SkippedLine } from './run-audit.js';

type Line = TranscriptLine;
type MessageLine = Extract<Line, { type: 'message' }>;
type ResponseLine = Extract<Line, { type: 'response' }>;
type ToolResultLine = Extract<Line, { type: 'tool_result' }>;

const NO_USAGE: UsageRecord = { input: 0, cache_write: 0, cache_read: 0, output: 0 };

/**
 * Reads a transcript into a RunAudit. Each line is checked against the events' schema (events.ts),
 * the one the writer's types come from. A damaged transcript still gives what could be read: bad
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
  const { seq, time, type } = envelope.data;
  const unrecorded = unrecordedEvent.safeParse(value);
  if (unrecorded.success)
    return `the writer could not record this ${quoted(type)} event: ${unrecorded.data.unreadable}`;
  if (!TRANSCRIPT_EVENT_TYPES.has(type)) return `not a transcript event (unknown type ${quoted(type)})`;
  const event = transcriptEvent.safeParse(value);
  if (!event.success) {
    const issue = event.error.issues[0];
    const where = issue ? ` (${issue.path.join('.') || 'the event'}: ${issue.message})` : '';
    // The page counts compactions by layer and draws them by their tokens: never a NaN or a strange layer.
    return type === 'compaction'
      ? `a compaction event with an unknown layer (not ${COMPACTION_LAYERS.join(', ')}) or malformed fields${where}`
      : `a ${type} event with missing or malformed fields${where}`;
  }
  return { ...event.data, seq, time };
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function buildAudit(events: readonly Line[], skippedLines: SkippedLine[], lineCount: number): RunAudit {
  const start = events.find((event) => event.type === 'run_start');
  const end = events.find((event) => event.type === 'run_end');
  const timeline = new TimelineBuilder();
  const compactions: CompactionEvent[] = [];
  const contextTokensPerTurn: Array<{ turn: number; tokens: number }> = [];
  const toolResults: ToolResultLine[] = [];
  let usage = NO_USAGE;
  let costUsd = 0;
  for (const event of events) {
    switch (event.type) {
      case 'message':
        timeline.message(event);
        break;
      case 'response':
        timeline.response(event);
        contextTokensPerTurn.push({ turn: event.turn, tokens: event.context_tokens });
        costUsd = event.total_cost_usd;
        usage = add(usage, event.usage);
        break;
      case 'tool_result':
        timeline.toolResult(event);
        toolResults.push(event);
        break;
      case 'compaction': {
        const { type: _type, seq: _seq, time: _time, ...fields } = event;
        compactions.push(fields);
        break;
      }
    }
  }
  const turns = timeline.turns();
  return {
    runId: start?.run_id,
    task: start?.task,
    thread: start?.thread && {
      originalTask: start.thread.original_task,
      requests: start.thread.requests,
      links: start.thread.links ?? {}
    },
    model: start?.model,
    stopReason: end?.stop_reason,
    error: end?.error ?? undefined,
    summary: end?.summary,
    turns: end?.turns ?? contextTokensPerTurn.length,
    durationMs: end?.duration_ms ?? elapsed(events),
    startedAt: start?.time,
    usage: end?.usage ?? usage,
    costUsd: end?.cost_usd ?? costUsd,
    contextWindow: start?.context_window,
    compactionThresholdTokens: start?.compaction_threshold_tokens,
    contextTokensPerTurn,
    compactions,
    toolStats: toolStats(turns),
    filesChanged: netFilesChanged(turns),
    timeline: turns,
    incomplete: end === undefined,
    sandbox: sandboxAudit(start?.sandbox, toolResults),
    skippedLines,
    lineCount
  };
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
  /** Untagged transcripts only: turns whose response is recorded and whose reply is not yet. */
  private readonly awaitingReply = new Set<number>();
  /** Untagged transcripts only: the text of every reply kept, to know a rewritten copy of one. */
  private readonly replies = new Set<string>();

  /**
   * A message joins the timeline by its tag (events.ts): only the agent's own history (`history:
   * appended`) does; what a compaction or the closing summary wrote again, and what a summary call
   * exchanged (`context`), never does. A message with neither tag was written before the tags were:
   * for those the reader keeps its old guess (legacyMessage).
   */
  message(event: MessageLine): void {
    if (event.context !== undefined) return;
    if (event.history === undefined) return this.legacyMessage(event);
    if (event.history !== 'appended' || !Array.isArray(event.content)) return;
    if (event.role === 'assistant') this.reply(event.turn, event.content);
    if (event.role === 'user') this.results(event.content, { firstOnly: false });
  }

  /**
   * An untagged message (an older transcript). The reply is the first assistant message after its
   * turn's response. A compaction recorded the messages it rewrote again (thinking removed, results
   * cleared) under the turn it ran in: those copies are not new words of that turn. Any other
   * assistant message (the closing summary a limit asks for has no response line) is kept unless it
   * repeats calls or text already shown. Of tool results, the first (full) one is kept: later copies
   * are placeholders written by compaction.
   */
  private legacyMessage(event: MessageLine): void {
    if (!Array.isArray(event.content)) return;
    if (event.role === 'assistant') {
      if (this.isLegacyReply(event.turn, event.content)) this.reply(event.turn, event.content);
    } else if (event.role === 'user') this.results(event.content, { firstOnly: true });
  }

  /** The model's words and calls of a turn; an assistant message is recorded after its response. */
  private reply(turnNumber: number, content: readonly ContentBlockParam[]): void {
    const turn = this.entry(turnNumber);
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
        this.callTurn.set(block.id, turnNumber);
      }
    }
  }

  private results(content: readonly ContentBlockParam[], { firstOnly }: { firstOnly: boolean }): void {
    for (const block of content) {
      if (block.type !== 'tool_result') continue;
      if (firstOnly && this.outputs.has(block.tool_use_id)) continue;
      const text =
        typeof block.content === 'string'
          ? block.content
          : (block.content ?? []).map((part) => ('text' in part ? part.text : '')).join('\n');
      this.outputs.set(block.tool_use_id, { output: text, isError: block.is_error === true });
    }
  }

  private isLegacyReply(turn: number, content: readonly ContentBlockParam[]): boolean {
    const text = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    const ids = content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    const isCopy =
      ids.length > 0 ? ids.every((id) => this.callTurn.has(id)) : text === '' || this.replies.has(text);
    const isReply = this.awaitingReply.delete(turn) || !isCopy;
    if (isReply) this.replies.add(text);
    return isReply;
  }

  response(event: ResponseLine): void {
    this.awaitingReply.add(event.turn);
    this.entry(event.turn).meta = {
      stopReason: event.stop_reason,
      contextTokens: event.context_tokens,
      costUsd: event.cost_usd,
      time: event.time
    };
  }

  toolResult(event: ToolResultLine): void {
    this.durations.set(event.tool_use_id, event.duration_ms);
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

function elapsed(events: readonly Line[]): number | undefined {
  const times = events.map((event) => Date.parse(event.time)).filter(Number.isFinite);
  return times.length >= 2 ? times.at(-1)! - times[0]! : undefined;
}

function add(a: UsageRecord, b: UsageRecord): UsageRecord {
  return {
    input: a.input + b.input,
    cache_write: a.cache_write + b.cache_write,
    cache_read: a.cache_read + b.cache_read,
    output: a.output + b.output
  };
}
