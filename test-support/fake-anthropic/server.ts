/**
 * A fake Anthropic Messages API on 127.0.0.1: real HTTP, real SSE framing, real validation and
 * real token counts, with scripted model replies and injectable faults. One instance holds all of
 * its state, so several can run at once in one process.
 */
import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorEvent, messageEvents, sseFrame, streamOpening, blockEvents, type SseEvent } from './sse.js';
import { countReplyTokens, renderPrompt, sumTokens, TokenCounter, type PromptSegment } from './tokens.js';
import type {
  AppliedEdit,
  Endpoint,
  Fault,
  FaultSchedule,
  ParsedRequest,
  RecordedRequest,
  RejectionKind,
  ReplyBlock,
  Script,
  ScriptedReply,
  WireContentBlock,
  WireMessage,
  WireUsage
} from './types.js';
import { noCacheUsage, type UsageModel } from './usage.js';
import { errorText, parseRequest } from './validate.js';
import { findModel, MODEL_CATALOGUE, type CatalogueRow } from '../../src/config/model-catalog.js';
import { billedUsd } from './billing.js';
import { betasOf, dropsInvalidBlocks, lookUpModel, modelErrorText, refusedParameter } from './model-rules.js';
import {
  droppedTransformations,
  THINKING_BINDING_BETA,
  ThinkingBinder,
  withoutBlocks,
  type InvalidThinkingBlock
} from './thinking-binding.js';
import { closeLoopback, flattenHeaders, listenOnLoopback } from '../loopback.js';
import {
  checkCompactionBlocks,
  checkCompactionRequest,
  compactionConfig,
  defaultCompactionSummary,
  type CompactionViolation
} from './compaction.js';
import { modelInfo, MODELS_ROUTE } from './models-route.js';
import { ContextEditor, parseContextManagement } from './context-editing.js';

/** The real API's body limit (413 request_too_large above it). */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_CONTEXT_WINDOW = 200_000;

export interface FakeAnthropicOptions {
  /** The model. Default: one text reply, 'Hello from the fake Anthropic API.' */
  script?: Script;
  /** Faults by call, consulted when no queued fault (injectFault) is pending. /v1/messages only. */
  faults?: FaultSchedule;
  /** Tokens per model (default: the catalogue's window, else 200,000); over it → 400 prompt is too long. */
  contextWindow?: number | ((model: string) => number);
  /** Splits prompt tokens into uncached / cache write / cache read. Default: no cache. */
  usageModel?: UsageModel;
  /** Share one memo between servers (e.g. a benchmark starting many); default: one per server. */
  tokenCounter?: TokenCounter;
  /** Only this key is accepted when set; by default any non-empty key is. */
  apiKey?: string;
  maxBodyBytes?: number;
  /** Keep request bodies in `requests` (default true). Turn off for long runs: a 150k-token body is ~600 KB. */
  recordBodies?: boolean;
  /**
   * Calls (callIndex) answered with stop_reason model_context_window_exceeded: the script's reply
   * with its tool calls removed (partial content). The call is consumed like any other.
   */
  contextWindowExceededAt?: number | readonly number[];
  /** Clock handed to the usage model (cache TTLs). Default Date.now. */
  clock?: () => number;
  /**
   * The summary of an on-demand compaction request (`compaction: {type: "summarize"}`). Compaction
   * requests do not consume a script call. Default: defaultCompactionSummary (compaction.ts).
   */
  compactionSummary?: (request: ParsedRequest, instructions: string | undefined) => string;
  port?: number;
}

export interface FakeAnthropic {
  /** Base URL for the SDK's `baseURL`, e.g. http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Every request in arrival order, with what was answered. */
  readonly requests: readonly RecordedRequest[];
  /** Script calls consumed so far (the next call's callIndex). */
  readonly callCount: number;
  /** The sum of every answered message's `billedUsd` (the bill at the catalogue's prices). */
  readonly totalBilledUsd: number;
  readonly tokenCounter: TokenCounter;
  /** Queue a fault for the next `times` (default 1) /v1/messages requests that pass validation. */
  injectFault(fault: Fault, times?: number): void;
  close(): Promise<void>;
}

