/** Shared bits for the fake-anthropic tests (not a test file: jest only runs *.test.ts). */
import Anthropic from '@anthropic-ai/sdk';
import type {
  FakeAnthropic,
  RecordedRequest,
  RecordedResponse
} from '../../test-support/fake-anthropic/index.js';

export const MODEL = 'claude-sonnet-4-6';

export const readFileTool: Anthropic.Tool = {
  name: 'read_file',
  description: 'Read a file of the repository.',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }
};

export function clientFor(fake: FakeAnthropic, maxRetries = 2): Anthropic {
  return new Anthropic({ apiKey: 'test-key', baseURL: fake.url, maxRetries });
}

/** The rejection of a promise that must reject. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** The answered message of a record, failing the test when it was something else. */
export function answered(
  record: RecordedRequest | undefined
): Extract<RecordedResponse, { kind: 'message' }> {
  const response = record?.response;
  if (response?.kind !== 'message')
    throw new Error(`expected a message answer, got ${JSON.stringify(response)}`);
  return response;
}

/** POST a raw body with fetch (to check wire details the SDK hides). */
export function post(
  fake: FakeAnthropic,
  path: string,
  body: string,
  headers: Record<string, string> = {}
): Promise<Response> {
  return fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'anthropic-version': '2026-10-21',
      'x-api-key': 'k',
      ...headers
    },
    body
  });
}
