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
 * - manual: extended thinking with `{type: "enabled", budget_tokens}`, off unless asked for.
 */
export type ThinkingMode = 'adaptive' | 'adaptive-always-on' | 'manual';

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
const page = (model: string) => `https://platform.claude.com/docs/en/models/${model}/overview`;
const ALL_EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

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
/** Sonnet 5, Opus 5, Fable 5: manual budgets and sampling parameters are 400s; tool_choice still works. */
const ADAPTIVE_GENERATION: RefusedParameters = {
  forcedToolChoice: false,
  prefill: false,
  manualThinking: true,
  disabledThinking: false,
  samplingParameters: true
};
/** Claude 4.x: everything is accepted (thinking is manual). */
const PERMISSIVE: RefusedParameters = {
  forcedToolChoice: false,
  prefill: false,
  manualThinking: false,
  disabledThinking: false,
  samplingParameters: false
};

const manualThinking = { mode: 'manual', boundToConversation: false, efforts: [] } as const;

export const MODEL_CATALOGUE: readonly CatalogueRow[] = [
  {
    id: 'claude-sonnet-5-5',
    aliases: [],
    name: 'Claude Sonnet 5.5',
    status: 'current',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    // Cache hits cut from $0.20 to $0.10 on 2026-10-07 (PRICING; 0.05x input).
    prices: sheet(2, 10, 2.5, 4, 0.1),
    pricedSince: '2026-10-07',
    minCacheableTokens: 512,
    thinking: { mode: 'adaptive', boundToConversation: true, efforts: ALL_EFFORTS, defaultEffort: 'high' },
    refuses: STRICT_GENERATION,
    source: `${PRICING}; ${page('sonnet-5-5')}; https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide`,
    checkedOn: CATALOGUE_CHECKED_ON
  },
  {
    id: 'claude-opus-5-5',
    aliases: [],
    name: 'Claude Opus 5.5',
    status: 'current',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(4, 20, 5, 8, 0.2),
    pricedSince: '2026-09-22',
    minCacheableTokens: 1024,
    thinking: {
      mode: 'adaptive-always-on',
      boundToConversation: true,
      efforts: ALL_EFFORTS,
      defaultEffort: 'medium'
    },
    refuses: STRICT_GENERATION,
    source: `${PRICING}; ${page('opus-5-5')}`,
    checkedOn: CATALOGUE_CHECKED_ON
  },
  {
    id: 'claude-haiku-5-5',
    aliases: [],
    name: 'Claude Haiku 5.5',
    status: 'current',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(0.1, 0.5, 0.125, 0.2, 0.01),
    // "for prompts over 100,000 tokens" (the model page's Pricing): 5x on every class.
    longPromptBand: { aboveTokens: 100_000, prices: sheet(0.5, 2.5, 0.625, 1, 0.05) },
    pricedSince: '2026-10-07',
    minCacheableTokens: 1024,
    thinking: { mode: 'adaptive', boundToConversation: true, efforts: ALL_EFFORTS, defaultEffort: 'medium' },
    refuses: STRICT_GENERATION,
    source: `${PRICING}; ${page('haiku-5-5')}`,
    checkedOn: CATALOGUE_CHECKED_ON
  },
  ...['fable', 'mythos'].map((family): CatalogueRow => ({
    id: `claude-${family}-5-1`,
    aliases: [],
    name: `Claude ${family === 'fable' ? 'Fable' : 'Mythos'} 5.1`,
    status: 'current',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    // Cache hits at 0.025x input (PRICING, footnote 1).
    prices: sheet(10, 50, 12.5, 20, 0.25),
    pricedSince: '2026-08-01',
    minCacheableTokens: 1024,
    thinking: {
      mode: 'adaptive-always-on',
      boundToConversation: true,
      efforts: ALL_EFFORTS,
      defaultEffort: 'high'
    },
    refuses: STRICT_GENERATION,
    source: `${PRICING}; ${page(`${family}-5-1`)}`,
    checkedOn: CATALOGUE_CHECKED_ON
  })),
  ...['fable', 'mythos'].map((family): CatalogueRow => ({
    id: `claude-${family}-5`,
    aliases: [],
    name: `Claude ${family === 'fable' ? 'Fable' : 'Mythos'} 5`,
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(10, 50, 12.5, 20, 1),
    pricedSince: '2026-06-09',
    minCacheableTokens: 1024,
    thinking: {
      mode: 'adaptive-always-on',
      boundToConversation: false,
      efforts: ALL_EFFORTS,
      defaultEffort: 'high'
    },
    refuses: ADAPTIVE_GENERATION,
    source: `${PRICING}; ${page(`${family}-5`)}`,
    checkedOn: CATALOGUE_CHECKED_ON
  })),
  {
    id: 'claude-opus-5',
    aliases: [],
    name: 'Claude Opus 5',
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(5, 25, 6.25, 10, 0.5),
    pricedSince: '2026-07-24',
    minCacheableTokens: 1024,
    thinking: { mode: 'adaptive', boundToConversation: false, efforts: ALL_EFFORTS, defaultEffort: 'high' },
    refuses: ADAPTIVE_GENERATION,
    source: `${PRICING}; ${page('opus-5')}`,
    checkedOn: CATALOGUE_CHECKED_ON
  },
  {
    id: 'claude-sonnet-5',
    aliases: [],
    name: 'Claude Sonnet 5',
    status: 'legacy',
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    prices: sheet(2, 10, 2.5, 4, 0.2),
    pricedSince: '2026-06-30',
    minCacheableTokens: 1024,
    thinking: { mode: 'adaptive', boundToConversation: false, efforts: ALL_EFFORTS, defaultEffort: 'high' },
    refuses: ADAPTIVE_GENERATION,
    source: `${PRICING}; ${page('sonnet-5')}`,
    checkedOn: CATALOGUE_CHECKED_ON
  },
  ...(
    [
      ['claude-opus-4-8', 'Claude Opus 4.8', 1_000_000, 128_000, []],
      ['claude-opus-4-7', 'Claude Opus 4.7', 1_000_000, 128_000, []],
      ['claude-opus-4-6', 'Claude Opus 4.6', 1_000_000, 128_000, []],
      ['claude-opus-4-5', 'Claude Opus 4.5', 200_000, 64_000, ['claude-opus-4-5-20251101']]
    ] as const
  ).map(([id, name, contextWindow, maxOutputTokens, aliases]): CatalogueRow => ({
    id,
    aliases,
    name,
    status: 'legacy',
    contextWindow,
    maxOutputTokens,
    prices: sheet(5, 25, 6.25, 10, 0.5),
    pricedSince: '2025-11-24',
    minCacheableTokens: 4096,
    thinking: manualThinking,
    refuses: PERMISSIVE,
    source: `${PRICING}; ${page(id.replace('claude-', ''))}`,
    checkedOn: CATALOGUE_CHECKED_ON
  })),
  ...(
    [
      ['claude-opus-4-1', 'Claude Opus 4.1', ['claude-opus-4-1-20250805']],
      ['claude-opus-4-0', 'Claude Opus 4', ['claude-opus-4-20250514']]
    ] as const
  ).map(([id, name, aliases]): CatalogueRow => ({
    id,
    aliases,
    name,
    status: 'retired-on-api',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    prices: sheet(15, 75, 18.75, 30, 1.5),
    pricedSince: '2025-05-22',
    minCacheableTokens: 1024,
    thinking: manualThinking,
    refuses: PERMISSIVE,
    source: PRICING,
    checkedOn: CATALOGUE_CHECKED_ON
  })),
  ...(
    [
      ['claude-sonnet-4-6', 'Claude Sonnet 4.6', 1_000_000, []],
      ['claude-sonnet-4-5', 'Claude Sonnet 4.5', 200_000, ['claude-sonnet-4-5-20250929']],
      ['claude-sonnet-4-0', 'Claude Sonnet 4', 200_000, ['claude-sonnet-4-20250514']]
    ] as const
  ).map(([id, name, contextWindow, aliases]): CatalogueRow => ({
    id,
    aliases,
    name,
    status: 'legacy',
    contextWindow,
    maxOutputTokens: 64_000,
    prices: sheet(3, 15, 3.75, 6, 0.3),
    pricedSince: '2025-05-22',
    minCacheableTokens: 1024,
    thinking: manualThinking,
    refuses: PERMISSIVE,
    source: PRICING,
    checkedOn: CATALOGUE_CHECKED_ON
  })),
  {
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
    source: `${PRICING}; ${page('haiku-4-5')}`,
    checkedOn: CATALOGUE_CHECKED_ON
  }
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
