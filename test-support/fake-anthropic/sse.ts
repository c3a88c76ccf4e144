/**
 * Server-sent events exactly as the Messages API frames them. Pure: builds the event list for a
 * finished message; the server writes it (with optional pauses or a mid-stream error).
 */
import type { WireContentBlock, WireMessage, WireUsage } from './types.js';

export interface SseEvent {
  event: string;
  data: unknown;
}

/** `event: <type>\ndata: <json>\n\n`; the SDK drops frames without an event line. */
export function sseFrame({ event, data }: SseEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Splits a string into a few chunks (more for long strings, at most maxChunk chars each) without
 * cutting a surrogate pair, so clients must concatenate deltas.
 */
export function chunkString(value: string, parts = 3, maxChunk = 4096): string[] {
  if (value === '') return [];
  const count = Math.max(Math.min(parts, value.length), Math.ceil(value.length / maxChunk));
  const size = Math.ceil(value.length / count);
  const chunks: string[] = [];
  let start = 0;
  while (start < value.length) {
    let end = Math.min(start + size, value.length);
    const code = value.charCodeAt(end - 1);
    if (end < value.length && code >= 0xd800 && code <= 0xdbff) end++;
    chunks.push(value.slice(start, end));
    start = end;
  }
  return chunks;
}

/** What content_block_start announces: the block with its streamed field empty. */
function blockStart(block: WireContentBlock): WireContentBlock {
  switch (block.type) {
    case 'text':
      return { ...block, text: '' };
    case 'tool_use':
      return { ...block, input: {} };
    case 'thinking':
      return { ...block, thinking: '', signature: '' };
    case 'redacted_thinking':
      // Arrives whole in content_block_start, with no deltas.
      return block;
    case 'compaction':
      // The SDK's BetaMessageStream takes content from one compaction_delta ("the delta carries the
      // block's final value"); how the signature travels is not documented: the fake's choice is to
      // announce it with the block.
      return { ...block, content: null, encrypted_content: null };
  }
}

function blockDeltas(block: WireContentBlock, partialJson?: string): unknown[] {
  switch (block.type) {
    case 'text':
      return chunkString(block.text).map((t) => ({ type: 'text_delta', text: t }));
    case 'tool_use':
      // The API opens with an empty partial_json before the first real fragment.
      return ['', ...chunkString(partialJson ?? JSON.stringify(block.input))].map((p) => ({
        type: 'input_json_delta',
        partial_json: p
      }));
    case 'thinking':
      return [
        ...chunkString(block.thinking).map((t) => ({ type: 'thinking_delta', thinking: t })),
        { type: 'signature_delta', signature: block.signature }
      ];
    case 'redacted_thinking':
      return [];
    case 'compaction':
      return [
        { type: 'compaction_delta', content: block.content, encrypted_content: block.encrypted_content }
      ];
  }
}

/** The frames of one content block at `index`; `partialJson` replaces a tool_use's input JSON (cut short). */
export function blockEvents(block: WireContentBlock, index: number, partialJson?: string): SseEvent[] {
  return [
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: blockStart(block) }
    },
    ...blockDeltas(block, partialJson).map((delta) => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index, delta }
    })),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index } }
  ];
}

/** message_start + ping: the message with no content and the input usage (output_tokens small). */
export function streamOpening(message: WireMessage): SseEvent[] {
  const usage: WireUsage = { ...message.usage, output_tokens: Math.min(1, message.usage.output_tokens) };
  return [
    {
      event: 'message_start',
      data: { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage } }
    },
    { event: 'ping', data: { type: 'ping' } }
  ];
}

/**
 * The full stream of a finished message. `partialToolJson` (block index → JSON text) streams a
 * tool_use's input cut short, as when max_tokens ends the answer inside a tool call.
 */
export function messageEvents(
  message: WireMessage,
  partialToolJson: ReadonlyMap<number, string> = new Map()
): SseEvent[] {
  return [
    ...streamOpening(message),
    ...message.content.flatMap((block, index) => blockEvents(block, index, partialToolJson.get(index))),
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: {
          stop_reason: message.stop_reason,
          stop_sequence: null,
          stop_details: message.stop_details,
          container: null
        },
        usage: { output_tokens: message.usage.output_tokens },
        ...(message.context_management ? { context_management: message.context_management } : {})
      }
    },
    { event: 'message_stop', data: { type: 'message_stop' } }
  ];
}

export function errorEvent(errorType: string, message: string): SseEvent {
  return { event: 'error', data: { type: 'error', error: { type: errorType, message } } };
}
