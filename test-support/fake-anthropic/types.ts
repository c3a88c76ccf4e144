/**
 * Wire types of the fake Anthropic Messages API.
 *
 * These are our own (narrower) view of the request body, produced by `parseRequest` in
 * validate.ts after the body has passed validation, so the script, the token counter and the
 * usage model can rely on them. The reply side mirrors what the real API sends.
 */

export type JsonObject = { [key: string]: unknown };

/** One entry of a response's `context_management.applied_edits` (context-editing.ts). */
export type AppliedEdit =
  | { type: 'clear_tool_uses_20250919'; cleared_tool_uses: number; cleared_input_tokens: number }
  | { type: 'clear_thinking_20251015'; cleared_thinking_turns: number; cleared_input_tokens: number };

export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface TextBlockParam {
  type: 'text';
  text: string;
  cache_control?: CacheControl | null;
  citations?: unknown;
}

export interface ToolUseBlockParam {
  type: 'tool_use';
  id: string;
  name: string;
  input: JsonObject;
  cache_control?: CacheControl | null;
  caller?: unknown;
}

/** Block types a tool_result may carry besides text; accepted and counted as JSON. */
export type OtherToolResultContentType =
  'image' | 'search_result' | 'document' | 'tool_reference' | 'browser_state';

export interface OtherToolResultContentBlock {
  type: OtherToolResultContentType;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

export type ToolResultContentBlock = TextBlockParam | OtherToolResultContentBlock;

export interface ToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | ToolResultContentBlock[];
  is_error?: boolean;
  cache_control?: CacheControl | null;
}

export interface ThinkingBlockParam {
  type: 'thinking';
  thinking: string;
  signature: string;
  cache_control?: CacheControl | null;
}

export interface RedactedThinkingBlockParam {
  type: 'redacted_thinking';
  data: string;
  cache_control?: CacheControl | null;
}

/** Message block types the fake accepts without looking inside (beyond `type`). */
export type OtherBlockType =
  | 'image'
  | 'document'
  | 'search_result'
  | 'server_tool_use'
  | 'web_search_tool_result'
  | 'web_fetch_tool_result'
  | 'code_execution_tool_result'
  | 'bash_code_execution_tool_result'
  | 'text_editor_code_execution_tool_result'
  | 'tool_search_tool_result'
  | 'container_upload';

export interface OtherBlockParam {
  type: OtherBlockType;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

/**
 * A `compaction` block sent back first in `messages` (SDK 1.12 BetaCompactionBlockParam): the
 * readable summary and the signature the fake wrote, both to be returned unchanged.
 */
export interface CompactionBlockParam {
  type: 'compaction';
  content?: string | null;
  encrypted_content?: string | null;
  signature?: string | null;
  tool_changes?: unknown;
  cache_control?: CacheControl | null;
}

export type ContentBlockParam =
  | TextBlockParam
  | CompactionBlockParam
  | ToolUseBlockParam
  | ToolResultBlockParam
  | ThinkingBlockParam
  | RedactedThinkingBlockParam
  | OtherBlockParam;

export type Role = 'user' | 'assistant';

export interface MessageParam {
  role: Role;
  content: string | ContentBlockParam[];
}

export interface ToolParam {
  name: string;
  /** Absent or 'custom' for client tools; a versioned string (e.g. 'bash_20250124') for Anthropic-defined tools. */
  type?: string | null;
  description?: string;
  input_schema?: JsonObject;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

export type Endpoint = 'messages' | 'count_tokens';

/** A request body that passed validation. */
export interface ParsedRequest {
  endpoint: Endpoint;
  model: string;
  /** Present on /v1/messages (required there), absent on count_tokens. */
  max_tokens?: number;
  stream: boolean;
  system?: string | TextBlockParam[];
  messages: MessageParam[];
  tools?: ToolParam[];
  /** The whole body as received, for fields this view does not model (tool_choice, thinking, ...). */
  raw: Readonly<JsonObject>;
}

// ---------------------------------------------------------------------------------------------
// Replies

export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded'
  /** On-demand compaction: the answer holds only the compaction block. */
  | 'compaction';

/** What a script returns: the model's content; ids and usage are filled in by the server. */
export type ReplyBlock =
  | { type: 'text'; text: string }
  | {
      type: 'tool_use';
      name: string;
      input: JsonObject;
      id?: string;
      /**
       * Stream only the first N characters of the input JSON (max_tokens in the middle of the call).
       * The non-streaming answer then carries `input: {}` (a guess: the real body is not documented).
       */
      inputJsonCutAt?: number;
    }
  | { type: 'thinking'; thinking: string; signature?: string }
  /** `thinking` is the hidden text the fake binds into `data`; a given `data` is sent as is. */
  | { type: 'redacted_thinking'; thinking?: string; data?: string };

export interface ScriptedReply {
  content: ReplyBlock[];
  /** Default: 'tool_use' when any tool_use block is present, else 'end_turn'. */
  stop_reason?: StopReason;
  /** With stop_reason 'refusal': the policy category of stop_details (default null). */
  refusalCategory?: RefusalStopDetails['category'];
}

/** stop_details of a refusal (the SDK's RefusalStopDetails). */
export interface RefusalStopDetails {
  type: 'refusal';
  category: 'cyber' | 'bio' | 'frontier_llm' | 'reasoning_extraction' | 'general_harms' | null;
  explanation: string | null;
}

export interface ScriptContext {
  /** Index of this model call: advances only when a scripted reply is actually sent. */
  callIndex: number;
}

export type Script = (request: ParsedRequest, ctx: ScriptContext) => ScriptedReply | Promise<ScriptedReply>;

/** Reply content blocks as the API sends them (shape of the SDK's ContentBlock). */
export type WireContentBlock =
  | { type: 'text'; text: string; citations: null }
  | { type: 'tool_use'; id: string; name: string; input: JsonObject; caller: { type: 'direct' } }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | {
      type: 'compaction';
      content: string | null;
      encrypted_content: string | null;
      signature: string;
    };

export interface CacheCreationBreakdown {
  ephemeral_5m_input_tokens: number;
  ephemeral_1h_input_tokens: number;
}

/** The input side of usage: what a usage model (see usage.ts) decides. */
export interface InputUsage {
  /** Uncached input tokens only (the real API's meaning). */
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation?: CacheCreationBreakdown | null;
}

export interface WireUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Always sent: the writes split by TTL. */
  cache_creation: CacheCreationBreakdown;
  output_tokens: number;
  service_tier: 'standard';
}

/** Why a replayed block is not used (the reasons of BetaThinkingDroppedInputTransformation the fake can produce). */
export type BindingReason = 'prefix_binding_mismatch' | 'model_binding_mismatch';

/** One entry of a response's `input_transformations` (BetaThinkingDroppedInputTransformation). */
export interface ThinkingDroppedTransformation {
  type: 'thinking_dropped';
  path: string;
  reason: BindingReason;
}

export interface WireMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: WireContentBlock[];
  stop_reason: StopReason;
  stop_sequence: null;
  stop_details: RefusalStopDetails | null;
  container: null;
  diagnostics: null;
  usage: WireUsage;
  /** Sent only with `anthropic-beta: thinking-binding-controls-2026-08-01` (`[]` when nothing was dropped). */
  input_transformations?: ThinkingDroppedTransformation[];
  /** Sent when the request carried `context_management` (context-editing.ts). */
  context_management?: { applied_edits: AppliedEdit[] };
}

