import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { TokenUsage } from '../model/usage.js';

/** Why the loop is asking: before every model request, or because the model called `compact`. */
export type CompactionTrigger =
  { readonly kind: 'before_request' } | { readonly kind: 'manual'; readonly focus: string | undefined };

export interface CompactionContext {
  readonly turn: number;
  /** Usage of the last response: the measured base for token accounting. */
  readonly lastUsage: TokenUsage | undefined;
}

export type CompactionLayer = 'micro' | 'auto' | 'manual' | 'spill' | 'fallback';

/** One line of compaction-log.jsonl, and one row of the report's compaction table. */
export interface CompactionEvent {
  readonly turn: number;
  readonly layer: CompactionLayer;
  readonly reason: string;
  readonly tokens_before: number;
  readonly tokens_after: number;
  readonly results_cleared: number;
  readonly summary_tokens: number;
  readonly summary_cost_usd: number;
  readonly duration_ms: number;
  readonly segment_path: string | null;
  readonly focus: string | null;
}

export interface CompactionResult {
  readonly history: MessageParam[];
  readonly events: readonly CompactionEvent[];
}

/** The single entry point the loop calls before each request and after a `compact` tool call. */
export interface Compactor {
  compact(
    history: MessageParam[],
    trigger: CompactionTrigger,
    context: CompactionContext
  ): Promise<CompactionResult>;
}

/** Leaves the history as it is: the baseline, and what runs until a strategy is configured. */
export const noCompaction: Compactor = {
  async compact(history) {
    return { history, events: [] };
  }
};
