import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient, createModelClient } from '../../src/model/anthropic-client.js';
import type { ModelClient } from '../../src/model/model-client.js';
import {
  reply,
  startFakeAnthropic,
  text,
  type FakeAnthropic,
  type RecordedRequest
} from '../../test-support/fake-anthropic/index.js';

const KEY = 'sk-ant-provider-client-test-key';
const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic({ script: () => reply(text('ok')), apiKey: KEY });
});
afterEach(() => fake.close());

const ask = (client: ModelClient) =>
  client.complete({
    model: 'claude-sonnet-5-5',
    maxTokens: 64,
    system: [],
    tools: [],
    messages: [{ role: 'user', content: 'hello' }]
  });

/** The settings a request carries on the wire: the key, the API version, the SDK's timeout, its retry count. */
function wireSettings(record: RecordedRequest): Record<string, string | undefined> {
  const { headers } = record;
  return {
    path: record.path,
    authorization: headers.authorization,
    version: headers['anthropic-version'],
    timeoutSeconds: headers['x-stainless-timeout'],
    retry: headers['x-stainless-retry-count']
  };
}

/**
 * `overloads` 529s in a row: a client with fewer HTTP retries gives up on them, one with more
 * retries past them and gets the answer (so exactly `retries + 1` overloads make it give up).
 */
async function triesWith(client: ModelClient, overloads: number): Promise<RecordedRequest[]> {
  const before = fake.requests.length;
  fake.injectFault({ kind: 'status', status: 529, retryAfterMs: 1 }, overloads);
  await expect(ask(client)).rejects.toMatchObject({ status: 529 });
  return fake.requests.slice(before);
}

describe('the first-party SDK client, built in model/provider-client.ts for both ways of asking', () => {
  it("sends the same key, version, timeout and retries from a key and URL as from the run's config", async () => {
    const direct = new AnthropicModelClient({ apiKey: KEY, baseURL: fake.url, httpRetries: 2 });
    const config = parseAgentConfig(reader({ anthropic_api_key: KEY, api_max_retries: '2' }), {
      ANTHROPIC_BASE_URL: fake.url
    });
    const fromConfig = createModelClient(config);

    await ask(direct);
    await ask(fromConfig);
    const [first, second] = fake.requests.map(wireSettings);
    expect(first).toEqual({
      path: '/v1/messages',
      authorization: `Bearer ${KEY}`,
      version: expect.any(String),
      timeoutSeconds: '600',
      retry: '0'
    });
    expect(second).toEqual(first);

    // Two retries each (three tries), then the 529 is the caller's.
    for (const client of [direct, fromConfig]) {
      const tries = await triesWith(client, 3);
      expect(tries.map((record) => record.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
    }
  });

  it("retries as often as the run's config does when the key-and-URL client is given no count", async () => {
    const direct = new AnthropicModelClient({ apiKey: KEY, baseURL: fake.url });
    const fromConfig = createModelClient(
      parseAgentConfig(reader({ anthropic_api_key: KEY }), { ANTHROPIC_BASE_URL: fake.url })
    );
    const [directTries, configTries] = [await triesWith(direct, 10), await triesWith(fromConfig, 10)];
    expect(directTries.length).toBeGreaterThan(1);
    expect(directTries.map(wireSettings)).toEqual(configTries.map(wireSettings));
  });
});

describe('where SDK clients are built', () => {
  it('is model/provider-client.ts only: no other file under src/ constructs one', () => {
    const builders: string[] = [];
    const visit = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const file = path.join(folder, entry.name);
        if (entry.isDirectory()) visit(file);
        else if (
          file.endsWith('.ts') &&
          /new\s+Anthropic(?:Bedrock|Vertex)?\s*\(/.test(readFileSync(file, 'utf8'))
        )
          builders.push(path.relative('src', file));
      }
    };
    visit('src');
    expect(builders).toEqual([path.join('model', 'provider-client.ts')]);
  });
});
