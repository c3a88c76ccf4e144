import type { StopReason } from '../agent/stop-reason.js';

/** One agent run for a shard: the task, the worktree it works in, and its budget. */
export interface ShardAgentRun {
  readonly shardId: string;
  readonly task: string;
  readonly workdir: string;
  readonly budgetUsd: number;
  /** Parent of the run folder (outside the worktree, so the transcript is never part of the patch). */
  readonly transcriptsDir: string;
  /** Folders outside the worktree its box must show read-only: the git objects the shard's repository borrows. */
  readonly readOnlyFolders: readonly string[];
}

export interface ShardAgentOutcome {
  readonly stopReason: StopReason;
  readonly costUsd: number;
  readonly error: string | undefined;
  /** Where its transcript is. */
  readonly runDir: string;
}

/**
 * How a shard runs its agent. The CLI and the action's shard job give the real session (src/fanout/session-shard-agent.ts); tests and
 * the benchmark give a scripted one. The fan-out engine never builds a model itself.
 */
export type ShardAgent = (run: ShardAgentRun) => Promise<ShardAgentOutcome>;
