import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { CompactionEvent } from '../compaction/compactor.js';
import type { TokenUsage } from '../model/usage.js';
import type { StopReason } from './stop-reason.js';

export interface RunResult {
  /** The model that ran and the date of the prices its cost uses. */
  readonly model: {
    readonly id: string;
    readonly name: string;
    readonly pricedSince: string | undefined;
    readonly checkedOn: string;
  };
  readonly stopReason: StopReason;
  readonly turns: number;
  readonly usage: TokenUsage;
  readonly costUsd: number;
  readonly durationMs: number;
  /** The model's final text, or what the loop can say about why it stopped. */
  readonly summary: string;
  readonly error: string | undefined;
  /** The run was stopped from outside (the runner's SIGINT or SIGTERM, Ctrl-C). */
  readonly cancelled: boolean;
  /** Prompt size of each response, for the context chart: compactions show as drops. */
  readonly contextTokensPerTurn: readonly number[];
  readonly compactionLog: readonly CompactionEvent[];
  /** Where auto-compaction started at the end of the run (the chart draws it); undefined without one. */
  readonly compactionThresholdTokens: number | undefined;
  readonly history: readonly MessageParam[];
  /** The final answer as compact JSON, matched against the run's json_schema (secrets redacted); undefined without one. */
  readonly structuredOutput?: string;
}
