import type { ModelPrices } from '../config/models.js';
import type { CompactionEvent } from '../compaction/compactor.js';
import { addUsage, costUsd, NO_USAGE, promptTokens, type TokenUsage } from '../model/usage.js';
import type { UsageRecord } from '../transcript/events.js';

/** The run's bookkeeping: turns, usage and cost (priced per request), context sizes, compactions. */
export class RunLedger {
  turns = 0;
  usage: TokenUsage = NO_USAGE;
  cost = 0;
  lastUsage: TokenUsage | undefined;
  readonly contextTokensPerTurn: number[] = [];
  readonly compactionLog: CompactionEvent[] = [];

  constructor(private readonly prices: ModelPrices) {}

  /** Adds one request's usage to the totals and returns its cost. */
  charge(usage: TokenUsage): number {
    const cost = costUsd(usage, this.prices);
    this.usage = addUsage(this.usage, usage);
    this.cost += cost;
    return cost;
  }

  /** An agent turn's answer: it is the new measured base of the context. */
  recordTurn(usage: TokenUsage): number {
    const cost = this.charge(usage);
    this.turns++;
    this.lastUsage = usage;
    this.contextTokensPerTurn.push(promptTokens(usage));
    return cost;
  }

  contextTokens(): number {
    return this.lastUsage ? promptTokens(this.lastUsage) + this.lastUsage.output : 0;
  }
}

export function usageRecord(usage: TokenUsage): UsageRecord {
  return {
    input: usage.input,
    cache_write: usage.cacheWrite,
    cache_read: usage.cacheRead,
    output: usage.output
  };
}
