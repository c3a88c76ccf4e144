/**
 * A fake Amazon Bedrock runtime on 127.0.0.1, for @anthropic-ai/bedrock-sdk:
 * `POST /model/{modelId}/invoke-with-response-stream` (InvokeModelWithResponseStream), SigV4-signed
 * for service `bedrock`, a body with `anthropic_version: "bedrock-2023-05-31"` and no `model` or
 * `stream`, answered in the AWS event-stream framing. The content comes from a fake Anthropic server.
 *
 *   const anthropic = await startFakeAnthropic({ script });
 *   const bedrock = await startFakeBedrock({ inner: anthropic, region: 'us-east-1', credentials,
 *     models: { 'anthropic.claude-sonnet-5-5': 'claude-sonnet-5-5' } });
 *   new AnthropicBedrock({ awsRegion: 'us-east-1', baseURL: bedrock.url });
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FakeAnthropic } from '../fake-anthropic/index.js';
import {
  forwardToAnthropic,
  isJsonObject,
  receiveCloudRequest,
  sseEvents,
  type CloudRequest
} from '../cloud-front/index.js';
import { closeLoopback, listenOnLoopback } from '../loopback.js';
import { chunkEvent, exceptionEvent } from './event-stream.js';
import { sigV4Problem, type AwsTestCredentials } from './sigv4.js';

export { crc32, encodeMessage } from './event-stream.js';
export type { AwsTestCredentials } from './sigv4.js';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

export interface FakeBedrockOptions {
  readonly inner: FakeAnthropic;
  readonly region: string;
  readonly credentials: AwsTestCredentials;
  /** The model ids this account can invoke → the catalogue id the fake Anthropic server answers as. */
  readonly models: Readonly<Record<string, string>>;
}

export interface FakeBedrock {
  readonly url: string;
  readonly requests: readonly CloudRequest[];
  close(): Promise<void>;
}

const STREAM_PATH = /^\/model\/([^/]+)\/invoke-with-response-stream$/;

export async function startFakeBedrock(options: FakeBedrockOptions): Promise<FakeBedrock> {
  const requests: CloudRequest[] = [];
  const server = createServer((req, res) => {
    handle(req, res, options, requests).catch((error: unknown) => {
      if (!res.headersSent) awsError(res, 500, 'InternalServerException', String(error));
      else res.end();
    });
  });
  const address = await listenOnLoopback(server, undefined);
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () => closeLoopback(server)
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: FakeBedrockOptions,
  requests: CloudRequest[]
): Promise<void> {
  const { raw, rawQuery, record } = await receiveCloudRequest(req, requests);
  const { rawPath, headers, body } = record;
  const refuse = (status: number, type: string, message: string) => {
    record.rejected = `${type}: ${message}`;
    awsError(res, status, type, message);
  };

  const route = req.method === 'POST' ? STREAM_PATH.exec(rawPath) : null;
  if (!route) return refuse(404, 'UnknownOperationException', `No operation at ${req.method} ${rawPath}`);
  const signing = sigV4Problem(
    { method: req.method ?? '', rawPath, rawQuery, headers, body: raw },
    options.credentials,
    options.region,
    'bedrock'
  );
  if (signing) return refuse(403, signing.type, signing.message);

  const modelId = decodeURIComponent(route[1]!);
  record.modelId = modelId;
  if (!isJsonObject(body))
    return refuse(400, 'ValidationException', 'Malformed input request: the body is not a JSON object.');
  for (const key of ['model', 'stream']) {
    if (key in body)
      return refuse(
        400,
        'ValidationException',
        `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`
      );
  }
  if (body.anthropic_version !== BEDROCK_ANTHROPIC_VERSION) {
    return refuse(
      400,
      'ValidationException',
      `Malformed input request: #/anthropic_version: ${JSON.stringify(body.anthropic_version ?? null)} is not a valid enum value (expected ${BEDROCK_ANTHROPIC_VERSION})`
    );
  }
  const catalogueId = options.models[modelId];
  if (catalogueId === undefined)
    return refuse(400, 'ValidationException', 'The provided model identifier is invalid.');
  const betas = Array.isArray(body.anthropic_beta) ? body.anthropic_beta.map(String) : [];

  const answer = await forwardToAnthropic(options.inner, body, catalogueId, betas);
  if (!answer.ok || !answer.body) {
    const text = await answer.text();
    const parsed = safeJson(text);
    const message = isJsonObject(parsed) && isJsonObject(parsed.error) ? String(parsed.error.message) : text;
    return refuse(
      answer.status,
      answer.status === 429 ? 'ThrottlingException' : 'ValidationException',
      message
    );
  }
  res.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-requestid': randomUUID(),
    'x-amzn-bedrock-content-type': 'application/json'
  });
  for await (const { event, data } of sseEvents(answer.body)) {
    if (event === 'ping') continue; // Bedrock sends none
    if (event === 'error') {
      res.write(exceptionEvent('modelStreamErrorException', data));
      break;
    }
    res.write(chunkEvent(data));
  }
  res.end();
}

function awsError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': randomUUID()
  });
  res.end(JSON.stringify({ message }));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
