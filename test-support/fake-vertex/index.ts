/**
 * A fake Vertex AI endpoint on 127.0.0.1, for @anthropic-ai/vertex-sdk:
 * `POST /v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:streamRawPredict`
 * with `Authorization: Bearer <token>`, a body with `anthropic_version: "vertex-2023-10-16"`,
 * `stream: true` and no `model`, answered in SSE. The content comes from a fake Anthropic server.
 *
 *   const vertex = await startFakeVertex({ inner: anthropic, project: 'p', region: 'global',
 *     accessToken: 'ya29.test', models: { 'claude-sonnet-5-5': 'claude-sonnet-5-5' } });
 *   new AnthropicVertex({ projectId: 'p', region: 'global', baseURL: `${vertex.url}/v1`, authClient });
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FakeAnthropic } from '../fake-anthropic/index.js';
import {
  forwardToAnthropic,
  isJsonObject,
  receiveCloudRequest,
  type CloudRequest
} from '../cloud-front/index.js';
import { closeLoopback, listenOnLoopback } from '../loopback.js';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export interface FakeVertexOptions {
  readonly inner: FakeAnthropic;
  readonly project: string;
  readonly region: string;
  /** The only OAuth access token accepted. */
  readonly accessToken: string;
  /** Model names served in this project → the catalogue id the fake Anthropic server answers as. */
  readonly models: Readonly<Record<string, string>>;
}

export interface FakeVertex {
  /** The host; the SDK's baseURL is `${url}/v1`. */
  readonly url: string;
  readonly requests: readonly CloudRequest[];
  close(): Promise<void>;
}

const STREAM_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):streamRawPredict$/;

export async function startFakeVertex(options: FakeVertexOptions): Promise<FakeVertex> {
  const requests: CloudRequest[] = [];
  const server = createServer((req, res) => {
    handle(req, res, options, requests).catch((error: unknown) => {
      if (!res.headersSent) googleError(res, 500, 'INTERNAL', String(error));
      else res.end();
    });
  });
  const address = await listenOnLoopback(server, undefined);
  return { url: `http://127.0.0.1:${address.port}`, requests, close: () => closeLoopback(server) };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: FakeVertexOptions,
  requests: CloudRequest[]
): Promise<void> {
  const { record } = await receiveCloudRequest(req, requests);
  const { rawPath, headers, body } = record;
  const refuse = (status: number, code: string, message: string) => {
    record.rejected = `${code}: ${message}`;
    googleError(res, status, code, message);
  };

  const route = req.method === 'POST' ? STREAM_PATH.exec(rawPath) : null;
  if (!route) return refuse(404, 'NOT_FOUND', `The requested URL ${rawPath} was not found on this server.`);
  const bearer = /^Bearer (\S+)$/.exec(headers.authorization ?? '')?.[1];
  if (bearer !== options.accessToken) {
    return refuse(
      401,
      'UNAUTHENTICATED',
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.'
    );
  }
  const [project, region, model] = [route[1]!, route[2]!, decodeURIComponent(route[3]!)];
  record.modelId = model;
  if (project !== options.project || region !== options.region) {
    return refuse(
      403,
      'PERMISSION_DENIED',
      `Permission denied on resource project ${project} (or it may not exist) in ${region}.`
    );
  }
  if (!isJsonObject(body)) return refuse(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
  if ('model' in body) return refuse(400, 'INVALID_ARGUMENT', 'model: Extra inputs are not permitted');
  if (body.anthropic_version !== VERTEX_ANTHROPIC_VERSION) {
    return refuse(
      400,
      'INVALID_ARGUMENT',
      `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`
    );
  }
  if (body.stream !== true)
    return refuse(400, 'INVALID_ARGUMENT', 'streamRawPredict needs "stream": true in the body.');
  const catalogueId = options.models[model];
  if (catalogueId === undefined) {
    return refuse(
      404,
      'NOT_FOUND',
      `Publisher Model \`projects/${project}/locations/${region}/publishers/anthropic/models/${model}\` not found.`
    );
  }
  const betas =
    typeof headers['anthropic-beta'] === 'string'
      ? headers['anthropic-beta'].split(',').map((b) => b.trim())
      : [];
  const answer = await forwardToAnthropic(options.inner, body, catalogueId, betas);
  res.writeHead(answer.status, {
    'content-type': answer.headers.get('content-type') ?? 'application/json'
  });
  if (!answer.body) return void res.end();
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  res.end();
}

function googleError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: status, message, status: code } }));
}