/** A request on its way to the script: as sent (what signatures bind to) and as the model sees it. */
interface AnsweredRequest {
  row: CatalogueRow;
  sent: ParsedRequest;
  seen: ParsedRequest;
  /** The anthropic-beta header named thinking-binding-controls: the answer lists input_transformations. */
  reportTransformations: boolean;
  dropped: readonly InvalidThinkingBlock[];
  /** What context editing did to the request (context-editing.ts), reported in the answer. */
  appliedEdits?: AppliedEdit[];
}

const MODEL_IDS = MODEL_CATALOGUE.map((row) => row.id);

const defaultScript: Script = () => ({
  content: [{ type: 'text', text: 'Hello from the fake Anthropic API.' }]
});

const ROUTES: Readonly<Record<string, Endpoint>> = {
  '/v1/messages': 'messages',
  '/v1/messages/count_tokens': 'count_tokens'
};

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error'
};

const DEFAULT_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  overloaded_error: 'Overloaded',
  rate_limit_error: 'Number of requests has exceeded your rate limit. Please try again later.',
  api_error: 'Internal server error',
  timeout_error: 'Request timed out',
  permission_error: 'Your API key does not have permission to use the specified resource.'
};

export function errorTypeForStatus(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function base62(length: number): string {
  return Array.from(randomBytes(length), (b) => BASE62[b % 62]).join('');
}
export const newMessageId = (): string => `msg_01${base62(22)}`;
export const newToolUseId = (): string => `toolu_01${base62(22)}`;
export const newRequestId = (): string => `req_011C${base62(20)}`;

type BodyRead = { kind: 'ok'; text: string } | { kind: 'too_large' } | { kind: 'aborted' };

/** Reads the whole body; past the limit it keeps draining (answering early would break the client's upload). */
function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (tooLarge) chunks.length = 0;
      else chunks.push(chunk);
    });
    req.on('end', () =>
      resolve(tooLarge ? { kind: 'too_large' } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') })
    );
    req.on('close', () => resolve({ kind: 'aborted' }));
    req.on('error', () => resolve({ kind: 'aborted' }));
  });
}

function apiKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const key = headers['x-api-key'];
  if (typeof key === 'string' && key !== '') return key;
  const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

function defaultStopReason(reply: ScriptedReply): WireMessage['stop_reason'] {
  return reply.stop_reason ?? (reply.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function toWireBlocks(reply: ScriptedReply): WireContentBlock[] {
  return reply.content.map((block): WireContentBlock => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text, citations: null };
      case 'tool_use':
        return {
          type: 'tool_use',
          id: block.id ?? newToolUseId(),
          name: block.name,
          // A call cut short has no complete input; the stream carries the partial JSON.
          input: block.inputJsonCutAt === undefined ? block.input : {},
          caller: { type: 'direct' }
        };
      case 'thinking':
        // Unsigned blocks are signed by the ThinkingBinder once the whole reply is known.
        return { type: 'thinking', thinking: block.thinking, signature: block.signature ?? '' };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: block.data ?? '' };
    }
  });
}

/** Tool calls cut short (max_tokens inside the call): block index → the JSON text streamed. */
function partialToolJson(content: readonly ReplyBlock[]): Map<number, string> {
  const partial = new Map<number, string>();
  content.forEach((block, index) => {
    if (block.type === 'tool_use' && block.inputJsonCutAt !== undefined)
      partial.set(index, JSON.stringify(block.input).slice(0, block.inputJsonCutAt));
  });
  return partial;
}

/**
 * `contextWindowExceededAt`: the scripted reply, cut where the window ran out: text and thinking
 * are kept, tool calls (which would need the room to finish) are not.
 */
function exceedContextWindow(reply: ScriptedReply): ScriptedReply {
  return {
    content: reply.content.filter((block) => block.type !== 'tool_use'),
    stop_reason: 'model_context_window_exceeded'
  };
}

