import type { ServerClearSettings } from '../model/context-editing.js';
import type { MicroSettings } from './micro.js';
import type { SpillSettings } from './spill.js';

export interface CompactionSettings {
  readonly contextWindow: number;
  /** Auto-compaction starts past this many context tokens. */
  readonly thresholdTokens: number;
  /** max_tokens of a summary request. */
  readonly summaryMaxTokens: number;
  /** Auto-compaction is skipped when it would free less than this. */
  readonly minSavingsTokens: number;
  readonly micro: MicroSettings;
  /** The prompt cache's lifetime: after this long idle, clearing costs nothing extra. */
  readonly cacheTtlMs: number;
  /** Token budget of the recent messages kept verbatim after a compaction. */
  readonly keepTailTokens: number;
  /** How many recently read files are re-read from disk into the compacted history. */
  readonly restoreRecentFiles: number;
  readonly maxFileTokens: number;
  readonly maxRestoredTokens: number;
  /** Summary compactions allowed per run; past it, compaction drops the oldest turns without a model call. */
  readonly maxCompactions: number;
  /** Consecutive failed summary compactions that open the circuit breaker. */
  readonly maxConsecutiveFailures: number;
  /** Agent turns the open breaker waits before it tries one summary again (half-open). */
  readonly breakerCooldownTurns: number;
  /** Tries of the summary call within one compaction. */
  readonly summaryAttempts: number;
  readonly spill: SpillSettings;
  /** The next summary updates ours in the history instead of rewriting it (summary-anchor.ts). */
  readonly summaryUpdates: boolean;
  /**
   * Who writes the summary of auto and manual compaction: our summarizer (`client`), or the API's
   * on-demand compaction (`api`, see api-summarizer.ts). `auto` is resolved before (engine-choice.ts).
   */
  readonly engine: CompactionEngine;
  /**
   * Who clears old tool results: our micro layer (`client`: an edit of our history, which
   * invalidates the thinking after it) or the API's context editing (`server`: our history and its
   * thinking stay as sent; docs/compaction.md, "Keeping the model's reasoning").
   */
  readonly microBy: MicroBy;
  /** The API's clearing rule when `microBy` is `server`: from 0.7x the threshold, our micro numbers. */
  readonly serverClear: ServerClearSettings;
}

export type CompactionEngine = 'client' | 'api';
export type MicroBy = 'client' | 'server';

/**
 * With the API clearing, our summaries start later (1.5x the derived threshold) and the API clears
 * from 0.7x of it; a threshold the user sets stays where summaries start, and the API clears from
 * 0.7/1.5 of it: measured on the bench (docs/benchmarks/thinking-and-peers.md, "Keeping the reasoning").
 */
export const SERVER_MICRO = { summaryFactor: 1.5, triggerFactor: 0.7 } as const;

/**
 * Defaults chosen on `npm run bench` with its need model (docs/benchmarks/threshold.md, "Choosing the threshold"):
 * keep the two latest results, clear in batches of 3/10 of the threshold (waiting for a cheap moment,
 * see micro.ts), results from 100 tokens worth a placeholder, and the threshold from the rule below.
 * Keeping one result is 2% cheaper on the bench, but the bench only charges for facts 10 or more turns
 * old; a real agent often needs the result it read the turn before (docs/benchmarks/compaction-defaults.md).
 */
export const COMPACTION_DEFAULTS = {
  /** The threshold at a cache-read price of 0.1x input; it grows as reads get cheaper (see below). */
  thresholdAtTenthReads: 15_000,
  microKeepRecent: 2,
  microMinResultTokens: 100,
  keepTailTokens: 20_000,
  restoreRecentFiles: 5,
  maxCompactions: 50,
  minSavingsTokens: 20_000,
  /** The API clears old results, so the model keeps its reasoning (docs/benchmarks/thinking-and-peers.md). */
  microBy: 'server'
} as const;

/**
 * context_window - min(max_output, 20000) - 13000: room for the summary's output and the instruction.
 * Never below half the window, so small test windows still leave a working threshold.
 */
export function autoCompactThreshold(contextWindow: number, maxOutputTokens: number): number {
  const formula = contextWindow - Math.min(maxOutputTokens, 20_000) - 13_000;
  return Math.max(formula, Math.floor(contextWindow / 2));
}

/**
 * The default threshold, a rule over the window and the prices: carrying a context of C tokens costs
 * about r·C per turn in cache reads (r = cache-read price / input price), and a compaction costs a
 * summary plus re-reads of what it dropped, so the best threshold grows like 1/sqrt(r). Measured on
 * Sonnet 5.5 (r = 0.05): 20k, with micro keeping 2 results and a floor of 6k, keeps 90% cache reads
 * with no lost need (0.49x the reference at 300 turns, 0.44x at 1,000; docs/benchmarks/compaction-defaults.md); the rule gives
 * 15k at r = 0.1 and 30k at 0.025 (Fable 5.1), and at least 6 times the model's cache minimum (25k
 * on Haiku 4.5 and Opus 4.5/4.6). Capped by the window's own room for a summary.
 */
export function defaultThreshold(
  contextWindow: number,
  maxOutputTokens: number,
  cacheReadRatio: number,
  minCacheableTokens = 0
): number {
  const ratio = cacheReadRatio > 0 ? cacheReadRatio : 0.1;
  const byPrice =
    Math.floor((COMPACTION_DEFAULTS.thresholdAtTenthReads * Math.sqrt(0.1 / ratio)) / 5_000) * 5_000;
  // A context only a few times the model's cache minimum leaves too much of each request uncached
  // (Haiku 4.5, 4,096: 81% cache reads at 15k, 91% at 25k, and cheaper).
  const byCacheMinimum = Math.ceil((CACHE_MINIMUMS_PER_THRESHOLD * minCacheableTokens) / 5_000) * 5_000;
  return Math.min(autoCompactThreshold(contextWindow, maxOutputTokens), Math.max(byPrice, byCacheMinimum));
}

