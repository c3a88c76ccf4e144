import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelClient, ModelReply } from '../model/model-client.js';
import type { RequestBuilder } from '../model/request-builder.js';

/**
 * Output tokens the closing summary may use. On thinking models max_tokens covers the thinking too,
 * so a small cap (it was 1,024) could be spent before a word of the summary: the run's own cap, up to this.
 */
export const FINAL_SUMMARY_MAX_TOKENS = 8_192;
/** Time the closing summary may take, even after the run's own deadline has passed. */
export const FINAL_SUMMARY_GRACE_MS = 60_000;

export interface FinalSummaryDependencies {
  readonly model: ModelClient;
  readonly requests: RequestBuilder;
  /** Cancellation from outside still stops it. */
  readonly signal: AbortSignal | undefined;
  readonly graceMs?: number;
  readonly onRetry?: (attempt: number, error: Error) => void;
}

export interface FinalSummary {
  /** The user message that asked for it: it joins the history (and the transcript). */
  readonly request: MessageParam;
  readonly reply: ModelReply;
  readonly text: string;
}

/**
 * When a limit stops the run, the model is asked once, with a small budget and no new work, what
 * it did and what is left, so the report can say so. Undefined when the call fails: the run is over.
 * The text may be empty (a model that still tried to call tools); the reply is billed either way.
 */
export async function requestFinalSummary(
  history: readonly MessageParam[],
  why: string,
  deps: FinalSummaryDependencies
): Promise<FinalSummary | undefined> {
  const instruction: TextBlockParam = {
    type: 'text',
    text:
      `<run-stopped>${why} Do not call tools. Reply with a short summary for the people who will review ` +
      'this work: what you changed, what you verified, what is left undone, and the state the files are in.</run-stopped>'
  };
  const last = history.at(-1);
  const request: MessageParam =
    last?.role === 'user'
      ? ({ role: 'user', content: [...asBlocks(last.content), instruction] } as MessageParam)
      : { role: 'user', content: [instruction] };
  const messages = last?.role === 'user' ? [...history.slice(0, -1), request] : [...history, request];
  const grace = new AbortController();
  const timer = setTimeout(() => grace.abort(), deps.graceMs ?? FINAL_SUMMARY_GRACE_MS);
  const signal = deps.signal ? AbortSignal.any([grace.signal, deps.signal]) : grace.signal;
  try {
    const reply = await deps.model.complete(
      deps.requests.build(messages, Math.min(deps.requests.shape.maxTokens, FINAL_SUMMARY_MAX_TOKENS)),
      {
        signal,
        ...(deps.onRetry ? { onRetry: deps.onRetry } : {})
      }
    );
    const text = reply.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n')
      .trim();
    return { request, reply, text };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

function asBlocks(content: MessageParam['content']) {
  return typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
}