// ---------------------------------------------------------------------------------------------
// Faults

export type Fault =
  /** An HTTP error answer. `errorType` and `message` default from the status (529 → overloaded_error ...). */
  | {
      kind: 'status';
      status: number;
      retryAfterMs?: number;
      errorType?: string;
      message?: string;
      /** Sets `x-should-retry`, which overrides the SDK's status-based retry decision. */
      shouldRetry?: boolean;
    }
  /** 200 + SSE, `afterBlocks` complete filler blocks, then `event: error` (overloaded). A non-streaming request gets a 529. */
  | { kind: 'overloaded_mid_stream'; afterBlocks?: number }
  /** A normal, scripted answer with `delayMs` between SSE events (before the body when not streaming). */
  | { kind: 'slow_stream'; delayMs: number }
  /** The socket is destroyed (TCP reset) without an answer. */
  | { kind: 'reset' };

export interface FaultContext {
  /** How many earlier requests already tried this callIndex (0 on the first try): lets a schedule fault only the first try. */
  attempt: number;
  /** Arrival number of this request on the server (all routes). */
  seq: number;
}

export type FaultSchedule = (
  callIndex: number,
  request: ParsedRequest,
  ctx: FaultContext
) => Fault | undefined;

// ---------------------------------------------------------------------------------------------
// Records

export type RecordedResponse =
  | {
      kind: 'message';
      status: 200;
      stream: boolean;
      message: WireMessage;
      usage: WireUsage;
      /** The usage priced with the model's catalogue row (billing.ts). */
      billedUsd: number;
    }
  | { kind: 'count_tokens'; status: 200; input_tokens: number }
  | { kind: 'error'; status: number; errorType: string; message: string }
  /** An SSE stream that began with 200 and ended with `event: error`. */
  | {
      kind: 'stream_error';
      status: 200;
      errorType: string;
      message: string;
      blocksSent: number;
      usage: WireUsage;
    }
  | { kind: 'reset' };

export interface RecordedRequest {
  /** Arrival order on this server, all routes, from 0. */
  seq: number;
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The JSON body as parsed (undefined when absent, unreadable or too large). */
  body: unknown;
  /** Set when the body passed validation. */
  request?: ParsedRequest;
  /** The script call this request consumed, or null (rejected, faulted, count_tokens, script threw). */
  callIndex: number | null;
  /** True when a fault replaced the answer (status, overloaded_mid_stream, reset); slow_stream answers normally. */
  faulted: boolean;
  fault?: Fault;
  /** What was (or is being) answered. Set before the first byte of the answer is written. */
  response?: RecordedResponse;
  /** What the script threw, when it did. */
  scriptError?: unknown;
  /** Set when the fake refused the request (4xx of its own rules, never a fault): why, in one word, and the text sent. */
  rejected?: { kind: RejectionKind; message: string };
  /** Replayed thinking blocks dropped before the model saw them (drop_block, or another model's block). */
  droppedThinking?: ThinkingDroppedTransformation[];
  /** What context editing did to the request, as the answer reported it. */
  appliedEdits?: AppliedEdit[];
  /** An on-demand compaction request that was answered with a compaction block (no script call). */
  compaction?: { summary: string; summarizedMessages: number };
}

/**
 * Why the fake refused a request: `invalid_request` (shape), `prompt_too_long`, `unknown_model`
 * (404), `refused_parameter` (a setting the model answers with 400), `thinking_binding` (a replayed
 * thinking block bound to a different conversation), `beta_required` (a beta field without its
 * header), `authentication`, `too_large`, `not_found` (route).
 */
export type RejectionKind =
  | 'invalid_request'
  | 'prompt_too_long'
  | 'unknown_model'
  | 'refused_parameter'
  | 'thinking_binding'
  | 'beta_required'
  | 'authentication'
  | 'too_large'
  | 'not_found'
  /** A compaction request or a compaction block the API refuses (see compaction.ts). */
  | 'compaction';
