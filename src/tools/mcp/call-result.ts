import { capText } from '../cap-text.js';

/** As much of an MCP tool's answer as the bash tool keeps of a command's output (two streams). */
export const MAX_MCP_RESULT_CHARS = 60_000;

/** The part of a tools/call answer we read; the SDK has checked its shape against the MCP schema. */
export interface CallAnswer {
  readonly content?: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  /** The pre-2024-11-05 form of an answer. */
  readonly toolResult?: unknown;
}

/**
 * An MCP tool's answer as text for the model: text blocks as they are, other blocks summarized in
 * one line (an image or audio clip is not passed on), structured content as JSON when there is no
 * text, all capped like other tool output. Redaction happens where every tool result passes.
 */
export function callAnswerText(answer: CallAnswer): string {
  const parts = (answer.content ?? []).map(describeBlock);
  if (parts.length === 0 && answer.structuredContent !== undefined)
    parts.push(json(answer.structuredContent));
  if (parts.length === 0 && answer.toolResult !== undefined) parts.push(json(answer.toolResult));
  return capText(parts.join('\n'), MAX_MCP_RESULT_CHARS);
}

function describeBlock(block: unknown): string {
  if (typeof block !== 'object' || block === null) return '[an MCP content block that is not an object]';
  const item = block as Record<string, unknown>;
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : '';
    case 'image':
    case 'audio':
      return `[${item.type} content, ${String(item.mimeType)}, ${base64Bytes(item.data)} bytes: not shown]`;
    case 'resource':
      return describeResource(item.resource);
    case 'resource_link':
      return `[resource link: ${String(item.name)} ${String(item.uri)}]`;
    default:
      return `[an MCP content block of type ${JSON.stringify(String(item.type)).slice(0, 60)}: not shown]`;
  }
}

function describeResource(resource: unknown): string {
  if (typeof resource !== 'object' || resource === null) return '[an embedded resource]';
  const { uri, text, blob, mimeType } = resource as Record<string, unknown>;
  if (typeof text === 'string') return `[resource ${String(uri)}]\n${text}`;
  return `[resource ${String(uri)}, ${String(mimeType ?? 'binary')}, ${base64Bytes(blob)} bytes: not shown]`;
}

function base64Bytes(data: unknown): number {
  return typeof data === 'string' ? Math.floor((data.replace(/=+$/, '').length * 3) / 4) : 0;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