/** The default threshold is at least this many times the model's smallest cacheable prefix. */
const CACHE_MINIMUMS_PER_THRESHOLD = 6;

/** What users tune (the action's compaction inputs); everything else is derived. */
export interface CompactionTunables {
  readonly thresholdTokens?: number;
  readonly microKeepRecent?: number;
  readonly microClearAtLeast?: number;
  readonly microPreserveTools?: readonly string[];
  readonly keepTailTokens?: number;
  readonly restoreRecentFiles?: number;
  readonly maxCompactions?: number;
  readonly microBy?: MicroBy;
}

export interface CompactionOptions extends CompactionTunables {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  /** Cache-read price over input price (0.05 on Sonnet 5.5); 0.1 when not given. */
  readonly cacheReadRatio?: number;
  /** The model's smallest cacheable prefix (4,096 on Haiku 4.5); 0 when not given. */
  readonly minCacheableTokens?: number;
  readonly summaryUpdates?: boolean;
  readonly engine?: CompactionEngine;
}

/** Fills in every setting from the few the user can set. Floors scale down with small thresholds. */
export function compactionSettings(options: CompactionOptions): CompactionSettings {
  // The settings follow what the run's requests ask (session.ts decides, with the platform).
  const microBy = options.microBy ?? 'client';
  const explicit = options.thresholdTokens;
  const derived = defaultThreshold(
    options.contextWindow,
    options.maxOutputTokens,
    options.cacheReadRatio ?? 0.1,
    options.minCacheableTokens ?? 0
  );
  // A threshold the user set is where our summaries start, whoever clears; the API's clears and the
  // micro floor keep their measured ratios to it. The derived one moves up by summaryFactor when the
  // API clears (see SERVER_MICRO).
  const base =
    microBy === 'server' && explicit !== undefined
      ? Math.floor(explicit / SERVER_MICRO.summaryFactor)
      : (explicit ?? derived);
  const threshold =
    explicit ??
    (microBy === 'server'
      ? Math.min(
          Math.floor(derived * SERVER_MICRO.summaryFactor),
          autoCompactThreshold(options.contextWindow, options.maxOutputTokens)
        )
      : derived);
  const keepRecent = options.microKeepRecent ?? COMPACTION_DEFAULTS.microKeepRecent;
  const clearAtLeast = options.microClearAtLeast ?? Math.floor((base * 3) / 10);
  const scaled = (value: number, share: number) => Math.min(value, Math.floor(threshold * share));
  return {
    contextWindow: options.contextWindow,
    thresholdTokens: threshold,
    summaryMaxTokens: Math.min(options.maxOutputTokens, 20_000, Math.floor(options.contextWindow / 8)),
    minSavingsTokens: scaled(COMPACTION_DEFAULTS.minSavingsTokens, 0.1),
    micro: {
      keepRecent,
      // 3/10 of the threshold: batches big enough that the cached prefix holds between them (90%
      // cache reads with two results kept), small enough that little is carried (docs/benchmarks/threshold.md).
      clearAtLeast,
      minResultTokens: scaled(COMPACTION_DEFAULTS.microMinResultTokens, 0.01),
      preserveTools: options.microPreserveTools ?? []
    },
    cacheTtlMs: 5 * 60_000,
    keepTailTokens: options.keepTailTokens ?? scaled(COMPACTION_DEFAULTS.keepTailTokens, 0.15),
    restoreRecentFiles: options.restoreRecentFiles ?? COMPACTION_DEFAULTS.restoreRecentFiles,
    maxFileTokens: scaled(5_000, 0.03),
    maxRestoredTokens: scaled(25_000, 0.15),
    maxCompactions: options.maxCompactions ?? COMPACTION_DEFAULTS.maxCompactions,
    maxConsecutiveFailures: 3,
    breakerCooldownTurns: 10,
    summaryAttempts: 2,
    spill: { maxResultChars: 50_000, previewChars: 2_000 },
    summaryUpdates: options.summaryUpdates ?? true,
    engine: options.engine ?? 'client',
    microBy,
    serverClear: {
      triggerTokens: Math.floor(base * SERVER_MICRO.triggerFactor),
      keepToolUses: keepRecent,
      clearAtLeastTokens: clearAtLeast
    }
  };
}

/**
 * The settings for a smaller window than configured, once the API has said what it allows: the
 * threshold and every budget scaled to it, so a compaction still fits and still saves something.
 */
export function withLowerWindow(settings: CompactionSettings, maximumTokens: number): CompactionSettings {
  if (maximumTokens >= settings.contextWindow) return settings;
  const threshold = Math.min(
    settings.thresholdTokens,
    autoCompactThreshold(maximumTokens, settings.summaryMaxTokens)
  );
  const scaled = (value: number, share: number) => Math.min(value, Math.floor(threshold * share));
  return {
    ...settings,
    contextWindow: maximumTokens,
    thresholdTokens: threshold,
    summaryMaxTokens: Math.min(settings.summaryMaxTokens, Math.floor(maximumTokens / 8)),
    minSavingsTokens: scaled(settings.minSavingsTokens, 0.1),
    micro: { ...settings.micro, clearAtLeast: scaled(settings.micro.clearAtLeast, 0.12) },
    keepTailTokens: scaled(settings.keepTailTokens, 0.15),
    maxFileTokens: scaled(settings.maxFileTokens, 0.03),
    maxRestoredTokens: scaled(settings.maxRestoredTokens, 0.15)
  };
}
