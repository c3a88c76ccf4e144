import type { Usage } from '@anthropic-ai/sdk/resources/messages';
import { pricesForPrompt } from '../config/model-catalog.js';
import type { ModelPrices } from '../config/models.js';

/** Tokens per billing class. `input` is the uncached part only, as the API reports it. */
export interface TokenUsage {
  readonly input: number;
  /** All cache writes, both TTLs. */
  readonly cacheWrite: number;
  /** The part of `cacheWrite` written with the 1-hour TTL (priced higher); 0 when absent. */
  readonly cacheWrite1h?: number;
  readonly cacheRead: number;
  readonly output: number;
}

export const NO_USAGE: TokenUsage = { input: 0, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0, output: 0 };

/** The usage fields one billed step reports (the top level, or one entry of `usage.iterations`). */
type StepUsage = Pick<Usage, 'input_tokens' | 'output_tokens'> &
  Partial<Pick<Usage, 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'cache_creation'>>;

function stepUsage(usage: StepUsage): TokenUsage {
  const total = usage.cache_creation_input_tokens ?? 0;
  const oneHour = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  return {
    input: usage.input_tokens,
    cacheWrite: Math.max(total, oneHour + (usage.cache_creation?.ephemeral_5m_input_tokens ?? 0)),
    cacheWrite1h: oneHour,
    cacheRead: usage.cache_read_input_tokens ?? 0,
    output: usage.output_tokens
  };
}

/**
 * usage.cache_creation splits the writes by TTL; older answers only carry the total.
 * `usage.iterations` (beta, SDK 1.12 BetaIterationsUsage): "A `compaction` entry's tokens are not
 * included in the top-level `usage` fields" — the server-side summary of threshold compaction
 * (compact_20260112) is billed on top, so it is added here. The non-beta types do not list the
 * field: it is read defensively.
 */
export function fromApiUsage(usage: Usage): TokenUsage {
  const top = stepUsage(usage);
  const iterations: unknown = (usage as { iterations?: unknown }).iterations;
  if (!Array.isArray(iterations)) return top;
  return iterations
    .filter(isCompactionIteration)
    .reduce((sum: TokenUsage, entry) => addUsage(sum, stepUsage(entry)), top);
}

function isCompactionIteration(entry: unknown): entry is StepUsage {
  if (typeof entry !== 'object' || entry === null) return false;
  const { type, input_tokens, output_tokens } = entry as Record<string, unknown>;
  return type === 'compaction' && typeof input_tokens === 'number' && typeof output_tokens === 'number';
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheWrite1h: (a.cacheWrite1h ?? 0) + (b.cacheWrite1h ?? 0),
    cacheRead: a.cacheRead + b.cacheRead,
    output: a.output + b.output
  };
}

/** The prompt's full size: the API splits it over three classes. */
export function promptTokens(usage: TokenUsage): number {
  return usage.input + usage.cacheWrite + usage.cacheRead;
}

/**
 * The cost of ONE request's usage: every dollar figure (report, outputs, budget, audit, bench) comes
 * from here. The price band is chosen by that request's prompt size, so summed usage of many
 * requests must be priced request by request, not at once.
 */
export function costUsd(usage: TokenUsage, prices: ModelPrices): number {
  const sheet = pricesForPrompt(prices, prices.longPromptBand, promptTokens(usage));
  const oneHour = usage.cacheWrite1h ?? 0;
  return (
    (usage.input * sheet.inputPerMTok +
      (usage.cacheWrite - oneHour) * sheet.cacheWritePerMTok +
      oneHour * sheet.cacheWrite1hPerMTok +
      usage.cacheRead * sheet.cacheReadPerMTok +
      usage.output * sheet.outputPerMTok) /
    1_000_000
  );
}
