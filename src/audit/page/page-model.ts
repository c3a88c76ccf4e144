import type { AuditSandbox } from '../sandbox-audit.js';
import { countCompactions, type CompactionCount } from '../../compaction/compaction-count.js';
import type { CompactionEvent } from '../../compaction/compactor.js';
import type { UsageRecord } from '../../transcript/events.js';
import type { AuditToolCall, AuditToolStats, AuditTurn, RunAudit, SkippedLine } from '../run-audit.js';
import type { AuditPageData, PageToolCall } from './client-data.js';
import { buildContextChart, type ContextChart } from './context-chart.js';
import { formatInt } from './format.js';
import { pageLinksOf, type PageLink } from './run-links.js';
import { taskBoxOf, type TaskBox } from './task-box.js';

export interface AuditPageOptions {
  /**
   * Tool inputs and outputs longer than this keep their head and tail in the page (the transcript
   * has them whole), so a long run stays a file a browser opens at once.
   */
  readonly maxOutputChars?: number;
}

export const DEFAULT_MAX_OUTPUT_CHARS = 12_000;
/** Skipped lines listed by number in the warning; the rest are counted. */
const SKIPPED_LISTED = 20;

/** Everything the audit page shows, computed from the parsed transcript; the template only writes markup. */
export interface AuditPageModel {
  readonly title: string;
  /** The thread, the workflow run and the pull request on GitHub, when run_start recorded them. */
  readonly links: readonly PageLink[];
  readonly header: PageHeader;
  readonly warnings: PageWarnings;
  /** The one count of compactions (every event, spills included) the comment and summary show too. */
  readonly compactionCount: CompactionCount;
  readonly compactions: readonly CompactionRow[];
  readonly chart: ContextChart;
  readonly timeline: readonly TimelineEntry[];
  readonly turnCount: number;
  readonly tools: readonly AuditToolStats[];
  readonly filesChanged: readonly string[];
  /** The box and what its proxy refused (undefined: a transcript from before the box). */
  readonly sandbox: AuditSandbox | undefined;
  /** What the page's script needs and the markup leaves out, embedded as JSON. */
  readonly data: AuditPageData;
}

export interface PageHeader {
  readonly model: string | undefined;
  readonly stopReason: string | undefined;
  readonly outcome: 'success' | 'failure' | 'unknown';
  readonly turns: number;
  readonly durationMs: number | undefined;
  readonly costUsd: number;
  readonly startedAt: string | undefined;
  readonly contextWindow: number | undefined;
  readonly thresholdTokens: number | undefined;
  readonly usage: UsageRecord;
  readonly task: TaskBox | undefined;
  readonly error: string | undefined;
  readonly summary: string | undefined;
}

export interface PageWarnings {
  readonly incomplete: boolean;
  readonly lineCount: number;
  readonly skippedTotal: number;
  readonly skippedListed: readonly SkippedLine[];
}

export interface CompactionRow {
  readonly index: number;
  readonly event: CompactionEvent;
  /** The share of the tokens it removed, in percent; undefined when it removed none. */
  readonly savedPercent: number | undefined;
}

export type TimelineEntry =
  | { readonly kind: 'turn'; readonly turn: AuditTurn; readonly index: number }
  | { readonly kind: 'compaction'; readonly row: CompactionRow };

