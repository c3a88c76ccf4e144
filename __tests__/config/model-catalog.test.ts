import { MODEL_CATALOGUE, findModel } from '../../src/config/model-catalog.js';
import { resolveModelSpec, UnknownModelError } from '../../src/config/models.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { costUsd, fromApiUsage, type TokenUsage } from '../../src/model/usage.js';

/**
 * Prices as printed on https://platform.claude.com/docs/en/about-claude/pricing and the model pages,
 * read 2026-11-23, typed here by hand (not taken from the catalogue), USD per MTok:
 * input, output, 5m write, 1h write, cache read.
 */
const DOCUMENTED = {
  'claude-sonnet-5-5': [2, 10, 2.5, 4, 0.1],
  'claude-opus-5-5': [4, 20, 5, 8, 0.2],
  'claude-haiku-5-5': [0.1, 0.5, 0.125, 0.2, 0.01],
  'claude-haiku-5-5 over 100k': [0.5, 2.5, 0.625, 1, 0.05],
  'claude-fable-5-1': [10, 50, 12.5, 20, 0.25]
} as const;

/** One request's bill, by hand: the reference the cost function must match within 1%. */
function byHand(usage: TokenUsage, prices: readonly number[]): number {
  const [input, output, write5m, write1h, read] = prices as [number, number, number, number, number];
  const oneHour = usage.cacheWrite1h ?? 0;
  return (
    (usage.input * input +
      usage.output * output +
      (usage.cacheWrite - oneHour) * write5m +
      oneHour * write1h +
      usage.cacheRead * read) /
    1e6
  );
}

const TURN: TokenUsage = {
  input: 3_000,
  cacheWrite: 12_000,
  cacheWrite1h: 2_000,
  cacheRead: 60_000,
  output: 1_500
};

