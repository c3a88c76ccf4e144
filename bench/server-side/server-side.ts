import type { MessageParam, ParsedRequest } from '../../test-support/fake-anthropic/index.js';

/**
 * What the API does to a request on the server, after it checked the thinking signatures against
 * the history the client sent and before the model reads it: context editing, threshold compaction,
 * on-demand compaction. The bench's fake receives the client's request as sent (so preserved thinking
 * is checked on the client's own, append-only history, as the docs describe for context editing:
 * "applied server-side before the prompt reaches Claude; your client maintains the full, unmodified
 * conversation history", https://platform.claude.com/docs/en/build-with-claude/context-editing, read
 * 2026-11-26); the bench then shows the model, and bills, the request as edited here.
 */
export interface ServerSide {
  /** The request as the model reads it, and the extra sampling steps the server ran first. */
  view(request: ParsedRequest, tools: ServerTools): ServerView;
}

export interface ServerView {
  readonly request: ParsedRequest;
  /** Summaries the server wrote before answering: each billed like a request on `prompt`. */
  readonly iterations: readonly SummaryIteration[];
  /** What the server did to this request ('clear', 'compact'), for the compaction counts. */
  readonly events: readonly string[];
}

export interface SummaryIteration {
  /** What the summary step read (billed through the prompt cache like any request). */
  readonly prompt: ParsedRequest;
  readonly summary: string;
}

/** What an edit may ask of the bench: token counts, and the scripted model's summary of a request. */
export interface ServerTools {
  readonly count: (request: ParsedRequest) => number;
  readonly countText: (text: string) => number;
  readonly summarize: (request: ParsedRequest) => string;
}

/**
 * One server-side edit; edits apply in the order the request lists them, each to the last one's
 * output. `sent` is the request as the client sent it, before any edit.
 */
export interface ServerEdit {
  apply(request: ParsedRequest, tools: ServerTools, sent: ParsedRequest): ServerView;
}

/** Edits applied in order (e.g. clear_tool_uses, then compact, as `context_management.edits` lists them). */
export function serverSide(...edits: ServerEdit[]): ServerSide {
  return {
    view(request, tools) {
      let current = request;
      const iterations: SummaryIteration[] = [];
      const events: string[] = [];
      for (const edit of edits) {
        const result = edit.apply(current, tools, request);
        current = result.request;
        iterations.push(...result.iterations);
        events.push(...result.events);
      }
      return { request: current, iterations, events };
    }
  };
}

export function withMessages(request: ParsedRequest, messages: MessageParam[]): ParsedRequest {
  return { ...request, messages };
}
