import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * The API's on-demand compaction (beta). Facts (read 2026-11-26):
 * - https://platform.claude.com/docs/en/build-with-claude/compaction: "Use on-demand compaction
 *   wherever it is available"; the returned block goes first in `messages`, in place of the
 *   messages it summarizes.
 * - https://platform.claude.com/docs/en/build-with-claude/compaction-thinking-blocks: the beta
 *   header `compact-2026-09-04`, on the compaction request and on every later request that carries
 *   the block; thinking in kept turns stays valid while the first kept message has the other role,
 *   nothing is added or skipped between the summarized and the kept messages, and `system` and
 *   `tools` never change.
 * - @anthropic-ai/sdk 1.12 type docs: `compaction: {type: "summarize", instructions?}`; the answer
 *   holds only the block (`content`, `encrypted_content`, `signature`), `stop_reason: "compaction"`.
 */
export const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';

/** The block as we keep it in the history and send it back: unchanged, as the API returned it. */
export interface CompactionBlockParam {
  readonly type: 'compaction';
  readonly content: string | null;
  readonly encrypted_content?: string | null;
  readonly signature?: string | null;
  readonly tool_changes?: unknown;
}

/** The request field of an on-demand compaction. */
export interface OnDemandCompaction {
  readonly type: 'summarize';
  /** Replaces the API's own summarization prompt for this request. */
  readonly instructions?: string;
}

/** The SDK's non-beta types do not list the block; it travels in the history as a content block. */
export function asContentBlock(block: CompactionBlockParam): ContentBlockParam {
  return block as unknown as ContentBlockParam;
}

export function compactionBlockOf(block: { readonly type: string }): CompactionBlockParam | undefined {
  return block.type === 'compaction' ? (block as unknown as CompactionBlockParam) : undefined;
}

/** Whether the history opens with a compaction block (then every request needs the beta header). */
export function startsWithCompaction(history: readonly MessageParam[]): boolean {
  const first = history[0];
  if (!first || typeof first.content === 'string') return false;
  const block = first.content[0];
  return block !== undefined && compactionBlockOf(block) !== undefined;
}