/** The reply blocks the fake signs (index → the text to bind): thinking without a signature, redacted without data. */
function unsignedBlocks(content: readonly ReplyBlock[]): Map<number, string> {
  const unsigned = new Map<number, string>();
  content.forEach((block, index) => {
    if (block.type === 'thinking' && block.signature === undefined) unsigned.set(index, block.thinking);
    if (block.type === 'redacted_thinking' && block.data === undefined)
      unsigned.set(index, block.thinking ?? '');
  });
  return unsigned;
}

/** A script written in plain JS could return anything; fail loudly (as a 500) rather than stream garbage. */
function checkReply(reply: unknown): asserts reply is ScriptedReply {
  const content: unknown =
    typeof reply === 'object' && reply !== null && 'content' in reply ? reply.content : undefined;
  if (!Array.isArray(content)) throw new Error('script reply must be { content: ReplyBlock[] }');
  for (const block of content as unknown[]) {
    const type: unknown =
      typeof block === 'object' && block !== null && 'type' in block ? block.type : undefined;
    if (type !== 'text' && type !== 'tool_use' && type !== 'thinking' && type !== 'redacted_thinking') {
      throw new Error(`script reply block has unsupported type ${JSON.stringify(type)}`);
    }
  }
}

class FakeAnthropicServer implements FakeAnthropic {
  readonly tokenCounter: TokenCounter;
  private readonly records: RecordedRequest[] = [];
  private readonly queue: Fault[] = [];
  private readonly closing = new AbortController();
  private readonly ownsCounter: boolean;
  private readonly binder = new ThinkingBinder();
  private readonly contextEditor = new ContextEditor();
  private calls = 0;
  /** Requests that reached the fault stage since the last consumed call (retries of one call). */
  private attempts = 0;
  private seq = 0;
  private address: AddressInfo | undefined;

