/**
 * Every Claude model served today, as data: windows, prices, caching, thinking and the request
 * parameters each one refuses. One row per model; aliases (dated snapshots) point at their row.
 *
 * Sources, read on CATALOGUE_CHECKED_ON through the search tool (corpus docs):
 * - PRICING: https://platform.claude.com/docs/en/about-claude/pricing ("Model pricing")
 * - each model's page: https://platform.claude.com/docs/en/models/<model>/overview ("Pricing", "Capabilities")
 * - the 5.5 migration guides: https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide,
 *   https://platform.claude.com/docs/en/models/opus-5-5/migration-guide (the settings that return 400)
 * - preserved thinking: https://platform.claude.com/docs/en/build-with-claude/preserved-thinking and
 *   .../preserved-thinking/prefix-checks (which models bind thinking blocks to the conversation)
 * Prices change: a row's `pricedSince` is the date its current prices took effect, and the report
 * names it. Re-check the pages above before changing a row, and change `checkedOn` with it.
 */

/** USD per million tokens, one price per billing class (cache reads are not a fixed share of input). */
export interface PriceSheet {
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
  /** 5-minute cache write (the default TTL). */
  readonly cacheWritePerMTok: number;
  readonly cacheWrite1hPerMTok: number;
  /** Cache hits and refreshes. */
  readonly cacheReadPerMTok: number;
}

/** A price band: a request whose prompt (input + cache writes + cache reads) is above `aboveTokens`
 * pays these prices on every token of that request, output included. */
export interface PriceBand {
  readonly aboveTokens: number;
  readonly prices: PriceSheet;
}

export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/**
 * - adaptive: thinks when it helps, by default (no `thinking` field needed); may be turned down.
 * - adaptive-always-on: adaptive, and thinking cannot be turned off.
 * - adaptive-opt-in: adaptive thinking exists but runs only when asked for (Opus 4.6-4.8); we do
 *   not ask, so these run as they did before the catalogue.
 * - manual: extended thinking with `{type: "enabled", budget_tokens}`, off unless asked for.
 */
export type ThinkingMode = 'adaptive' | 'adaptive-always-on' | 'adaptive-opt-in' | 'manual';

/** Request shapes the model answers with a 400. */
export interface RefusedParameters {
  /** `tool_choice` `{type: "any"}` or `{type: "tool"}`. */
  readonly forcedToolChoice: boolean;
  /** A last message with role assistant. */
  readonly prefill: boolean;
  /** `thinking: {type: "enabled", budget_tokens}`. */
  readonly manualThinking: boolean;
  /** `thinking: {type: "disabled"}`. */
  readonly disabledThinking: boolean;
  /** Non-default temperature, top_p or top_k. */
  readonly samplingParameters: boolean;
}

export interface CatalogueRow {
  readonly id: string;
  readonly aliases: readonly string[];
  readonly name: string;
  readonly status: 'current' | 'legacy' | 'retired-on-api';
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly prices: PriceSheet;
  readonly longPromptBand?: PriceBand;
  /** The date the current prices took effect (or the model's release, when they never changed). */
  readonly pricedSince: string;
  /** Below this many tokens a cache breakpoint silently caches nothing. */
  readonly minCacheableTokens: number;
  readonly thinking: {
    readonly mode: ThinkingMode;
    /** Replayed thinking blocks are checked against everything before them (preserved thinking). */
    readonly boundToConversation: boolean;
    /** Effort levels `output_config.effort` accepts; empty when the model has none. */
    readonly efforts: readonly Effort[];
    readonly defaultEffort?: Effort;
  };
  readonly refuses: RefusedParameters;
  /** The page the row was read from. */
  readonly source: string;
  readonly checkedOn: string;
}

export const CATALOGUE_CHECKED_ON = '2026-11-23';
const PRICING = 'https://platform.claude.com/docs/en/about-claude/pricing';
const RELEASE_NOTES = 'https://platform.claude.com/docs/en/release-notes/overview';
const CACHE_LIMITS = 'https://platform.claude.com/docs/en/build-with-claude/prompt-caching#cache-limitations';
const page = (model: string) => `https://platform.claude.com/docs/en/models/${model}/overview`;
const ALL_EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];
/** Opus 4.6 and Sonnet 4.6 (third-party references; not on a page we could read). */
const MAX_EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'max'];

const sheet = (
  inputPerMTok: number,
  outputPerMTok: number,
  cacheWritePerMTok: number,
  cacheWrite1hPerMTok: number,
  cacheReadPerMTok: number
): PriceSheet => ({ inputPerMTok, outputPerMTok, cacheWritePerMTok, cacheWrite1hPerMTok, cacheReadPerMTok });

