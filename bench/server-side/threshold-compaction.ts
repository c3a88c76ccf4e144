import type { MessageParam, ParsedRequest } from '../../test-support/fake-anthropic/index.js';
import { withMessages, type ServerEdit, type ServerTools, type ServerView } from './server-side.js';

/**
 * Compaction at a token threshold, `compact_20260112`, simulated as
 * https://platform.claude.com/docs/en/build-with-claude/compaction-threshold describes it (read
 * 2026-11-26): when the input reaches the trigger (default 150,000 input tokens, minimum 50,000),
 * the API summarizes the conversation in an extra sampling step by the same model, puts the summary
 * in a `compaction` block at the start of the response, and continues the response from the
 * compacted context; on later requests it drops every block before the compaction block. The extra
 * step is billed; the docs' example response reports it in `usage.iterations`, not in the top-level
 * usage (as read by velog.io "Claude compaction 비용은 usage.input_tokens에 잡히지 않는다", 2026-11-26),
 * so the bench bills it as its own summary record.
 *
 * Where the docs are silent, the bench's choices (all here):
 * - The summary step reads the request through the prompt cache like any request (its prefix is
 *   the previous request's), and its output is the summary.
 * - The block is rendered as a user message holding the summary (tokens as the text counts).
 * - The client appends each response as the docs say, so the compaction block is in its history;
 *   here the bench keeps the summary and the index of the response, which is the same request.
 */
export interface ThresholdCompactionSettings {
  readonly triggerTokens: number;
}

export const THRESHOLD_COMPACTION_DEFAULTS: ThresholdCompactionSettings = { triggerTokens: 150_000 };
/** The docs' minimum trigger. */
export const MIN_TRIGGER_TOKENS = 50_000;

export class ThresholdCompaction implements ServerEdit {
  private block: { summary: string; from: number } | undefined;
  compactions = 0;

  constructor(private readonly settings: ThresholdCompactionSettings = THRESHOLD_COMPACTION_DEFAULTS) {
    if (settings.triggerTokens < MIN_TRIGGER_TOKENS)
      throw new Error(
        `compact_20260112 takes a trigger of at least ${MIN_TRIGGER_TOKENS} input tokens; got ${settings.triggerTokens}`
      );
  }

  apply(request: ParsedRequest, tools: ServerTools): ServerView {
    const view = this.render(request);
    if (tools.count(view) < this.settings.triggerTokens) return { request: view, iterations: [], events: [] };
    const summary = tools.summarize(view);
    // The response to this request comes after the block: it is the first message kept next time.
    this.block = { summary, from: request.messages.length };
    this.compactions++;
    return {
      request: this.render(request),
      iterations: [{ prompt: view, summary }],
      events: ['server_compact']
    };
  }

  private render(request: ParsedRequest): ParsedRequest {
    if (!this.block) return request;
    return withMessages(request, [
      summaryMessage(this.block.summary),
      ...request.messages.slice(this.block.from)
    ]);
  }
}

export function summaryMessage(summary: string): MessageParam {
  return { role: 'user', content: [{ type: 'text', text: summary }] };
}
