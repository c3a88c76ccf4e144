/**
 * Helpers to write scripts: build replies, and read what the agent sent.
 *
 *   script: (req, { callIndex }) =>
 *     callIndex === 0 ? reply(text('Reading it.'), toolUse('read_file', { path: 'a.ts' }))
 *                     : reply(text(`Got ${toolResultTexts(req)[0]?.length} chars.`))
 */
import type {
  ContentBlockParam,
  JsonObject,
  MessageParam,
  ParsedRequest,
  ReplyBlock,
  Script,
  ScriptedReply,
  StopReason,
  ToolResultBlockParam,
  ToolUseBlockParam
} from './types.js';
import { blocksOf } from './validate.js';

export { blocksOf };

// ---------------------------------------------------------------------------------------------
// Building replies

export function text(value: string): ReplyBlock {
  return { type: 'text', text: value };
}

/** A tool call; the server generates a `toolu_...` id when none is given. */
export function toolUse(name: string, input: JsonObject = {}, id?: string): ReplyBlock {
  return id === undefined ? { type: 'tool_use', name, input } : { type: 'tool_use', name, input, id };
}

export function thinking(value: string, signature?: string): ReplyBlock {
  return signature === undefined
    ? { type: 'thinking', thinking: value }
    : { type: 'thinking', thinking: value, signature };
}

/** A redacted_thinking block: the fake binds `hidden` into its opaque `data`, as it signs thinking. */
export function redactedThinking(hidden = ''): ReplyBlock {
  return { type: 'redacted_thinking', thinking: hidden };
}

/** Stop reason defaults to 'tool_use' when a tool_use block is present, else 'end_turn'. */
export function reply(...content: ReplyBlock[]): ScriptedReply {
  return { content };
}

export function replyWithStop(stopReason: StopReason, ...content: ReplyBlock[]): ScriptedReply {
  return { content, stop_reason: stopReason };
}

/** The context window ran out mid-answer: `partial` is what was written before (often text only). */
export function contextWindowExceeded(...partial: ReplyBlock[]): ScriptedReply {
  return { content: partial, stop_reason: 'model_context_window_exceeded' };
}

/** A long server-side turn paused; the client sends the conversation back as is to let it go on. */
export function pauseTurn(...content: ReplyBlock[]): ScriptedReply {
  return { content, stop_reason: 'pause_turn' };
}

/** The model declined; `stop_details` says `{type: "refusal", category, explanation: null}`. */
export function refusal(
  category: ScriptedReply['refusalCategory'] = null,
  ...content: ReplyBlock[]
): ScriptedReply {
  return { content, stop_reason: 'refusal', refusalCategory: category };
}

/**
 * max_tokens inside a tool call: `before` blocks, then a tool_use whose input JSON is streamed only
 * up to `keepChars` characters (default: half of it). Through the SDK's stream (1.x) the block
 * arrives with `input` partial-parsed from the cut JSON, keeping only complete fields:
 * `{"path":"a.ts","reason":"to se` gives `{path: "a.ts"}`, `{"path":"src/ind` gives `{}`. The
 * non-streaming answer carries `input: {}`. Either way the call must not be run as is.
 */
export function maxTokensInToolUse(
  before: readonly ReplyBlock[],
  name: string,
  input: JsonObject,
  keepChars = Math.floor(JSON.stringify(input).length / 2)
): ScriptedReply {
  return {
    content: [...before, { type: 'tool_use', name, input, inputJsonCutAt: keepChars }],
    stop_reason: 'max_tokens'
  };
}

/**
 * A script that plays replies in order: entry N answers call N. An entry may be a function of the
 * request, to react to tool results. Running past the end throws (the server answers 500 with it).
 */
export function scriptFrom(steps: ReadonlyArray<ScriptedReply | Script>): Script {
  return (request, ctx) => {
    const step = steps[ctx.callIndex];
    if (step === undefined) {
      throw new Error(`script has ${steps.length} step(s); call ${ctx.callIndex} has none`);
    }
    return typeof step === 'function' ? step(request, ctx) : step;
  };
}

// ---------------------------------------------------------------------------------------------
// Reading requests

export function lastMessage(request: ParsedRequest): MessageParam | undefined {
  return request.messages.at(-1);
}

export function lastUserMessage(request: ParsedRequest): MessageParam | undefined {
  return request.messages.findLast((m) => m.role === 'user');
}

/** The text of a tool_result's content (text blocks joined with newlines; other blocks skipped). */
export function toolResultText(block: ToolResultBlockParam): string {
  if (block.content === undefined) return '';
  if (typeof block.content === 'string') return block.content;
  return block.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
}

/** tool_result blocks of the last user message, in order. */
export function toolResults(request: ParsedRequest): ToolResultBlockParam[] {
  const message = lastUserMessage(request);
  if (!message) return [];
  return blocksOf(message).filter((b): b is ToolResultBlockParam => b.type === 'tool_result');
}

/** A tool call and the result that answered it, as a scripted model reads them from a request. */
export interface ToolExchangeSeen {
  readonly call: ToolUseBlockParam;
  readonly result: ToolResultBlockParam;
}

/**
 * The tool results of a request that are not in `seen` yet (it is updated), each paired with its call
 * in the assistant message before it. A scripted model learns from each result once, wherever
 * compaction has moved it in the history.
 */
export function unseenToolExchanges(request: ParsedRequest, seen: Set<string>): ToolExchangeSeen[] {
  const exchanges: ToolExchangeSeen[] = [];
  request.messages.forEach((message, index) => {
    const previous = request.messages[index - 1];
    if (message.role !== 'user' || previous?.role !== 'assistant') return;
    const calls = new Map<string, ToolUseBlockParam>();
    for (const block of blocksOf(previous)) if (block.type === 'tool_use') calls.set(block.id, block);
    for (const block of blocksOf(message)) {
      if (block.type !== 'tool_result' || seen.has(block.tool_use_id)) continue;
      seen.add(block.tool_use_id);
      const call = calls.get(block.tool_use_id);
      if (call) exchanges.push({ call, result: block });
    }
  });
  return exchanges;
}

export function toolResultTexts(request: ParsedRequest): string[] {
  return toolResults(request).map(toolResultText);
}

/** Text blocks of a message joined with newlines. */
export function messageText(message: MessageParam): string {
  return blocksOf(message)
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n');
}

/** The text blocks of the last user message (the task or a follow-up), '' when it has none. */
export function lastUserText(request: ParsedRequest): string {
  const message = lastUserMessage(request);
  return message ? messageText(message) : '';
}

export function systemText(request: ParsedRequest): string {
  if (request.system === undefined) return '';
  return typeof request.system === 'string' ? request.system : request.system.map((b) => b.text).join('\n');
}

export function toolNames(request: ParsedRequest): string[] {
  return (request.tools ?? []).map((t) => t.name);
}

/** Every tool_use the agent sent back in its history, in order. */
export function toolUsesInHistory(request: ParsedRequest): ToolUseBlockParam[] {
  return request.messages
    .filter((m) => m.role === 'assistant')
    .flatMap((m) => blocksOf(m))
    .filter((b: ContentBlockParam): b is ToolUseBlockParam => b.type === 'tool_use');
}