/** The 5.5 generation and Fable/Mythos 5.1+: forced tool use, prefill, budgets and sampling are 400s. */
const STRICT_GENERATION: RefusedParameters = {
  forcedToolChoice: true,
  prefill: true,
  manualThinking: true,
  disabledThinking: true,
  samplingParameters: true
};
/**
 * Sonnet 5, Opus 5, Fable 5: manual budgets and sampling parameters are 400s; tool_choice still works.
 * Prefill has been a 400 since the 4.6 models (the 4.6 migration text); we assume it still is.
 */
const ADAPTIVE_GENERATION: RefusedParameters = {
  forcedToolChoice: false,
  prefill: true,
  manualThinking: true,
  disabledThinking: false,
  samplingParameters: true
};
/** Claude 4.x up to 4.5: everything is accepted (thinking is manual). */
const PERMISSIVE: RefusedParameters = {
  forcedToolChoice: false,
  prefill: false,
  manualThinking: false,
  disabledThinking: false,
  samplingParameters: false
};

const manualThinking = { mode: 'manual', boundToConversation: false, efforts: [] } as const;
const alwaysOnBound = (defaultEffort: Effort) =>
  ({ mode: 'adaptive-always-on', boundToConversation: true, efforts: ALL_EFFORTS, defaultEffort }) as const;

interface RowFacts extends Omit<CatalogueRow, 'checkedOn' | 'aliases'> {
  readonly aliases?: readonly string[];
}
const row = (facts: RowFacts): CatalogueRow => ({ aliases: [], ...facts, checkedOn: CATALOGUE_CHECKED_ON });
const twins = (make: (family: 'fable' | 'mythos', name: string) => RowFacts): CatalogueRow[] =>
  (['fable', 'mythos'] as const).map((family) => row(make(family, family === 'fable' ? 'Fable' : 'Mythos')));