export function buildAuditPageModel(audit: RunAudit, options: AuditPageOptions = {}): AuditPageModel {
  const maxChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const compactions = audit.compactions.map((event, index) => ({
    index,
    event,
    savedPercent: savedPercent(event)
  }));
  const chart = buildContextChart(audit);
  return {
    title: `compact-agent run ${audit.runId ?? '(no run id)'}`,
    links: pageLinksOf(audit),
    header: header(audit),
    warnings: {
      incomplete: audit.incomplete,
      lineCount: audit.lineCount,
      skippedTotal: audit.skippedLines.length,
      skippedListed: audit.skippedLines.slice(0, SKIPPED_LISTED)
    },
    compactionCount: countCompactions(audit.compactions),
    compactions,
    chart,
    timeline: timelineEntries(audit.timeline, compactions),
    turnCount: audit.timeline.length,
    tools: [...audit.toolStats].sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name)),
    filesChanged: audit.filesChanged,
    sandbox: audit.sandbox,
    data: {
      compactions: audit.compactions,
      turns: audit.timeline.map((turn) => ({
        turn: turn.turn,
        calls: turn.toolCalls.map((call) => pageToolCall(call, maxChars))
      })),
      chart: chart.frame
    }
  };
}

function header(audit: RunAudit): PageHeader {
  return {
    model: audit.model,
    stopReason: audit.stopReason,
    outcome:
      audit.stopReason === undefined ? 'unknown' : audit.stopReason === 'success' ? 'success' : 'failure',
    turns: audit.turns,
    durationMs: audit.durationMs,
    costUsd: audit.costUsd,
    startedAt: audit.startedAt,
    contextWindow: audit.contextWindow,
    thresholdTokens: audit.compactionThresholdTokens,
    usage: audit.usage,
    task: taskBoxOf(audit),
    error: audit.error,
    summary: audit.summary
  };
}

function savedPercent(event: CompactionEvent): number | undefined {
  if (event.tokens_before <= 0 || event.tokens_after >= event.tokens_before) return undefined;
  return Math.round((1 - event.tokens_after / event.tokens_before) * 100);
}

/**
 * The turns in order, each compaction right after the turn it followed. One at a turn the timeline
 * lacks (before the first turn, or a turn with no reply) goes before the next turn shown.
 */
function timelineEntries(turns: readonly AuditTurn[], rows: readonly CompactionRow[]): TimelineEntry[] {
  const byTurn = new Map<number, CompactionRow[]>();
  for (const row of rows) byTurn.set(row.event.turn, [...(byTurn.get(row.event.turn) ?? []), row]);
  const shown = new Set(turns.map((turn) => turn.turn));
  const pending = [...byTurn.keys()].filter((turn) => !shown.has(turn)).sort((a, b) => a - b);
  const dividers = (turn: number): TimelineEntry[] =>
    (byTurn.get(turn) ?? []).map((row) => ({ kind: 'compaction', row }));
  const entries: TimelineEntry[] = [];
  turns.forEach((turn, index) => {
    while (pending.length > 0 && pending[0]! < turn.turn) entries.push(...dividers(pending.shift()!));
    entries.push({ kind: 'turn', turn, index }, ...dividers(turn.turn));
  });
  for (const turn of pending) entries.push(...dividers(turn));
  return entries;
}

function pageToolCall(call: AuditToolCall, maxChars: number): PageToolCall {
  return {
    id: call.id,
    name: call.name,
    input: clip(inputText(call), maxChars),
    output: call.output === undefined ? null : clip(call.output, maxChars),
    error: call.isError
  };
}

/** A bash command as the command itself (and its other options below); any other input as JSON. */
function inputText(call: AuditToolCall): string {
  const input = call.input;
  if (typeof input === 'string') return input;
  if (call.name === 'bash' && isRecord(input) && typeof input.command === 'string') {
    const rest = Object.fromEntries(Object.entries(input).filter(([key]) => key !== 'command'));
    return Object.keys(rest).length === 0
      ? input.command
      : `${input.command}\n\n${JSON.stringify(rest, null, 2)}`;
  }
  return JSON.stringify(input, null, 2) ?? '';
}

function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const keep = Math.floor(limit / 2);
  const omitted = text.length - 2 * keep;
  return (
    `${text.slice(0, keep)}\n\n[… ${formatInt(omitted)} characters left out of this report; ` +
    `the transcript has the whole text …]\n\n${text.slice(text.length - keep)}`
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
