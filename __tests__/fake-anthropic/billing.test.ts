/** Usage split by cache TTL and billed at the catalogue's prices, through the real SDK and by hand. */
import Anthropic from '@anthropic-ai/sdk';
import { countTokens } from '@anthropic-ai/tokenizer';
import { findModel } from '../../src/config/model-catalog.js';
import {
  billedUsd,
  createPromptCache,
  startFakeAnthropic,
  type FakeAnthropic,
  type WireUsage
} from '../../test-support/fake-anthropic/index.js';
import { answered, clientFor } from './helpers.js';

const rowOf = (model: string) => {
  const row = findModel(model);
  if (!row) throw new Error(`no row for ${model}`);
  return row;
};

const usage = (fields: Partial<WireUsage>): WireUsage => ({
  input_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: 0,
  service_tier: 'standard',
  ...fields
});

describe('billedUsd by hand (prices per million tokens, from the pricing page)', () => {
  test('Sonnet 5.5: input $2, output $10, 5m write $2.50, 1h write $4, read $0.10', () => {
    const bill = billedUsd(
      usage({
        input_tokens: 1_000_000,
        cache_creation_input_tokens: 3_000_000,
        cache_creation: { ephemeral_5m_input_tokens: 1_000_000, ephemeral_1h_input_tokens: 2_000_000 },
        cache_read_input_tokens: 10_000_000,
        output_tokens: 100_000
      }),
      rowOf('claude-sonnet-5-5')
    );
    expect(bill).toBeCloseTo(2 + 2.5 + 8 + 1 + 1, 10);
  });

  test('a total without a TTL split is billed as 5-minute writes', () => {
    const bill = billedUsd(
      usage({
        cache_creation_input_tokens: 1_000_000,
        cache_creation: null as unknown as WireUsage['cache_creation']
      }),
      rowOf('claude-opus-5-5')
    );
    expect(bill).toBeCloseTo(5, 10);
  });

  test("Haiku 5.5's band is chosen by this request's prompt (input + writes + reads), output included", () => {
    const haiku = rowOf('claude-haiku-5-5');
    // 100,000 prompt tokens: not above the band.
    const at = usage({ input_tokens: 60_000, cache_read_input_tokens: 40_000, output_tokens: 1000 });
    expect(billedUsd(at, haiku)).toBeCloseTo((60_000 * 0.1 + 40_000 * 0.01 + 1000 * 0.5) / 1e6, 12);
    // One more write token: every token of the request at the band's prices.
    const above = usage({
      input_tokens: 60_000,
      cache_read_input_tokens: 40_000,
      cache_creation_input_tokens: 1,
      cache_creation: { ephemeral_5m_input_tokens: 1, ephemeral_1h_input_tokens: 0 },
      output_tokens: 1000
    });
    expect(billedUsd(above, haiku)).toBeCloseTo(
      (60_000 * 0.5 + 40_000 * 0.05 + 1 * 0.625 + 1000 * 2.5) / 1e6,
      12
    );
  });
});

describe('usage and bills on the wire', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic({ usageModel: createPromptCache() });
    client = clientFor(fake);
  });
  afterEach(() => fake.close());

  const SYSTEM = `You are a careful agent. ${'Follow the repository rules exactly. '.repeat(120)}`;
  const TASK = `Task: ${'summarise the module layout and name each entry point. '.repeat(20)}`;

  const ask = (model: string, systemTtl: '5m' | '1h', extra: Anthropic.MessageParam[] = []) =>
    client.messages.create({
      model,
      max_tokens: 1000,
      system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral', ttl: systemTtl } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: TASK, cache_control: { type: 'ephemeral' } }] },
        ...extra
      ]
    });

  test('a 1h marker before a 5m one splits the writes by TTL; the next call reads; each answer is billed', async () => {
    const systemTokens = countTokens(SYSTEM);
    const taskTokens = countTokens(TASK);
    const first = await ask('claude-sonnet-5-5', '1h');
    expect(first.usage).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: systemTokens + taskTokens,
      cache_creation: { ephemeral_1h_input_tokens: systemTokens, ephemeral_5m_input_tokens: taskTokens }
    });
    const out1 = first.usage.output_tokens;
    const bill1 = answered(fake.requests[0]).billedUsd;
    expect(bill1).toBeCloseTo((systemTokens * 4 + taskTokens * 2.5 + out1 * 10) / 1e6, 12);

    const second = await ask('claude-sonnet-5-5', '1h');
    expect(second.usage).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: systemTokens + taskTokens,
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 }
    });
    const bill2 = answered(fake.requests[1]).billedUsd;
    expect(bill2).toBeCloseTo(
      ((systemTokens + taskTokens) * 0.1 + second.usage.output_tokens * 10) / 1e6,
      12
    );
    expect(fake.totalBilledUsd).toBeCloseTo(bill1 + bill2, 12);
  });

  test("the minimum cacheable prefix is the model's: 512 on Sonnet 5.5, 4096 on Haiku 4.5", async () => {
    const prefix = countTokens(SYSTEM);
    expect(prefix).toBeGreaterThan(512);
    expect(prefix + countTokens(TASK)).toBeLessThan(4096);
    const sonnet = await ask('claude-sonnet-5-5', '5m');
    expect(sonnet.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    const haiku = await ask('claude-haiku-4-5', '5m');
    expect(haiku.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }
    });
    expect(answered(fake.requests[1]).billedUsd).toBeCloseTo(
      (haiku.usage.input_tokens * 1 + haiku.usage.output_tokens * 5) / 1e6,
      12
    );
  });

  test('without a cache model, cache_creation is still on the wire (zeros)', async () => {
    const plain = await startFakeAnthropic();
    try {
      const message = await clientFor(plain).messages.create({
        model: 'claude-opus-5-5',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }]
      });
      expect(message.usage.cache_creation).toEqual({
        ephemeral_5m_input_tokens: 0,
        ephemeral_1h_input_tokens: 0
      });
      expect(plain.totalBilledUsd).toBeCloseTo(
        (message.usage.input_tokens * 4 + message.usage.output_tokens * 20) / 1e6,
        12
      );
    } finally {
      await plain.close();
    }
  });
});