export const MODEL_CATALOGUE: readonly CatalogueRow[] = [
  row({
    id: 'claude-sonnet-5-5',
    name: 'Claude Sonnet 5.5',
    status: 'current',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    // Cache hits cut from $0.20 to $0.10 (0.05x input) on 2026-10-07 (RELEASE_NOTES).
    prices: sheet(2, 10, 2.5, 4, 0.1),
    pricedSince: '2026-10-07',
    // Not on an official page we could read (2026-11-23); third-party tables give 512.
    minCacheableTokens: 512,
    thinking: { mode: 'adaptive', boundToConversation: true, efforts: ALL_EFFORTS, defaultEffort: 'high' },
    // The migration guide: budgets, sampling, prefill, forced tool choice and `disabled` are 400s.
    refuses: STRICT_GENERATION,
    source: `${PRICING}; ${page('sonnet-5-5')}; https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide; ${RELEASE_NOTES}`
  }),
  row({
    id: 'claude-opus-5-5',
    name: 'Claude Opus 5.5',
    status: 'current',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(4, 20, 5, 8, 0.2),
    pricedSince: '2026-09-22',
    minCacheableTokens: 512,
    thinking: {
      mode: 'adaptive-always-on',
      boundToConversation: true,
      efforts: ALL_EFFORTS,
      defaultEffort: 'medium'
    },
    refuses: STRICT_GENERATION,
    source: `${PRICING}; ${page('opus-5-5')}; https://platform.claude.com/docs/en/models/opus-5-5/whats-new-opus-5-5; ${CACHE_LIMITS}`
  }),
  row({
    id: 'claude-haiku-5-5',
    name: 'Claude Haiku 5.5',
    status: 'current',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(0.1, 0.5, 0.125, 0.2, 0.01),
    // "for prompts over 100,000 tokens" (the model page's Pricing): 5x on every class, output included.
    longPromptBand: { aboveTokens: 100_000, prices: sheet(0.5, 2.5, 0.625, 1, 0.05) },
    pricedSince: '2026-10-07',
    // Not on an official page we could read; third-party tables give 512 or 1,024 (we take the larger).
    minCacheableTokens: 1024,
    thinking: { mode: 'adaptive', boundToConversation: true, efforts: ALL_EFFORTS, defaultEffort: 'medium' },
    // What's new in Haiku 5.5 lists budgets, sampling and prefill as 400s, not forced tool use or `disabled`.
    refuses: { ...STRICT_GENERATION, forcedToolChoice: false, disabledThinking: false },
    source: `${PRICING}; ${page('haiku-5-5')}; https://platform.claude.com/docs/en/models/haiku-5-5/whats-new-haiku-5-5`
  }),
  ...twins((family, name) => ({
    id: `claude-${family}-5-2`,
    name: `Claude ${name} 5.2`,
    status: 'current',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    // $8 / $40 in the release notes of 2026-11-09. The cache prices are not on an official page we could
    // read: these are the family's multipliers (1.25x, 2x, and 0.025x as on 5.1), as third-party lists give.
    prices: sheet(8, 40, 10, 16, 0.2),
    pricedSince: '2026-11-09',
    minCacheableTokens: 512,
    thinking: alwaysOnBound('high'),
    refuses: STRICT_GENERATION,
    source: `${RELEASE_NOTES}; https://platform.claude.com/docs/en/models/${family}-5-2/migration-guide`
  })),
  ...twins((family, name) => ({
    id: `claude-${family}-5-1`,
    name: `Claude ${name} 5.1`,
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    // Cache hits at 0.025x input (PRICING, footnote 1), since the launch on 2026-09-01 (RELEASE_NOTES).
    prices: sheet(10, 50, 12.5, 20, 0.25),
    pricedSince: '2026-09-01',
    minCacheableTokens: 512,
    thinking: alwaysOnBound('high'),
    refuses: STRICT_GENERATION,
    source: `${PRICING}; ${page(`${family}-5-1`)}; ${RELEASE_NOTES}; ${CACHE_LIMITS}`
  })),
  ...twins((family, name) => ({
    id: `claude-${family}-5`,
    name: `Claude ${name} 5`,
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(10, 50, 12.5, 20, 1),
    pricedSince: '2026-06-09',
    minCacheableTokens: 512,
    thinking: { ...alwaysOnBound('high'), boundToConversation: false },
    // The Fable 5 migration guide: `disabled` and manual budgets are 400s.
    refuses: { ...ADAPTIVE_GENERATION, disabledThinking: true },
    source: `${PRICING}; ${page(`${family}-5`)}; https://platform.claude.com/docs/en/models/fable-5/migration-guide`
  })),
  row({
    id: 'claude-opus-5',
    name: 'Claude Opus 5',
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(5, 25, 6.25, 10, 0.5),
    pricedSince: '2026-07-24',
    // What's new in Opus 5: "512 tokens, down from 1,024 tokens on Claude Opus 4.8".
    minCacheableTokens: 512,
    thinking: { mode: 'adaptive', boundToConversation: false, efforts: ALL_EFFORTS, defaultEffort: 'high' },
    // `disabled` is accepted at effort high or below only; we never send it.
    refuses: ADAPTIVE_GENERATION,
    source: `${PRICING}; ${page('opus-5')}; https://platform.claude.com/docs/about-claude/models/whats-new-opus-5`
  }),
  row({
    id: 'claude-sonnet-5',
    name: 'Claude Sonnet 5',
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(2, 10, 2.5, 4, 0.2),
    pricedSince: '2026-06-30',
    minCacheableTokens: 1024,
    thinking: { mode: 'adaptive', boundToConversation: false, efforts: ALL_EFFORTS, defaultEffort: 'high' },
    refuses: ADAPTIVE_GENERATION,
    source: `${PRICING}; ${page('sonnet-5')}; ${CACHE_LIMITS}`
  }),
  // Opus 4.6-4.8: adaptive thinking runs only when asked ("On Claude Opus 4.8, requests run without
  // thinking unless you set thinking: {type: adaptive}", what's new in Opus 5); prefill is a 400 since 4.6.
  // Release dates of 4.7 and 4.8 are from third-party changelogs.
  row({
    id: 'claude-opus-4-8',
    name: 'Claude Opus 4.8',
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(5, 25, 6.25, 10, 0.5),
    pricedSince: '2026-05-28',
    // "a lower 1,024-token minimum cacheable prompt length" (what's new in Claude 4.8).
    minCacheableTokens: 1024,
    thinking: { mode: 'adaptive-opt-in', boundToConversation: false, efforts: ALL_EFFORTS },
    refuses: { ...PERMISSIVE, prefill: true },
    source: `${PRICING}; https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-8`
  }),
  row({
    id: 'claude-opus-4-7',
    name: 'Claude Opus 4.7',
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(5, 25, 6.25, 10, 0.5),
    pricedSince: '2026-04-16',
    minCacheableTokens: 2048,
    thinking: { mode: 'adaptive-opt-in', boundToConversation: false, efforts: ALL_EFFORTS },
    refuses: { ...PERMISSIVE, prefill: true },
    source: `${PRICING}; ${CACHE_LIMITS}`
  }),
  row({
    id: 'claude-opus-4-6',
    name: 'Claude Opus 4.6',
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(5, 25, 6.25, 10, 0.5),
    pricedSince: '2026-02-05',
    minCacheableTokens: 4096,
    thinking: { mode: 'adaptive-opt-in', boundToConversation: false, efforts: MAX_EFFORTS },
    refuses: { ...PERMISSIVE, prefill: true },
    source: `${PRICING}; ${page('opus-4-6')}; ${CACHE_LIMITS}`
  }),
  row({
    id: 'claude-opus-4-5',
    aliases: ['claude-opus-4-5-20251101'],
    name: 'Claude Opus 4.5',
    status: 'legacy',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    prices: sheet(5, 25, 6.25, 10, 0.5),
    pricedSince: '2025-11-24',
    minCacheableTokens: 4096,
    // "the only model that supports the effort parameter" (what's new in Claude 4.5).
    thinking: { mode: 'manual', boundToConversation: false, efforts: ['low', 'medium', 'high'] },
    refuses: PERMISSIVE,
    source: `${PRICING}; ${page('opus-4-5')}; https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-5`
  }),
  row({
    id: 'claude-opus-4-1',
    aliases: ['claude-opus-4-1-20250805'],
    name: 'Claude Opus 4.1',
    status: 'retired-on-api',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    prices: sheet(15, 75, 18.75, 30, 1.5),
    pricedSince: '2025-08-05',
    minCacheableTokens: 1024,
    thinking: manualThinking,
    refuses: PERMISSIVE,
    source: PRICING
  }),
  row({
    id: 'claude-opus-4-0',
    aliases: ['claude-opus-4-20250514'],
    name: 'Claude Opus 4',
    status: 'retired-on-api',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    prices: sheet(15, 75, 18.75, 30, 1.5),
    pricedSince: '2025-05-22',
    minCacheableTokens: 1024,
    thinking: manualThinking,
    refuses: PERMISSIVE,
    source: PRICING
  }),
  row({
    id: 'claude-sonnet-4-6',
    name: 'Claude Sonnet 4.6',
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 64_000,
    prices: sheet(3, 15, 3.75, 6, 0.3),
    // Its release date is not on a page we could read; this is the date of its price in third-party lists.
    pricedSince: '2026-02-17',
    minCacheableTokens: 1024,
    thinking: { mode: 'manual', boundToConversation: false, efforts: MAX_EFFORTS },
    // Prefill is a 400 on the 4.6 models (4.6 migration text).
    refuses: { ...PERMISSIVE, prefill: true },
    source: `${PRICING}; ${CACHE_LIMITS}`
  }),
  row({
    id: 'claude-sonnet-4-5',
    aliases: ['claude-sonnet-4-5-20250929'],
    name: 'Claude Sonnet 4.5',
    status: 'legacy',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    prices: sheet(3, 15, 3.75, 6, 0.3),
    pricedSince: '2025-09-29',
    minCacheableTokens: 1024,
    thinking: manualThinking,
    refuses: PERMISSIVE,
    source: `${PRICING}; ${RELEASE_NOTES}`
  }),
  row({
    id: 'claude-sonnet-4-0',
    aliases: ['claude-sonnet-4-20250514'],
    name: 'Claude Sonnet 4',
    status: 'retired-on-api',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    prices: sheet(3, 15, 3.75, 6, 0.3),
    pricedSince: '2025-05-22',
    minCacheableTokens: 1024,
    thinking: manualThinking,
    refuses: PERMISSIVE,
    source: PRICING
  }),
  row({
    id: 'claude-haiku-4-5',
    aliases: ['claude-haiku-4-5-20251001'],
    name: 'Claude Haiku 4.5',
    status: 'legacy',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    prices: sheet(1, 5, 1.25, 2, 0.1),
    pricedSince: '2025-10-15',
    minCacheableTokens: 4096,
    thinking: manualThinking,
    refuses: PERMISSIVE,
    source: `${PRICING}; ${page('haiku-4-5')}; ${CACHE_LIMITS}`
  })
];

/** The row of a model id or alias; undefined for a model the catalogue does not know. */
export function findModel(model: string): CatalogueRow | undefined {
  return MODEL_CATALOGUE.find((row) => row.id === model || row.aliases.includes(model));
}

/** The prices that apply to one request of `promptTokens` (input + cache writes + cache reads). */
export function pricesForPrompt(
  prices: PriceSheet,
  band: PriceBand | undefined,
  promptTokens: number
): PriceSheet {
  return band && promptTokens > band.aboveTokens ? band.prices : prices;
}
