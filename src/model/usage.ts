import type { Usage } from '@anthropic-ai/sdk/resources/messages';
import type { ModelPrices } from '../config/models.js';

/** Tokens per billing class. `input` is the uncached part only, as the API reports it. */
export interface TokenUsage {
  readonly input: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
  readonly output: number;
}

export const NO_USAGE: TokenUsage = { input: 0, cacheWrite: 0, cacheRead: 0, output: 0 };

export function fromApiUsage(usage: Usage): TokenUsage {
  return {
    input: usage.input_tokens,
    cacheWrite: usage.cache_creation_input_tokens ?? 0,
    cacheRead: usage.cache_read_input_tokens ?? 0,
    output: usage.output_tokens
  };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheRead: a.cacheRead + b.cacheRead,
    output: a.output + b.output
  };
}

/** The prompt's full size: the API splits it over three classes. */
export function promptTokens(usage: TokenUsage): number {
  return usage.input + usage.cacheWrite + usage.cacheRead;
}

export function costUsd(usage: TokenUsage, prices: ModelPrices): number {
  return (
    (usage.input * prices.inputPerMTok +
      usage.cacheWrite * prices.cacheWritePerMTok +
      usage.cacheRead * prices.cacheReadPerMTok +
      usage.output * prices.outputPerMTok) /
    1_000_000
  );
}
