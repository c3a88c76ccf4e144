import { createCompactionCapabilityLookup } from '../../src/model/provider-client.js';
import { fromApiUsage } from '../../src/model/usage.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';

describe('the Models API lookup for compaction_engine auto (real SDK, fake server)', () => {
  let fake: FakeAnthropic;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(async () => fake.close());

  it('reads capabilities.compaction per model, and throws for a model the API does not know', async () => {
    const lookup = createCompactionCapabilityLookup({
      provider: { kind: 'anthropic' },
      apiKey: 'test-key',
      baseURL: fake.url,
      apiMaxRetries: 0
    });
    await expect(lookup.supportsOnDemandCompaction('claude-sonnet-5-5')).resolves.toBe(true);
    await expect(lookup.supportsOnDemandCompaction('claude-opus-4-5')).resolves.toBe(false);
    await expect(lookup.supportsOnDemandCompaction('claude-nope-9')).rejects.toThrow(/404/);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/models/claude-sonnet-5-5',
      'GET /v1/models/claude-opus-4-5',
      'GET /v1/models/claude-nope-9'
    ]);
  });
});

describe('fromApiUsage and usage.iterations', () => {
  const top = {
    input_tokens: 100,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 40_000,
    output_tokens: 300
  };

  it('adds the compaction entries (not in the top-level usage, per the SDK docs) and ignores the rest', () => {
    const usage = fromApiUsage({
      ...top,
      iterations: [
        {
          type: 'compaction',
          input_tokens: 150_000,
          output_tokens: 4_000,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0
        },
        {
          type: 'message',
          input_tokens: 100,
          output_tokens: 300,
          cache_read_input_tokens: 40_000,
          cache_creation_input_tokens: 0
        }
      ]
    } as unknown as Parameters<typeof fromApiUsage>[0]);
    expect(usage).toEqual({
      input: 150_100,
      cacheWrite: 0,
      cacheWrite1h: 0,
      cacheRead: 40_000,
      output: 4_300
    });
  });

  it('is the top-level usage when there are no iterations', () => {
    expect(fromApiUsage(top as Parameters<typeof fromApiUsage>[0])).toEqual({
      input: 100,
      cacheWrite: 0,
      cacheWrite1h: 0,
      cacheRead: 40_000,
      output: 300
    });
  });
});
