/** Prices in USD per million tokens. Cache write is the 5-minute TTL price (1.25x input). */
export interface ModelPrices {
  readonly inputPerMTok: number;
  readonly cacheWritePerMTok: number;
  readonly cacheReadPerMTok: number;
  readonly outputPerMTok: number;
}

export interface ModelSpec {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly prices: ModelPrices;
}

export const DEFAULT_MODEL = 'claude-sonnet-5-5';

function pricesFor(inputPerMTok: number, outputPerMTok: number): ModelPrices {
  return {
    inputPerMTok,
    cacheWritePerMTok: inputPerMTok * 1.25,
    cacheReadPerMTok: inputPerMTok * 0.1,
    outputPerMTok
  };
}

/** One row per family; the first match wins, so older, pricier generations come first. */
const MODEL_FAMILIES: ReadonlyArray<{ readonly pattern: RegExp; readonly spec: ModelSpec }> = [
  {
    pattern: /^claude-(opus-4-(0|1)|opus-4-20|3-opus)/,
    spec: { contextWindow: 200_000, maxOutputTokens: 32_000, prices: pricesFor(15, 75) }
  },
  {
    pattern: /^claude-opus-/,
    spec: { contextWindow: 200_000, maxOutputTokens: 64_000, prices: pricesFor(5, 25) }
  },
  {
    pattern: /^claude-sonnet-/,
    spec: { contextWindow: 200_000, maxOutputTokens: 64_000, prices: pricesFor(3, 15) }
  },
  {
    pattern: /^claude-haiku-/,
    spec: { contextWindow: 200_000, maxOutputTokens: 64_000, prices: pricesFor(1, 5) }
  }
];

/** Overrides from inputs; any field left out comes from the family table. */
export interface ModelSpecOverrides {
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  readonly inputPerMTok?: number;
  readonly outputPerMTok?: number;
  readonly cacheWritePerMTok?: number;
  readonly cacheReadPerMTok?: number;
}

export class UnknownModelError extends Error {
  constructor(model: string) {
    super(
      `Unknown model "${model}": no context window or prices are known for it. ` +
        'Use a claude-sonnet-*, claude-opus-* or claude-haiku-* model, or set the inputs context_window, ' +
        'input_price_per_mtok and output_price_per_mtok.'
    );
    this.name = 'UnknownModelError';
  }
}

export function resolveModelSpec(model: string, overrides: ModelSpecOverrides = {}): ModelSpec {
  const family = MODEL_FAMILIES.find((row) => row.pattern.test(model))?.spec;
  const input = overrides.inputPerMTok ?? family?.prices.inputPerMTok;
  const output = overrides.outputPerMTok ?? family?.prices.outputPerMTok;
  const contextWindow = overrides.contextWindow ?? family?.contextWindow;
  if (input === undefined || output === undefined || contextWindow === undefined) {
    throw new UnknownModelError(model);
  }
  const derived = pricesFor(input, output);
  return {
    contextWindow,
    maxOutputTokens: overrides.maxOutputTokens ?? family?.maxOutputTokens ?? 16_384,
    prices: {
      inputPerMTok: input,
      outputPerMTok: output,
      cacheWritePerMTok:
        overrides.cacheWritePerMTok ?? family?.prices.cacheWritePerMTok ?? derived.cacheWritePerMTok,
      cacheReadPerMTok:
        overrides.cacheReadPerMTok ?? family?.prices.cacheReadPerMTok ?? derived.cacheReadPerMTok
    }
  };
}
