import type { ModelPrices } from '../src/config/models.js';
import { costUsd, type TokenUsage } from '../src/model/usage.js';
import { FACT_KINDS, type FactKind } from './needs.js';
import { meanShare } from './thinking.js';
import type { RequestRecord, RunRecord } from './run-strategy.js';

/** The figures of one strategy at one size: the JSON the issue asks for, plus the detail behind it. */
export interface Figures {
  readonly usd: number;
  readonly tokens: {
    readonly input: number;
    readonly cache_write: number;
    readonly cache_read: number;
    readonly output: number;
  };
  /** Cache reads over all input, on agent turns whose history no compaction had just changed. */
  readonly cache_read_share: number;
  readonly peak_context: number;
  readonly overflows: number;
  /** The agent turn of the first overflow (the `none` strategy's figure), or null. */
  readonly first_overflow_turn: number | null;
  readonly compactions: number;
  readonly compactions_by_layer: Readonly<Record<string, number>>;
  /** Summary requests' cost over the total. */
  readonly summary_share: number;
  /** Mean |estimate - actual| / actual over agent requests the strategy estimated; null without estimates. */
  readonly estimator_error: number | null;
  readonly estimator_error_p95: number | null;
  /** Filled in from the CPU measurement (at 150k tokens of history), the same for every size. */
  cpu_ms_p50: number | null;
  cpu_ms_p95: number | null;
  /** usd over the cost floor of this size. */
  floor_ratio: number;
  readonly usd_per_turn: number;
  /** Share of probed requests (after a compaction) that held the task, every changed file and the latest failure. */
  readonly retention: number;
  readonly retention_detail: {
    readonly probed: number;
    readonly task: number;
    readonly files: number;
    readonly failure: number;
  };
  readonly agent_turns: number;
  readonly stop_reason: string;
  /** Share of usd spent on re-fetch turns (their whole request: input, cache, output). */
  readonly reread_share: number;
  /** Turns spent re-fetching forgotten facts, on top of the planned ones. */
  readonly extra_turns: number;
  /** Needs whose fact was gone and could not be fetched again. */
  readonly lost_needs: number;
  readonly needs: number;
  readonly needs_by_kind: Readonly<Record<FactKind, NeedCounts>>;
  /**
   * For each agent request from the 11th on, the share of the thinking blocks written in the previous
   * 10 turns that the model still reads, averaged (bench/thinking.ts). 1 with no compaction.
   */
  readonly thinking_kept_share: number;
  /** Thinking the client stripped after its own edits of earlier history (blocks, tokens). */
  readonly thinking_stripped_blocks: number;
  readonly thinking_stripped_tokens: number;
}

export interface NeedCounts {
  readonly needs: number;
  readonly refetched: number;
  readonly lost: number;
}

export function usageOf(records: readonly RequestRecord[]): TokenUsage {
  return records.reduce(
    (sum, record) => ({
      input: sum.input + record.input,
      cacheWrite: sum.cacheWrite + record.cacheWrite,
      cacheRead: sum.cacheRead + record.cacheRead,
      output: sum.output + record.output
    }),
    { input: 0, cacheWrite: 0, cacheRead: 0, output: 0 }
  );
}

/** Priced request by request, as the API bills: a price band depends on each request's prompt. */
export function costOf(records: readonly RequestRecord[], prices: ModelPrices): number {
  return records.reduce((sum, record) => sum + costUsd(usageOf([record]), prices), 0);
}

/**
 * The cost floor: every new token written once at the cache-write price, plus the outputs. New
 * tokens are the first request whole, then each turn's new tool results and the reply before them.
 */
