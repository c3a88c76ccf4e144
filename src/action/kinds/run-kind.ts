import type { RunMode } from '../../agent/run-mode.js';
import type { ChangesOutcome } from '../../github/report/report.js';
import type { ReviewOutcome } from '../../review/post-review.js';
import type { RunProgress } from '../stages/action-context.js';
import type { AgentRun } from '../stages/agent-turns.js';
import type { PreparedWorkspace } from '../stages/prepare-workspace.js';
import type { KindReport } from '../stages/report.js';

/**
 * What a kind of run does with the agent's work: push it, post a plan, post a review. Each kind of
 * src/action/kinds/ builds one; the shared stages (stages/shared-stages.ts) run it.
 */
export interface RunKind {
  /**
   * The run's mode (read-only or not, its rules and tools), and its own task when it has one: decided
   * once the workspace is checked out (a review reads its pull request then, and checks that head).
   */
  prepare(workspace: PreparedWorkspace, progress: RunProgress): Promise<PreparedKind>;
  /** Names the publishing step in the progress line and in a fault report. */
  readonly publishStep: string;
  publish(workspace: PreparedWorkspace, agent: AgentRun): Promise<Published>;
}

export interface PreparedKind {
  readonly mode: RunMode;
  /** Replaces the start's task in the first message; the thread's context still follows it. */
  readonly task?: string;
}

export interface Published {
  readonly changes: ChangesOutcome;
  /** The kind's own parts of the report (the plan's heading and how to approve it). */
  readonly report?: KindReport;
  /** A review run's review, for the outputs. */
  readonly review?: ReviewOutcome;
  /** A line for the reply in the review thread a request was made in (the commit, the thread resolved). */
  readonly threadNote?: string;
  /** Publishing failed after the agent's work was done: the run is recorded and reported, then fails with this. */
  readonly failure?: string;
}
