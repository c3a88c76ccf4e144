import { InputError, parseAgentConfig } from '../../src/config/inputs.js';
import { resolveModelSpec, UnknownModelError } from '../../src/config/models.js';

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';

function problemsOf(inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}): readonly string[] {
  try {
    parseAgentConfig(reader(inputs), env);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('parseAgentConfig', () => {
  it('applies the defaults and takes the key from the environment when the input is empty', () => {
    const config = parseAgentConfig(reader({}), {
      ANTHROPIC_API_KEY: 'sk-env',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:1'
    });
    expect(config).toMatchObject({
      apiKey: 'sk-env',
      baseURL: 'http://127.0.0.1:1',
      model: 'claude-sonnet-5-5',
      maxOutputTokens: 16_384,
      limits: { maxTurns: 200, timeoutMs: 3_600_000, maxBudgetUsd: 10 },
      bashTimeoutMs: 120_000,
      prompt: undefined
    });
    // Sonnet 5.5's list price (it was wrongly 3 before the catalogue).
    expect(config.modelSpec.prices.inputPerMTok).toBe(2);
  });

  it('prefers the input key and parses limits and lists', () => {
    const config = parseAgentConfig(
      reader({
        anthropic_api_key: 'sk-input',
        max_turns: '12',
        timeout_minutes: '1.5',
        max_budget_usd: '0.25',
        bash_env_passthrough: 'NPM_CONFIG_REGISTRY, JAVA_HOME',
        prompt: '  Fix it  '
      }),
      { ANTHROPIC_API_KEY: 'sk-env' }
    );
    expect(config.apiKey).toBe('sk-input');
    expect(config.limits).toEqual({ maxTurns: 12, timeoutMs: 90_000, maxBudgetUsd: 0.25 });
    expect(config.bashEnvPassthrough).toEqual(['NPM_CONFIG_REGISTRY', 'JAVA_HOME']);
    expect(config.prompt).toBe('Fix it');
  });

  it('reports every bad input at once, naming each and what it got', () => {
    const problems = problemsOf({
      max_turns: 'ten',
      max_budget_usd: '-1',
      timeout_minutes: '2.5',
      max_output_tokens: '1.5'
    });
    expect(problems).toEqual([
      expect.stringContaining('No Anthropic API key'),
      'max_output_tokens must be a whole number, got "1.5".',
      'max_turns must be a positive number, got "ten".',
      'max_budget_usd must be a positive number, got "-1".'
    ]);
  });

  it('refuses an unknown model without prices, and accepts it with overrides', () => {
    expect(problemsOf({ anthropic_api_key: 'k', model: 'gpt-9' })).toEqual([
      expect.stringContaining('Unknown model "gpt-9"')
    ]);
    const config = parseAgentConfig(
      reader({
        anthropic_api_key: 'k',
        model: 'my-model',
        context_window: '32000',
        input_price_per_mtok: '2',
        output_price_per_mtok: '8'
      }),
      {}
    );
    expect(config.modelSpec).toMatchObject({
      contextWindow: 32_000,
      maxOutputTokens: 16_384,
      prices: {
        inputPerMTok: 2,
        outputPerMTok: 8,
        cacheWritePerMTok: 2.5,
        cacheWrite1hPerMTok: 4,
        cacheReadPerMTok: 0.2,
        pricedSince: undefined
      }
    });
  });

  it('refuses max_output_tokens above what the model allows', () => {
    expect(problemsOf({ anthropic_api_key: 'k', max_output_tokens: '200000' })).toEqual([
      'max_output_tokens is 200000, but claude-sonnet-5-5 allows at most 128000.'
    ]);
  });
});

describe('the model table', () => {
  it('prices families, older Opus generations included', () => {
    expect(resolveModelSpec('claude-opus-4-7').prices).toEqual({
      inputPerMTok: 5,
      outputPerMTok: 25,
      cacheWritePerMTok: 6.25,
      cacheWrite1hPerMTok: 10,
      cacheReadPerMTok: 0.5,
      pricedSince: '2026-04-16'
    });
    expect(resolveModelSpec('claude-opus-4-1').prices.inputPerMTok).toBe(15);
    expect(resolveModelSpec('claude-haiku-4-5').prices.outputPerMTok).toBe(5);
    expect(resolveModelSpec('claude-sonnet-4-5', { contextWindow: 1_000_000 }).contextWindow).toBe(1_000_000);
    // Fable 5 was refused as unknown before the catalogue; made-up ids still are.
    expect(resolveModelSpec('claude-fable-5').prices.cacheReadPerMTok).toBe(1);
    expect(() => resolveModelSpec('claude-fable-9')).toThrow(UnknownModelError);
  });
});
