import type { AuditSandbox } from './sandbox-audit.js';
import type { CompactionEvent } from '../compaction/compactor.js';
import type { UsageRecord } from '../transcript/events.js';

/** One tool call of a turn, with its result (when the transcript has it). */
export interface AuditToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /** The text the model got back; undefined when the transcript ends before it. */
  readonly output: string | undefined;
  readonly isError: boolean;
  readonly durationMs: number | undefined;
}

/** One model turn: what the model said and did, and what it cost. */
export interface AuditTurn {
  readonly turn: number;
  readonly text: string;
  readonly toolCalls: readonly AuditToolCall[];
  readonly stopReason: string | null;
  readonly contextTokens: number | undefined;
  readonly costUsd: number | undefined;
  readonly time: string | undefined;
}

export interface AuditToolStats {
  readonly name: string;
  readonly calls: number;
  readonly failures: number;
}

/** A line of the transcript that could not be used, and why. */
export interface SkippedLine {
  readonly line: number;
  readonly reason: string;
}

/**
 * Everything a reviewer asks of a run, read from its transcript: what the agent did and why, what it
 * forgot and when, and what it cost. Built by parseTranscript; rendered to the terminal, JSON and HTML.
 */
export interface RunAudit {
  readonly runId: string | undefined;
  readonly task: string | undefined;
  /** What the run's thread asked, as run_start recorded it (absent outside a thread, or when malformed). */
  readonly thread:
    | {
        readonly originalTask: string;
        readonly requests: readonly string[];
        /** The thread, the workflow run and the pull request on GitHub, as run_start recorded them (older runs: none). */
        readonly links: { readonly thread?: string; readonly run?: string; readonly pull_request?: string };
      }
    | undefined;
  readonly model: string | undefined;
  readonly stopReason: string | undefined;
  readonly error: string | undefined;
  readonly summary: string | undefined;
  readonly turns: number;
  readonly durationMs: number | undefined;
  readonly startedAt: string | undefined;
  readonly usage: UsageRecord;
  readonly costUsd: number;
  readonly contextWindow: number | undefined;
  /** Auto-compaction starts past this many context tokens; recorded by run_start since it was added. */
  readonly compactionThresholdTokens: number | undefined;
  /** Prompt tokens of each response, in turn order: the context chart. */
  readonly contextTokensPerTurn: readonly { readonly turn: number; readonly tokens: number }[];
  readonly compactions: readonly CompactionEvent[];
  readonly toolStats: readonly AuditToolStats[];
  /** The files changed on balance (written by the file tools, less what the shell removed): see net-files.ts. */
  readonly filesChanged: readonly string[];
  readonly timeline: readonly AuditTurn[];
  /** True when the transcript has no run_end line (a crash, a kill, or a truncated file). */
  readonly incomplete: boolean;
  /** The box and what its proxy refused (absent in transcripts from before the box, and in fixtures). */
  readonly sandbox?: AuditSandbox | undefined;
  readonly skippedLines: readonly SkippedLine[];
  readonly lineCount: number;
}
