import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ContentBlock, ContentBlockParam, Message } from '@anthropic-ai/sdk/resources/messages';
import { INPUT_DEFAULTS, type AgentConfig } from '../config/inputs.js';
import type { MessagesStreamer } from './messages-streamer.js';
import type { ModelCallHooks, ModelClient, ModelReply, ModelRequest } from './model-client.js';
import { createSdkClient } from './provider-client.js';
import { fromApiUsage } from './usage.js';
import { asContentBlock, compactionBlockOf } from './compaction-block.js';
import { appliedEditsOf } from './context-editing.js';

/** The first-party API by key (tests, the bench): its SDK client is built like the run's, defaults included. */
export interface AnthropicClientOptions extends StreamRetryOptions {
  readonly apiKey: string;
  /** Gateways and our fakes; the SDK reads ANTHROPIC_BASE_URL itself only when this is undefined. */
  readonly baseURL?: string;
  /** Retries the SDK does for HTTP statuses (429, 5xx, 529), honouring retry-after. */
  readonly httpRetries?: number;
}

/** A client already built (model/provider-client.ts builds them all), with its own HTTP retries. */
export interface PrebuiltClientOptions extends StreamRetryOptions {
  readonly client: MessagesStreamer;
}

export interface StreamRetryOptions {
  /** Retries we do for failures the SDK does not retry: an error event or a broken stream mid-way. */
  readonly streamRetries?: number;
  readonly retryBaseDelayMs?: number;
  /** A stream with no event for this long has stalled: it is dropped and tried again. */
  readonly stallTimeoutMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** No event arrived on a stream for too long: retried like an overload. */
export class StreamStalledError extends Error {
  constructor(readonly idleMs: number) {
    super(
      `The response stream stalled: no event for ${idleMs < 10_000 ? (idleMs / 1000).toFixed(1) : Math.round(idleMs / 1000)} s.`
    );
    this.name = 'StreamStalledError';
  }
}

/** The run's model: its provider's SDK client behind our boundary, with the configured retries. */
export function createModelClient(config: AgentConfig): AnthropicModelClient {
  return new AnthropicModelClient({
    client: createSdkClient(config),
    streamRetries: config.apiMaxRetries,
    stallTimeoutMs: config.apiStallTimeoutMs
  });
}

/** The model boundary over @anthropic-ai/sdk, always streaming (long replies would time out otherwise). */
export class AnthropicModelClient implements ModelClient {
  private readonly client: MessagesStreamer;
  private readonly streamRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly stallTimeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: AnthropicClientOptions | PrebuiltClientOptions) {
    this.client =
      'client' in options
        ? options.client
        : createSdkClient({
            provider: { kind: 'anthropic' },
            apiKey: options.apiKey,
            baseURL: options.baseURL,
            apiMaxRetries: options.httpRetries ?? INPUT_DEFAULTS.api_max_retries
          });
    // The action's defaults, so a client built here behaves as the run's does unless told otherwise.
    this.streamRetries = options.streamRetries ?? INPUT_DEFAULTS.api_max_retries;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 1000;
    this.stallTimeoutMs = options.stallTimeoutMs ?? INPUT_DEFAULTS.api_stall_timeout_seconds * 1000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async complete(request: ModelRequest, hooks: ModelCallHooks = {}): Promise<ModelReply> {
    for (let attempt = 1; ; attempt++) {
      try {
        const message = await this.streamOnce(request, hooks.signal);
        return toReply(message);
      } catch (error) {
        if (attempt > this.streamRetries || !isRetryableStreamFailure(error)) throw error;
        hooks.onRetry?.(attempt, error as Error);
        await this.sleep(this.retryBaseDelayMs * 2 ** (attempt - 1));
      }
    }
  }

  /**
   * The beta stream: only it accumulates the `compaction` block (`compaction_delta`). Its answer is
   * read as a Message: our toParam keeps the block, the rest of the shape is the same.
   */
  private betaStream(
    body: Record<string, unknown>,
    extra: {
      compaction?: ModelRequest['compaction'];
      context_management?: ModelRequest['contextManagement'];
    },
    options: { signal: AbortSignal; headers?: Record<string, string> }
  ) {
    const beta = this.client.beta;
    if (!beta) throw new OnDemandCompactionUnavailableError();
    // Our request types are the non-beta SDK's; the beta endpoint takes the same JSON plus the beta
    // fields, and only its stream accumulates `compaction_delta` and `context_management`.
    return beta.messages.stream(
      { ...body, ...extra } as unknown as Parameters<typeof beta.messages.stream>[0],
      options
    );
  }

  /** One streamed attempt, dropped when no event arrives for `stallTimeoutMs` (the API sends pings). */
  private async streamOnce(request: ModelRequest, signal: AbortSignal | undefined): Promise<Message> {
    const stalled = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const rearm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stalled.abort(), this.stallTimeoutMs);
    };
    rearm();
    const body = {
      model: request.model,
      max_tokens: request.maxTokens,
      system: [...request.system],
      tools: [...request.tools],
      messages: [...request.messages],
      ...(request.thinking ? { thinking: request.thinking } : {}),
      ...(request.effort ? { output_config: { effort: request.effort } } : {})
    };
    const options = {
      signal: signal ? AbortSignal.any([signal, stalled.signal]) : stalled.signal,
      ...(request.betas?.length ? { headers: { 'anthropic-beta': request.betas.join(',') } } : {})
    };
    // The two streams share the surface we use; the beta one's message is read as a Message.
    const stream: Pick<ReturnType<MessagesStreamer['messages']['stream']>, 'finalMessage'> & {
      on(event: 'streamEvent', listener: () => void): unknown;
    } =
      request.compaction || request.contextManagement
        ? (this.betaStream(
            body,
            {
              ...(request.compaction ? { compaction: request.compaction } : {}),
              ...(request.contextManagement ? { context_management: request.contextManagement } : {})
            },
            options
          ) as unknown as ReturnType<MessagesStreamer['messages']['stream']>)
        : this.client.messages.stream(body, options);
    stream.on('streamEvent', rearm);
    try {
      return await stream.finalMessage();
    } catch (error) {
      if (stalled.signal.aborted && !signal?.aborted) throw new StreamStalledError(this.stallTimeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The SDK's client without the beta surface (a cloud SDK): on-demand compaction cannot run there. */
export class OnDemandCompactionUnavailableError extends Error {
  constructor() {
    super('On-demand compaction needs the first-party Claude API client; this provider has no beta surface.');
    this.name = 'OnDemandCompactionUnavailableError';
  }
}

/**
 * The SDK retries HTTP statuses before the stream starts. A failure after that (an `error` event such
 * as overloaded_error, or a dropped connection) surfaces as an APIError without a status: ours to retry.
 * Only the final, complete message is returned, so usage is never counted twice.
 */
export function isRetryableStreamFailure(error: unknown): boolean {
  if (error instanceof StreamStalledError) return true;
  // The SDK already retried a connection that failed before the answer began; again would multiply.
  if (error instanceof APIUserAbortError || error instanceof APIConnectionError) return false;
  // A status means the SDK already made its own retries; retrying again would multiply them.
  if (error instanceof APIError) return error.status === undefined && error.type !== 'invalid_request_error';
  // undici reports a socket closed mid-body as a TypeError ("terminated").
  return error instanceof TypeError && /terminated|socket|ECONNRESET/i.test(error.message);
}

/** Keeps only what can be sent back: empty text blocks would make the next request a 400. */
function toReply(message: Message): ModelReply {
  // The beta stream's message carries what context editing did (read as a Message, see betaStream).
  const appliedEdits = appliedEditsOf((message as { context_management?: unknown }).context_management);
  return {
    id: message.id,
    content: message.content.flatMap(toParam),
    stopReason: message.stop_reason,
    usage: fromApiUsage(message.usage),
    ...(appliedEdits ? { appliedEdits } : {})
  };
}

function toParam(block: ContentBlock): ContentBlockParam[] {
  switch (block.type) {
    case 'text':
      return block.text.trim() === '' ? [] : [{ type: 'text', text: block.text }];
    case 'tool_use':
      return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
    case 'thinking':
      return [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
    case 'redacted_thinking':
      return [{ type: 'redacted_thinking', data: block.data }];
    default: {
      // Sent back unchanged, as the API returned it (the non-beta types do not list it).
      const compaction = compactionBlockOf(block);
      return compaction ? [asContentBlock(compaction)] : [];
    }
  }
}
