/**
 * What the Bedrock and Vertex fakes share: they check the cloud's own wire shape (path, signing,
 * `anthropic_version` in the body, no `model`), then hand the request, rewritten as a first-party
 * Messages request, to a fake Anthropic server (test-support/fake-anthropic), whose reply engine,
 * validation, token counts and billing answer it. So a reply over a cloud is the one the same script
 * gives on the first-party API, with the same usage.
 */
import type { IncomingMessage } from 'node:http';
import type { FakeAnthropic } from '../fake-anthropic/index.js';
import { flattenHeaders } from '../loopback.js';

/** One request as the cloud fake saw it, and why it was refused (undefined: forwarded). */
export interface CloudRequest {
  readonly method: string;
  /** The raw path, percent-encoding kept (what SigV4 signs). */
  readonly rawPath: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The model id the path named, decoded. */
  modelId?: string;
  rejected?: string;
}

/** The first-party API version a cloud's `anthropic_version` stands for. */
export const FORWARDED_API_VERSION = '2023-06-01';

export async function readRawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A request as both fakes take it in: raw bytes (what SigV4 signs), path, query, headers, JSON body, recorded. */
export interface ReceivedCloudRequest {
  readonly raw: Buffer;
  readonly rawQuery: string;
  readonly record: CloudRequest;
}

/** Reads a request whole and appends its record to `requests` (a body that is not JSON is undefined). */
export async function receiveCloudRequest(
  req: IncomingMessage,
  requests: CloudRequest[]
): Promise<ReceivedCloudRequest> {
  const raw = await readRawBody(req);
  const [rawPath = '', rawQuery = ''] = (req.url ?? '/').split('?');
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    body = undefined;
  }
  const record: CloudRequest = {
    method: req.method ?? '',
    rawPath,
    headers: flattenHeaders(req.headers),
    body
  };
  requests.push(record);
  return { raw, rawQuery, record };
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sends the request on to the fake Anthropic server as `model` (a catalogue id), with betas back in
 * their header. The caller turns the answer into the cloud's framing.
 */
export async function forwardToAnthropic(
  inner: FakeAnthropic,
  body: Record<string, unknown>,
  model: string,
  betas: readonly string[]
): Promise<Response> {
  const { anthropic_version: _version, anthropic_beta: _betas, ...rest } = body;
  return fetch(`${inner.url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'forwarded-by-cloud-fake',
      'anthropic-version': FORWARDED_API_VERSION,
      ...(betas.length > 0 ? { 'anthropic-beta': betas.join(',') } : {})
    },
    body: JSON.stringify({ ...rest, model, stream: true })
  });
}

/** The events of an SSE body, as they arrive: `{event, data}` with data parsed. */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>
): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) !== -1) {
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}
