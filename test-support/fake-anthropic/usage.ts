/**
 * The usage model: the one place that decides how a prompt's tokens split into uncached input,
 * cache writes and cache reads. The default bills everything as uncached input; a prompt-cache
 * simulator replaces it through the server's `usageModel` option (it may keep state in a closure:
 * it is called once per answered /v1/messages request, in arrival order, never for faulted ones).
 */
import type { PromptSegment } from './tokens.js';
import type { InputUsage, ParsedRequest } from './types.js';

export interface UsageContext {
  request: ParsedRequest;
  /** The prompt in render order (tools → system → messages) with per-segment token counts and cache_control. */
  segments: readonly PromptSegment[];
  /** Sum of the segments' tokens: the whole context. */
  promptTokens: number;
  callIndex: number;
  /** Milliseconds, from the server's clock option (for cache TTLs). */
  now: number;
}

export type UsageModel = (ctx: UsageContext) => InputUsage;

/** Default: no prompt cache; all of the prompt is uncached input. */
export const noCacheUsage: UsageModel = ({ promptTokens }) => ({
  input_tokens: promptTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0
});