export function costFloor(run: RunRecord, prices: ModelPrices): number {
  const agent = run.requests.filter((record) => record.kind === 'agent');
  const written = agent.reduce((sum, record) => sum + record.newTokens, 0);
  const output = agent.reduce((sum, record) => sum + record.output, 0);
  return (written * prices.cacheWritePerMTok + output * prices.outputPerMTok) / 1_000_000;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Computes a run's figures. `floorUsd` is the size's floor (the cheapest floor among the strategies). */
export function figuresOf(run: RunRecord, prices: ModelPrices, floorUsd: number): Figures {
  const all = usageOf(run.requests);
  const usd = costOf(run.requests, prices);
  const summaryUsd = costOf(
    run.requests.filter((record) => record.kind === 'summary'),
    prices
  );
  const steady = usageOf(run.requests.filter((record) => record.kind === 'agent' && !record.afterCompaction));
  const steadyInput = steady.input + steady.cacheWrite + steady.cacheRead;
  const errors = run.requests.flatMap((record) =>
    record.kind === 'agent' && record.estimate !== undefined && record.promptTokens > 0
      ? [Math.abs(record.estimate - record.promptTokens) / record.promptTokens]
      : []
  );
  const byLayer: Record<string, number> = { ...run.serverEvents };
  for (const event of run.compactions) byLayer[event.layer] = (byLayer[event.layer] ?? 0) + 1;
  const compactions = Object.values(byLayer).reduce((sum, count) => sum + count, 0);
  const retention = retentionOf(run);
  return {
    usd,
    tokens: { input: all.input, cache_write: all.cacheWrite, cache_read: all.cacheRead, output: all.output },
    cache_read_share: steadyInput > 0 ? steady.cacheRead / steadyInput : 0,
    peak_context: Math.max(0, ...run.requests.map((record) => record.promptTokens)),
    overflows: run.overflows,
    first_overflow_turn: run.firstOverflowTurn ?? null,
    compactions,
    compactions_by_layer: byLayer,
    summary_share: usd > 0 ? summaryUsd / usd : 0,
    estimator_error: errors.length > 0 ? errors.reduce((a, b) => a + b, 0) / errors.length : null,
    estimator_error_p95: errors.length > 0 ? percentile(errors, 95) : null,
    cpu_ms_p50: null,
    cpu_ms_p95: null,
    floor_ratio: floorUsd > 0 ? usd / floorUsd : 0,
    usd_per_turn: run.agentTurns > 0 ? usd / run.agentTurns : 0,
    retention: retention.share,
    retention_detail: retention.detail,
    agent_turns: run.agentTurns,
    stop_reason: run.stopReason,
    reread_share: usd > 0 ? refetchCost(run.requests, prices) / usd : 0,
    extra_turns: run.requests.filter((record) => record.refetch).length,
    lost_needs: run.needs.filter((need) => need.outcome === 'lost').length,
    needs: run.needs.length,
    needs_by_kind: needsByKind(run),
    thinking_kept_share: meanShare(run.thinkingShares),
    thinking_stripped_blocks: run.thinkingStrippedBlocks,
    thinking_stripped_tokens: Math.round(run.thinkingStrippedTokens)
  };
}

/**
 * What the re-fetch turns added: each reads the context and writes only its own new tokens. A cache
 * rewrite on that request (a compaction just before it) is the compaction's: the planned turn would
 * have paid it without the re-fetch, so those tokens are priced as reads here.
 */
export function refetchCost(records: readonly RequestRecord[], prices: ModelPrices): number {
  const own = records
    .filter((record) => record.refetch)
    .map((record) => {
      const written = Math.min(record.cacheWrite, record.newTokens);
      return { ...record, cacheWrite: written, cacheRead: record.cacheRead + record.cacheWrite - written };
    });
  return costOf(own, prices);
}

function needsByKind(run: RunRecord): Record<FactKind, NeedCounts> {
  const counts = {} as Record<FactKind, NeedCounts>;
  for (const kind of FACT_KINDS) {
    const ofKind = run.needs.filter((need) => need.kind === kind);
    counts[kind] = {
      needs: ofKind.length,
      refetched: ofKind.filter((need) => need.outcome === 'refetched').length,
      lost: ofKind.filter((need) => need.outcome === 'lost').length
    };
  }
  return counts;
}

/**
 * Retention is probed on the first agent request after each compaction turn: the task verbatim,
 * every file changed so far, and the latest failed command, somewhere in what the model is sent.
 */
export function retentionOf(run: RunRecord): { share: number; detail: Figures['retention_detail'] } {
  const compactedTurns = new Set(run.compactions.map((event) => event.turn));
  const probed = run.probes.filter((probe) => compactedTurns.has(probe.turn));
  const task = probed.filter((probe) => probe.task).length;
  const files = probed.filter((probe) => probe.filesFound === probe.filesChanged).length;
  const failure = probed.filter((probe) => probe.failureFound).length;
  const kept = probed.filter(
    (probe) => probe.task && probe.filesFound === probe.filesChanged && probe.failureFound
  ).length;
  return {
    share: probed.length > 0 ? kept / probed.length : 1,
    detail: { probed: probed.length, task, files, failure }
  };
}