describe('the model catalogue', () => {
  it.each(['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-fable-5-1'] as const)(
    'prices %s usage as the documented prices do, 5m and 1h writes apart',
    (model) => {
      const cost = costUsd(TURN, resolveModelSpec(model).prices);
      const expected = byHand(TURN, DOCUMENTED[model]);
      expect(Math.abs(cost - expected) / expected).toBeLessThan(0.01);
    }
  );

  it('prices a Haiku 5.5 request above 100k prompt tokens in the upper band, output included', () => {
    const long: TokenUsage = { input: 10_000, cacheWrite: 0, cacheRead: 95_000, output: 2_000 };
    const prices = resolveModelSpec('claude-haiku-5-5').prices;
    expect(costUsd(long, prices)).toBeCloseTo(byHand(long, DOCUMENTED['claude-haiku-5-5 over 100k']), 9);
    // Exactly 100k is still the lower band ("prompts up to 100,000 tokens").
    const edge: TokenUsage = { input: 5_000, cacheWrite: 0, cacheRead: 95_000, output: 2_000 };
    expect(costUsd(edge, prices)).toBeCloseTo(byHand(edge, DOCUMENTED['claude-haiku-5-5']), 9);
  });

  it('reads the TTL split of cache writes from the API usage', () => {
    const usage = fromApiUsage({
      input_tokens: 10,
      cache_creation_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
      cache_read_input_tokens: 50,
      output_tokens: 7
    } as Parameters<typeof fromApiUsage>[0]);
    expect(usage).toEqual({ input: 10, cacheWrite: 300, cacheWrite1h: 200, cacheRead: 50, output: 7 });
  });

  it('has the windows and limits of the current models, and Fable/Mythos 5.1 are known', () => {
    for (const id of [
      'claude-sonnet-5-5',
      'claude-opus-5-5',
      'claude-haiku-5-5',
      'claude-fable-5-1',
      'claude-mythos-5-1'
    ]) {
      expect(resolveModelSpec(id)).toMatchObject({ contextWindow: 1_000_000, maxOutputTokens: 128_000 });
    }
    expect(resolveModelSpec('claude-haiku-4-5-20251001')).toMatchObject({
      id: 'claude-haiku-4-5',
      contextWindow: 200_000
    });
  });

  it('cites a page and a check date on every row, and ids are unique', () => {
    const ids = MODEL_CATALOGUE.flatMap((row) => [row.id, ...row.aliases]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const row of MODEL_CATALOGUE) {
      expect(row.source).toMatch(/^https:\/\/platform\.claude\.com\/docs\//);
      expect(row.checkedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(row.pricedSince).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // Cache reads are their own price, below input; writes above it.
      expect(row.prices.cacheReadPerMTok).toBeLessThan(row.prices.inputPerMTok);
      expect(row.prices.cacheWritePerMTok).toBeGreaterThan(row.prices.inputPerMTok);
    }
  });

  it('knows which models bind thinking to the conversation and refuse forced tool use', () => {
    for (const id of [
      'claude-sonnet-5-5',
      'claude-opus-5-5',
      'claude-haiku-5-5',
      'claude-fable-5-1',
      'claude-fable-5-2'
    ]) {
      const row = findModel(id)!;
      expect(row.thinking.boundToConversation).toBe(true);
      expect(row.refuses).toMatchObject({ prefill: true, manualThinking: true, samplingParameters: true });
    }
    // What's new in Haiku 5.5 does not list forced tool use among its 400s; Sonnet 5.5's guide does.
    expect(findModel('claude-haiku-5-5')!.refuses.forcedToolChoice).toBe(false);
    expect(findModel('claude-sonnet-5-5')!.refuses.forcedToolChoice).toBe(true);
    // Opus 4.8 has adaptive thinking only on request: we do not ask for it.
    expect(findModel('claude-opus-4-8')!.thinking.mode).toBe('adaptive-opt-in');
    expect(findModel('claude-sonnet-5')!.thinking.boundToConversation).toBe(false);
    expect(findModel('claude-haiku-4-5')!.thinking.mode).toBe('manual');
  });
});

describe('resolving a model with overrides', () => {
  it('names the price date, and drops it (and the band) for negotiated rates', () => {
    expect(resolveModelSpec('claude-sonnet-5-5').prices.pricedSince).toBe('2026-10-07');
    const negotiated = resolveModelSpec('claude-haiku-5-5', { inputPerMTok: 0.08, cacheReadPerMTok: 0.008 });
    expect(negotiated.prices).toMatchObject({
      inputPerMTok: 0.08,
      cacheReadPerMTok: 0.008,
      outputPerMTok: 0.5
    });
    expect(negotiated.prices.pricedSince).toBeUndefined();
    expect(negotiated.prices.longPromptBand).toBeUndefined();
    expect(negotiated.overridden).toEqual(['input_price_per_mtok', 'cache_read_price_per_mtok']);
  });

  it('refuses an unknown model before any call, naming the overrides that would describe it', () => {
    expect(() => resolveModelSpec('claude-sonnet-9')).toThrow(UnknownModelError);
    expect(() => resolveModelSpec('claude-sonnet-9')).toThrow(
      /context_window, input_price_per_mtok and output_price_per_mtok/
    );
    const described = resolveModelSpec('my-gateway-model', {
      contextWindow: 300_000,
      inputPerMTok: 1,
      outputPerMTok: 4
    });
    expect(described.prices).toMatchObject({
      cacheWritePerMTok: 1.25,
      cacheWrite1hPerMTok: 2,
      cacheReadPerMTok: 0.1
    });
    // The strictest rules cost nothing to follow: thinking is stripped after edits, nothing forced.
    expect(described.thinking.boundToConversation).toBe(true);
  });

  it('checks effort against the model, before any call', () => {
    const inputs = (values: Record<string, string>) => (name: string) => values[name] ?? '';
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test' };
    expect(parseAgentConfig(inputs({ effort: 'low' }), env).effort).toBe('low');
    expect(parseAgentConfig(inputs({}), env).effort).toBeUndefined();
    expect(() => parseAgentConfig(inputs({ effort: 'extreme' }), env)).toThrow(
      /effort must be one of low, medium, high, xhigh, max for claude-sonnet-5-5, got "extreme"/
    );
    expect(() => parseAgentConfig(inputs({ effort: 'low', model: 'claude-haiku-4-5' }), env)).toThrow(
      /claude-haiku-4-5 has no effort levels/
    );
  });
});
