import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { TokenUsage } from '../model/usage.js';

/** Why the loop is asking: before every request, after a `compact` call, or after a prompt-too-long 400. */
export type CompactionTrigger =
  | { readonly kind: 'before_request' }
  | { readonly kind: 'manual'; readonly focus: string | undefined }
  | {
      readonly kind: 'overflow';
      readonly actualTokens: number | undefined;
      /** The API's own limit, which may be lower than the configured window. */
      readonly maximumTokens: number | undefined;
      /** A 400 "prompt is too long" (default), or a reply that stopped with model_context_window_exceeded. */
      readonly cause?: 'prompt_too_long' | 'window_exceeded';
    };

export interface CompactionContext {
  readonly turn: number;
  /** Usage of the last response: the measured base for token accounting. */
  readonly lastUsage: TokenUsage | undefined;
  readonly signal?: AbortSignal;
  /** Told about each failed model call before it is tried again, so the transcript says so. */
  readonly onRetry?: (attempt: number, error: Error) => void;
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
  /** The summary the model wrote (auto and manual layers), for the audit view. */
  readonly summary?: string;
  /** The tool results a micro clear replaced, or the spilled one. */
  readonly tool_use_ids?: readonly string[];
}

/** An event with the fields a layer does not set filled in: nothing cleared, no summary, no segment. */
export function compactionEvent(
  turn: number,
  fields: Partial<CompactionEvent> &
    Pick<CompactionEvent, 'layer' | 'reason' | 'tokens_before' | 'tokens_after'>
): CompactionEvent {
  return {
    turn,
    results_cleared: 0,
    summary_tokens: 0,
    summary_cost_usd: 0,
    duration_ms: 0,
    segment_path: null,
    focus: null,
    ...fields
  };
}

/** A model call a compaction made: what it sent (before cache markers) and what came back. */
export interface CompactionExchange {
  readonly messages: readonly MessageParam[];
  /**
   * The history the request was built from. A layer that ran earlier in the same pass (micro) may
   * have changed a message that the summary then replaces: it was sent only inside this request, so
   * the transcript records it from here.
   */
  readonly history?: readonly MessageParam[];
  readonly reply: readonly ContentBlockParam[] | undefined;
}

export interface CompactionResult {
  readonly history: MessageParam[];
  readonly events: readonly CompactionEvent[];
  /** Summary calls, so the transcript can hold every message sent and received. */
  readonly exchanges?: readonly CompactionExchange[];
  /** Tokens the compaction's own model calls used: billed like any turn. */
  readonly usage?: TokenUsage;
  /** The context the next request is expected to have, by the token meter. */
  readonly estimatedContextTokens?: number;
  /** The earliest message this compaction changed: everything before it is as it was sent. */
  readonly editedFrom?: number;
  /** Thinking blocks removed after the edit point (their signatures covered the old prefix). */
  readonly thinkingBlocksDropped?: number;
}

/** The single entry point the loop calls before each request and after a `compact` tool call. */
export interface Compactor {
  /**
   * The context size past which auto-compaction starts, as it stands now (lowered when the API
   * reports a smaller window); absent for a compactor without one. The report draws it.
   */
  readonly thresholdTokens?: number;
  compact(
    history: MessageParam[],
    trigger: CompactionTrigger,
    context: CompactionContext
  ): Promise<CompactionResult>;
}

/** Leaves the history as it is: the baseline, and what runs when compaction is switched off. */
export const noCompaction: Compactor = {
  async compact(history) {
    return { history, events: [] };
  }
};