  constructor(
    private readonly server: Server,
    private readonly options: FakeAnthropicOptions
  ) {
    this.ownsCounter = options.tokenCounter === undefined;
    this.tokenCounter = options.tokenCounter ?? new TokenCounter();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((error: unknown) => this.internalError(res, error));
    });
  }

  async listen(): Promise<void> {
    this.address = await listenOnLoopback(this.server, this.options.port);
  }

  get port(): number {
    if (!this.address) throw new Error('fake Anthropic server is not listening');
    return this.address.port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get requests(): readonly RecordedRequest[] {
    return this.records;
  }

  get callCount(): number {
    return this.calls;
  }

  get totalBilledUsd(): number {
    return this.records.reduce(
      (total, record) => total + (record.response?.kind === 'message' ? record.response.billedUsd : 0),
      0
    );
  }

  injectFault(fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.queue.push(fault);
  }

  async close(): Promise<void> {
    this.closing.abort();
    await closeLoopback(this.server);
    if (this.ownsCounter) this.tokenCounter.dispose();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record: RecordedRequest = {
      seq: this.seq++,
      method: req.method ?? '',
      path: url.pathname,
      headers: flattenHeaders(req.headers),
      body: undefined,
      callIndex: null,
      faulted: false
    };
    this.records.push(record);

    const read = await readBody(req, this.options.maxBodyBytes ?? MAX_BODY_BYTES);
    if (read.kind === 'aborted') return;
    const modelsPath = req.method === 'GET' ? MODELS_ROUTE.exec(url.pathname) : null;
    if (modelsPath) return this.answerModels(req, res, record, modelsPath[1]);
    const endpoint = req.method === 'POST' ? ROUTES[url.pathname] : undefined;
    if (endpoint === undefined)
      return this.reject(res, record, 404, 'not_found_error', 'not_found', 'Not Found');

    const key = apiKeyOf(req.headers);
    if (key === undefined)
      return this.reject(
        res,
        record,
        401,
        'authentication_error',
        'authentication',
        'x-api-key header is required'
      );
    if (this.options.apiKey !== undefined && key !== this.options.apiKey) {
      return this.reject(res, record, 401, 'authentication_error', 'authentication', 'invalid x-api-key');
    }
    if (read.kind === 'too_large') return this.sendTooLarge(res, record);

    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      return this.reject(
        res,
        record,
        400,
        'invalid_request_error',
        'invalid_request',
        'There was an error parsing the body of your request: invalid JSON'
      );
    }
    if (this.options.recordBodies !== false) record.body = body;

    // Validation counts the prompt (prompt too long); keep the segments for the usage model.
    let segments: PromptSegment[] | undefined;
    const promptSegments = (request: ParsedRequest): PromptSegment[] =>
      (segments ??= renderPrompt(request, this.tokenCounter));
    const parsed = parseRequest(body, {
      endpoint,
      anthropicVersion: record.headers['anthropic-version'],
      contextWindow: (model) => this.windowOf(model),
      countPromptTokens: (request) => sumTokens(promptSegments(request))
    });
    if (!parsed.ok) {
      const kind = parsed.message.startsWith('prompt is too long') ? 'prompt_too_long' : 'invalid_request';
      return this.reject(res, record, 400, 'invalid_request_error', kind, parsed.message);
    }
    const request = parsed.request;
    if (this.options.recordBodies !== false) record.request = request;

    const found = lookUpModel(request.model);
    if ('violation' in found) return this.rejectWith(res, record, found.violation);
    if (endpoint === 'count_tokens') {
      const inputTokens = sumTokens(promptSegments(request));
      record.response = { kind: 'count_tokens', status: 200, input_tokens: inputTokens };
      return this.sendJson(res, 200, { input_tokens: inputTokens });
    }
    const betas = betasOf(record.headers['anthropic-beta']);
    const compactionRefusal =
      checkCompactionRequest(request, betas) ??
      checkCompactionBlocks(request, betas, (block) => this.binder.verifyCompaction(block));
    if (compactionRefusal) return this.rejectCompaction(res, record, compactionRefusal);
    const refusal = refusedParameter(request, found.row, betas);
    if (refusal) return this.rejectWith(res, record, refusal);

    const bound = this.bindThinking(request, found.row, betas);
    if ('rejection' in bound)
      return this.reject(res, record, 400, 'invalid_request_error', 'thinking_binding', bound.rejection);
    if (bound.dropped.length > 0) record.droppedThinking = droppedTransformations(bound.dropped);
    const contextManagement = parseContextManagement(request, betas);
    if (contextManagement && 'refusal' in contextManagement)
      return this.reject(
        res,
        record,
        400,
        'invalid_request_error',
        'invalid_request',
        contextManagement.refusal
      );
    if (contextManagement) {
      // Applied after the signatures were checked on the history as sent (context-editing.ts).
      const edited = this.contextEditor.apply(bound.seen, contextManagement.edits, {
        count: (seen) => sumTokens(renderPrompt(seen, this.tokenCounter)),
        countText: (text) => this.tokenCounter.count(text)
      });
      bound.seen = edited.seen;
      bound.appliedEdits = edited.applied;
      record.appliedEdits = edited.applied;
      const maximum = this.windowOf(request.model);
      const seenTokens = sumTokens(renderPrompt(bound.seen, this.tokenCounter));
      if (seenTokens > maximum)
        return this.reject(
          res,
          record,
          400,
          'invalid_request_error',
          'prompt_too_long',
          errorText.promptTooLong(seenTokens, maximum)
        );
    }
    const seenSegments =
      bound.dropped.length > 0 || contextManagement
        ? renderPrompt(bound.seen, this.tokenCounter)
        : promptSegments(request);
    const compaction = compactionConfig(request);
    if (compaction) return this.answerCompaction(res, record, bound, seenSegments, compaction.instructions);
    return this.answerMessages(req, res, record, bound, seenSegments);
  }

  /** The context window the fake enforces for a model (the option, else the catalogue's). */
  private windowOf(model: string): number {
    const window = this.options.contextWindow;
    if (typeof window === 'number') return window;
    return window ? window(model) : (findModel(model)?.contextWindow ?? DEFAULT_CONTEXT_WINDOW);
  }

  /** GET /v1/models and /v1/models/{id}: the catalogue's rows, with the compaction capability. */
  private answerModels(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedRequest,
    id: string | undefined
  ): void {
    if (apiKeyOf(req.headers) === undefined)
      return this.reject(
        res,
        record,
        401,
        'authentication_error',
        'authentication',
        'x-api-key header is required'
      );
    if (id === undefined) {
      const data = MODEL_IDS.map(modelInfo);
      return this.sendJson(res, 200, {
        data,
        has_more: false,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null
      });
    }
    const found = lookUpModel(decodeURIComponent(id));
    if ('violation' in found) return this.rejectWith(res, record, found.violation);
    return this.sendJson(res, 200, modelInfo(found.row.id));
  }

  /**
   * An on-demand compaction: one compaction block (readable summary + signature), stop_reason
   * "compaction", no reply and no script call. Usage: see COMPACTION_USAGE_CHOICE (compaction.ts).
   */
  private async answerCompaction(
    res: ServerResponse,
    record: RecordedRequest,
    answering: AnsweredRequest,
    segments: PromptSegment[],
    instructions: string | undefined
  ): Promise<void> {
    const request = answering.seen;
    const summary = (this.options.compactionSummary ?? defaultCompactionSummary)(request, instructions);
    const block: WireContentBlock = {
      type: 'compaction',
      content: summary,
      encrypted_content: null,
      signature: this.binder.signCompaction(answering.sent, summary)
    };
    const usage = this.wireUsage(request, segments, this.calls, this.tokenCounter.count(summary));
    const message = this.message(request, [block], 'compaction', usage);
    record.compaction = { summary, summarizedMessages: request.messages.length };
    record.response = {
      kind: 'message',
      status: 200,
      stream: request.stream,
      message,
      usage,
      billedUsd: billedUsd(usage, answering.row)
    };
    if (request.stream) await this.writeStream(res, messageEvents(message), 0);
    else this.sendJson(res, 200, message);
  }

  private rejectCompaction(res: ServerResponse, record: RecordedRequest, refusal: CompactionViolation): void {
    record.rejected = { kind: refusal.kind, message: refusal.message };
    this.sendError(
      res,
      record,
      refusal.status,
      refusal.errorType,
      refusal.message,
      {},
      refusal.errorCode ? { error_code: refusal.errorCode } : undefined
    );
  }

  /**
   * Preserved thinking (rows that bind only): the first replayed block that fails its prefix is a
   * 400, unless drop_block is on (with its beta); another model's blocks are dropped without an error.
   */
  private bindThinking(
    request: ParsedRequest,
    row: CatalogueRow,
    betas: readonly string[]
  ): AnsweredRequest | { rejection: string } {
    const invalid = row.thinking.boundToConversation ? this.binder.verify(request) : [];
    const firstPrefixMismatch = invalid.find((block) => block.reason === 'prefix_binding_mismatch');
    if (firstPrefixMismatch && !dropsInvalidBlocks(request, betas)) {
      return {
        rejection: modelErrorText.thinkingBinding(
          firstPrefixMismatch.messageIndex,
          firstPrefixMismatch.blockIndex
        )
      };
    }
    return {
      row,
      sent: request,
      seen: withoutBlocks(request, invalid),
      reportTransformations: betas.includes(THINKING_BINDING_BETA),
      dropped: invalid
    };
  }

  private async answerMessages(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedRequest,
    answering: AnsweredRequest,
    segments: PromptSegment[]
  ): Promise<void> {
    // The script and the usage model see what the model sees (dropped thinking blocks removed).
    const request = answering.seen;
    const callIndex = this.calls;
    const fault =
      this.queue.shift() ??
      this.options.faults?.(callIndex, request, { attempt: this.attempts, seq: record.seq });
    this.attempts++;
    if (fault) record.fault = fault;
    if (fault && fault.kind !== 'slow_stream') {
      record.faulted = true;
      return this.answerFault(req, res, record, request, segments, fault);
    }

    // Reserve the call index now so an overlapping request cannot take it while the script runs.
    this.calls++;
    let reply: ScriptedReply;
    try {
      const result: unknown = await (this.options.script ?? defaultScript)(request, { callIndex });
      checkReply(result);
      const exceededAt = this.options.contextWindowExceededAt;
      const exceeded = Array.isArray(exceededAt) ? exceededAt.includes(callIndex) : exceededAt === callIndex;
      reply = exceeded ? exceedContextWindow(result) : result;
    } catch (error) {
      if (this.calls === callIndex + 1) this.calls = callIndex;
      record.scriptError = error;
      const message = error instanceof Error ? error.message : String(error);
      // Not retryable: a throwing script would throw again, and the test should see its message at once.
      return this.sendError(res, record, 500, 'api_error', message, { 'x-should-retry': 'false' });
    }
    this.attempts = 0;
    record.callIndex = callIndex;

    const content = this.binder.signReply(answering.sent, toWireBlocks(reply), unsignedBlocks(reply.content));
    const usage = this.wireUsage(request, segments, callIndex, countReplyTokens(content, this.tokenCounter));
    const message = this.message(request, content, defaultStopReason(reply), usage);
    if (message.stop_reason === 'refusal')
      message.stop_details = { type: 'refusal', category: reply.refusalCategory ?? null, explanation: null };
    if (answering.reportTransformations)
      message.input_transformations = droppedTransformations(answering.dropped);
    if (answering.appliedEdits) message.context_management = { applied_edits: answering.appliedEdits };
    record.response = {
      kind: 'message',
      status: 200,
      stream: request.stream,
      message,
      usage,
      billedUsd: billedUsd(usage, answering.row)
    };
    const delayMs = fault?.kind === 'slow_stream' ? fault.delayMs : 0;
    if (request.stream) {
      await this.writeStream(res, messageEvents(message, partialToolJson(reply.content)), delayMs);
    } else {
      if (delayMs > 0 && !(await this.pause(res, delayMs))) return;
      this.sendJson(res, 200, message);
    }
  }

  private async answerFault(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedRequest,
    request: ParsedRequest,
    segments: PromptSegment[],
    fault: Exclude<Fault, { kind: 'slow_stream' }>
  ): Promise<void> {
    switch (fault.kind) {
      case 'status': {
        const errorType = fault.errorType ?? errorTypeForStatus(fault.status);
        const headers: Record<string, string> = {};
        if (fault.retryAfterMs !== undefined) {
          headers['retry-after-ms'] = String(fault.retryAfterMs);
          headers['retry-after'] = String(Math.ceil(fault.retryAfterMs / 1000));
        }
        if (fault.shouldRetry !== undefined) headers['x-should-retry'] = String(fault.shouldRetry);
        const message = fault.message ?? DEFAULT_ERROR_MESSAGES[errorType] ?? `Error ${fault.status}`;
        return this.sendError(res, record, fault.status, errorType, message, headers);
      }
      case 'reset':
        record.response = { kind: 'reset' };
        req.socket.resetAndDestroy();
        return;
      case 'overloaded_mid_stream': {
        if (!request.stream) return this.sendError(res, record, 529, 'overloaded_error', 'Overloaded');
        // Filler output, not the script's: a faulted request must not consume (or peek at) a script call.
        const blocks = Array.from({ length: fault.afterBlocks ?? 0 }, (_, i): WireContentBlock => ({
          type: 'text',
          text: `Partial output ${i + 1} before the overload.`,
          citations: null
        }));
        const promptTokens = sumTokens(segments);
        const usage: WireUsage = {
          ...noCacheUsage({ request, segments, promptTokens, callIndex: this.calls, now: Date.now() }),
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
          output_tokens: countReplyTokens(blocks, this.tokenCounter),
          service_tier: 'standard'
        };
        const message = this.message(request, blocks, 'end_turn', usage);
        record.response = {
          kind: 'stream_error',
          status: 200,
          errorType: 'overloaded_error',
          message: 'Overloaded',
          blocksSent: blocks.length,
          usage
        };
        const events: SseEvent[] = [
          ...streamOpening(message),
          ...blocks.flatMap((block, index) => blockEvents(block, index)),
          errorEvent('overloaded_error', 'Overloaded')
        ];
        return this.writeStream(res, events, 0);
      }
    }
  }

  /** The usage the usage model gives for this prompt, in the wire's shape. */
  private wireUsage(
    request: ParsedRequest,
    segments: readonly PromptSegment[],
    callIndex: number,
    outputTokens: number
  ): WireUsage {
    const input = (this.options.usageModel ?? noCacheUsage)({
      request,
      segments,
      promptTokens: sumTokens(segments),
      callIndex,
      now: (this.options.clock ?? Date.now)()
    });
    return {
      input_tokens: input.input_tokens,
      cache_creation_input_tokens: input.cache_creation_input_tokens,
      cache_read_input_tokens: input.cache_read_input_tokens,
      // Older usage models give only the total: all of it is a 5-minute write (the default TTL).
      cache_creation: input.cache_creation ?? {
        ephemeral_5m_input_tokens: input.cache_creation_input_tokens,
        ephemeral_1h_input_tokens: 0
      },
      output_tokens: outputTokens,
      service_tier: 'standard'
    };
  }

  private message(
    request: ParsedRequest,
    content: WireContentBlock[],
    stopReason: WireMessage['stop_reason'],
    usage: WireUsage
  ): WireMessage {
    return {
      id: newMessageId(),
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage
    };
  }

  /** Waits, unless the client or the server goes away first; returns whether to go on. */
  private async pause(res: ServerResponse, ms: number): Promise<boolean> {
    try {
      await sleep(ms, undefined, { signal: this.closing.signal });
    } catch {
      return false;
    }
    return !res.destroyed;
  }

  private async writeStream(res: ServerResponse, events: SseEvent[], delayMs: number): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': newRequestId()
    });
    res.flushHeaders();
    for (const [i, event] of events.entries()) {
      if (i > 0 && delayMs > 0 && !(await this.pause(res, delayMs))) return;
      if (res.destroyed) return;
      res.write(sseFrame(event));
    }
    res.end();
  }

  private sendJson(
    res: ServerResponse,
    status: number,
    payload: unknown,
    headers: Record<string, string> = {}
  ): void {
    const body = JSON.stringify(payload);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'request-id': newRequestId(),
      ...headers
    });
    res.end(body);
  }

  /** A refusal by the fake's own rules (not a fault): recorded with its kind so tests can count them. */
  private reject(
    res: ServerResponse,
    record: RecordedRequest,
    status: number,
    errorType: string,
    kind: RejectionKind,
    message: string
  ): void {
    record.rejected = { kind, message };
    this.sendError(res, record, status, errorType, message);
  }

  private rejectWith(
    res: ServerResponse,
    record: RecordedRequest,
    violation: { status: number; errorType: string; kind: RejectionKind; message: string }
  ): void {
    this.reject(res, record, violation.status, violation.errorType, violation.kind, violation.message);
  }

  private sendError(
    res: ServerResponse,
    record: RecordedRequest,
    status: number,
    errorType: string,
    message: string,
    headers: Record<string, string> = {},
    details?: { error_code: string }
  ): void {
    record.response = { kind: 'error', status, errorType, message };
    const requestId = newRequestId();
    // Like the real API: client errors are final (the SDK would not retry them anyway, except 408/409/429).
    const final =
      status >= 400 && status < 500 && ![408, 409, 429].includes(status) ? { 'x-should-retry': 'false' } : {};
    const body = JSON.stringify({
      type: 'error',
      error: { type: errorType, message, ...(details ? { details } : {}) },
      request_id: requestId
    });
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'request-id': requestId,
      ...final,
      ...headers
    });
    res.end(body);
  }

  /** The real 413 comes from the edge, before the API: a bare body without `type` or `request_id`. */
  private sendTooLarge(res: ServerResponse, record: RecordedRequest): void {
    const message = 'Request exceeds the maximum size';
    record.response = { kind: 'error', status: 413, errorType: 'request_too_large', message };
    record.rejected = { kind: 'too_large', message };
    const body = JSON.stringify({ error: { type: 'request_too_large', message } });
    res.writeHead(413, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body))
    });
    res.end(body);
  }

  private internalError(res: ServerResponse, error: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const message = `fake Anthropic server bug: ${error instanceof Error ? error.message : String(error)}`;
    const body = JSON.stringify({
      type: 'error',
      error: { type: 'api_error', message },
      request_id: newRequestId()
    });
    res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
    res.end(body);
  }
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const fake = new FakeAnthropicServer(createServer(), options);
  await fake.listen();
  return fake;
}
