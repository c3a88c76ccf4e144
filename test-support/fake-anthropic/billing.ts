/**
 * What a response costs, as the API bills it: each usage class at its own absolute price from the
 * catalogue row (the data only). The arithmetic is deliberately the fake's own, not
 * src/model/usage.ts, so a test comparing the project's reported cost with `billedUsd` checks the
 * project against an independent computation.
 *
 * - 5-minute and 1-hour cache writes are priced separately (usage.cache_creation); when an answer
 *   carries only the total, the part not split is billed as 5-minute writes (the default TTL).
 * - A price band (Haiku 5.5 above 100k) is chosen by this request's prompt: input + writes + reads,
 *   and then applies to every token of the request, output included.
 * Source: https://platform.claude.com/docs/en/about-claude/pricing
 */
import type { CatalogueRow, PriceSheet } from '../../src/config/model-catalog.js';
import type { WireUsage } from './types.js';

const PER_MILLION = 1_000_000;

function sheetFor(row: CatalogueRow, promptTokens: number): PriceSheet {
  const band = row.longPromptBand;
  return band !== undefined && promptTokens > band.aboveTokens ? band.prices : row.prices;
}

/** USD billed for one response's usage on `row`'s model. */
export function billedUsd(usage: WireUsage, row: CatalogueRow): number {
  const writes = usage.cache_creation_input_tokens;
  const oneHour = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  const fiveMinutes = Math.max(usage.cache_creation?.ephemeral_5m_input_tokens ?? 0, writes - oneHour);
  const prompt = usage.input_tokens + writes + usage.cache_read_input_tokens;
  const prices = sheetFor(row, prompt);
  const micro =
    usage.input_tokens * prices.inputPerMTok +
    fiveMinutes * prices.cacheWritePerMTok +
    oneHour * prices.cacheWrite1hPerMTok +
    usage.cache_read_input_tokens * prices.cacheReadPerMTok +
    usage.output_tokens * prices.outputPerMTok;
  return micro / PER_MILLION;
}
