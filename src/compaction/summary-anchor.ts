import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { SUMMARY_SECTIONS } from './summary.js';

/**
 * Anchored summaries: the summary already in the history is kept word for word, and the next
 * compaction asks the model only for what is new since it, instead of writing it all again.
 *
 * Why: a summary's output is billed at the output price (5x input, 100x a cache read on Sonnet 5.5),
 * and what a summary must carry (decisions, constraints) grows with the run, so rewriting it at
 * every compaction made summaries 4% of the dollars at 1,000 turns (docs/benchmarks/thinking-and-peers.md, "Summaries and
 * the 3% goal"). Keeping the old text costs a cache read per turn instead. The anchor is rewritten
 * whole (consolidated) once the updates have grown it past `ANCHOR_GROWTH` times the last full
 * summary, so stale "current state" lines do not pile up.
 */
export interface SummaryAnchor {
  /** The summary text in the history: the last full summary and the updates after it. */
  readonly text: string;
  readonly tokens: number;
  /** Tokens of the last full summary: the measure of how far updates may grow the anchor. */
  readonly fullTokens: number;
  /** The turn of the last full summary, and the updates since (for the compaction log). */
  readonly fullTurn: number;
  readonly updates: number;
}

/** How big updates may grow the anchor before the next summary is a full one: 1.5x the last full. */
export const ANCHOR_GROWTH = 1.5;

/** Sections an update may use: the task is kept verbatim and the last summary says its intent. */
const UPDATE_SECTIONS = SUMMARY_SECTIONS.filter((name) => name !== 'Task and intent');

/** The instruction for an update of the anchor (the header names the latest compaction, so no number here). */
export function summaryUpdateInstruction(): string {
  return [
    '<compaction-request>',
    'The conversation above is about to be compacted again. The summary in <conversation-summary> is kept word for word:',
    'write only what is new or changed since it, so that the two together are all you need to continue. Reply with text only: do not call tools.',
    `Your update goes under a heading of its own after the kept summary: use these sections, as level-3 markdown headings, and leave out any with nothing new: ${UPDATE_SECTIONS.map((name) => `### ${name}`).join(', ')}.`,
    'Be concrete: file paths, function names, commands and their results, exact error messages, decisions and why.',
    'Keep every new instruction and constraint the user gave, in their words. Do not repeat what the kept summary says.',
    '</compaction-request>'
  ].join('\n');
}

/** Whether the next summary can be an update: the anchor is still in the history and has room to grow. */
export function canUpdateAnchor(
  anchor: SummaryAnchor | undefined,
  history: readonly MessageParam[],
  focus: string | undefined
): anchor is SummaryAnchor {
  if (!anchor || focus !== undefined) return false;
  if (anchor.tokens > ANCHOR_GROWTH * anchor.fullTokens) return false;
  const first = history[0];
  if (!first || typeof first.content === 'string') return false;
  return first.content.some((block) => block.type === 'text' && block.text.includes(anchor.text));
}

/** The anchor after an update: the kept text, then the update under a heading that says what it is. */
export function withUpdate(
  anchor: SummaryAnchor,
  update: string,
  turn: number,
  updateTokens: number
): SummaryAnchor {
  return {
    ...anchor,
    text: [
      anchor.text,
      '',
      `## Update at turn ${turn} (what is new since the summary above; where they differ, this is current)`,
      update
    ].join('\n'),
    tokens: anchor.tokens + updateTokens,
    updates: anchor.updates + 1
  };
}

/** What an update was asked against, for the compaction log. */
export function describeUpdate(anchor: SummaryAnchor): string {
  const since =
    anchor.updates === 0 ? '' : ` and updated ${anchor.updates} time${anchor.updates === 1 ? '' : 's'} since`;
  return `only what is new since the kept summary, written whole at turn ${anchor.fullTurn}${since}`;
}
