import * as core from '@actions/core';
import type { LimitName } from '../agent/limits.js';
import type { BlockedAttempt } from '../sandbox/blocked-log.js';
import type { SessionOutcome } from '../agent/session.js';
import { countCompactions } from '../compaction/compaction-count.js';
import type { ArtifactOutcome, ChangesOutcome } from '../github/report/report.js';
import type { ReviewOutcome } from '../review/post-review.js';

/**
 * How the run ended, for a later step. `limit`: it stopped at a limit (its partial work published
 * and reported as any run's), or its thread's budget was spent before it started; `limit` says which.
 */
export type Conclusion = 'success' | 'limit' | 'failure' | 'skipped' | 'refused';

export interface RunOutputs {
  readonly conclusion: Conclusion;
  /** The limit a `limit` conclusion is about. */
  readonly limit?: LimitName;
  /** What the thread's runs cost in all, this one included (see followup/thread-budget.ts). */
  readonly threadCostUsd?: number;
  readonly session?: SessionOutcome;
  readonly changes?: ChangesOutcome;
  readonly artifact?: ArtifactOutcome;
  readonly commentId?: number;
  /** A review run's review: its id and counts. */
  readonly review?: ReviewOutcome;
  /**
   * Why the run changed nothing, when it ended before the agent (a skip, a run that did not start);
   * for a finished run it is read from `changes`.
   */
  readonly noChangeReason?: string;
  /** A fan-out plan job's plan: its id, this wave's matrix JSON and shard count, the waves after it. */
  readonly fanoutPlan?: {
    readonly planId: string;
    readonly matrix: string;
    readonly shardCount: number;
    readonly wavesLeft: number;
  };
}

/** Every output action.yml declares, in its order (a test checks the two agree). */
export const OUTPUT_NAMES = [
  'conclusion',
  'limit',
  'thread_cost_usd',
  'stop_reason',
  'num_turns',
  'compaction_count',
  'compaction_counts',
  'total_cost_usd',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'transcript_dir',
  'transcript_head',
  'branch_name',
  'pr_url',
  'no_change_reason',
  'comment_id',
  'artifact_id',
  'review_id',
  'review_counts',
  'structured_output',
  'denied_tool_calls',
  'blocked_hosts',
  'sandbox',
  'fanout_plan_id',
  'fanout_matrix',
  'fanout_shard_count',
  'fanout_waves_left'
] as const;

export type OutputName = (typeof OUTPUT_NAMES)[number];

/** Where an output goes: @actions/core before the agent ran, the runner-files guard after it. */
export type OutputSink = (name: string, value: string | number) => void;

/**
 * Sets every output action.yml declares, an empty one where the run has no value. Nothing is left
 * unset on purpose: a value someone else set for this step earlier (the agent's processes could write
 * a `::set-output` line or into GITHUB_OUTPUT while they ran) is overwritten by the action's own.
 */
export function publishOutputs(outputs: RunOutputs, setOutput: OutputSink = core.setOutput): void {
  const values = outputValues(outputs);
  for (const name of OUTPUT_NAMES) setOutput(name, values[name] ?? '');
}

/** The outputs a run has values for; the others are empty. */
export function outputValues(outputs: RunOutputs): Partial<Record<OutputName, string | number>> {
  const values: Partial<Record<OutputName, string | number>> = { conclusion: outputs.conclusion };
  if (outputs.limit !== undefined) values.limit = outputs.limit;
  if (outputs.threadCostUsd !== undefined) values.thread_cost_usd = outputs.threadCostUsd.toFixed(6);
  const session = outputs.session;
  if (session) {
    const result = session.result;
    // The same count the report shows: every logged event, spills included, and by layer.
    const compactions = countCompactions(result.compactionLog);
    Object.assign(values, {
      stop_reason: result.stopReason,
      num_turns: result.turns,
      compaction_count: compactions.total,
      compaction_counts: JSON.stringify(compactions.byLayer),
      total_cost_usd: result.costUsd.toFixed(6),
      input_tokens: result.usage.input,
      output_tokens: result.usage.output,
      cache_read_tokens: result.usage.cacheRead,
      cache_write_tokens: result.usage.cacheWrite,
      transcript_dir: session.runDir,
      transcript_head: session.records.transcript.head,
      // What the tool limits refused, as the report lists it: [] when nothing was.
      denied_tool_calls: JSON.stringify(session.deniedCalls ?? [])
    });
    if (session.sandbox) {
      values.sandbox = session.sandbox.state;
      if (session.sandbox.state === 'on')
        values.blocked_hosts = JSON.stringify(blockedHostsOutput(session.sandbox.blocked));
    }
    if (result.structuredOutput !== undefined) values.structured_output = result.structuredOutput;
  }
  const changes = outputs.changes;
  if (changes?.kind === 'pushed') {
    values.branch_name = changes.branch;
    if (changes.pullRequestUrl) values.pr_url = changes.pullRequestUrl;
  }
  const noChange = outputs.noChangeReason ?? noChangeReason(outputs);
  if (noChange !== undefined) values.no_change_reason = noChange;
  if (outputs.commentId !== undefined) values.comment_id = outputs.commentId;
  if (outputs.review) {
    const { review, summary, resolved, replied } = outputs.review;
    if (review) values.review_id = review.id;
    values.review_counts = JSON.stringify({
      inline: summary.inline,
      in_body: summary.inBody,
      already_said: summary.alreadySaid,
      skipped_files: summary.skippedFiles.length,
      threads_resolved: resolved,
      threads_answered: replied
    });
  }
  if (outputs.artifact?.kind === 'uploaded') values.artifact_id = outputs.artifact.id;
  if (outputs.fanoutPlan) {
    values.fanout_plan_id = outputs.fanoutPlan.planId;
    values.fanout_matrix = outputs.fanoutPlan.matrix;
    values.fanout_shard_count = String(outputs.fanoutPlan.shardCount);
    values.fanout_waves_left = String(outputs.fanoutPlan.wavesLeft);
  }
  return values;
}

/**
 * Why a finished run pushed nothing and posted no patch, in words a later step or a person reading
 * the outputs can act on (the report says the same in its changes section); undefined when it did.
 */
function noChangeReason(outputs: RunOutputs): string | undefined {
  const { changes, session } = outputs;
  if (changes?.kind === 'read-only')
    return changes.mode === 'plan'
      ? 'a plan run changes nothing: approve the plan with /agent go, or ask for changes to it'
      : 'a review run changes nothing: its findings are in the review';
  if (changes?.kind !== 'none') return undefined;
  if (changes.withheld?.length)
    return (
      `only workflow files were changed (${changes.withheld.join(', ')}), and allow_workflow_changes is ` +
      'off, so they were withheld and nothing was pushed'
    );
  if (changes.withheldSubmodules?.length)
    return (
      `only submodules were added or changed (${changes.withheldSubmodules.join(', ')}), and allow_submodule_changes ` +
      'is off, so they were withheld and nothing was pushed'
    );
  const stop = session?.result.stopReason;
  if (stop !== undefined && stop !== 'success')
    return `the run stopped with ${stop} before the agent changed any file`;
  return 'the agent changed no files (its summary in the report says why)';
}

/** The `blocked_hosts` output: the report's list, with snake_case keys as the other JSON outputs. */
function blockedHostsOutput(blocked: readonly BlockedAttempt[]) {
  return blocked.map((attempt) => ({
    host: attempt.host,
    port: attempt.port,
    count: attempt.count,
    first_command: attempt.firstCommand,
    reason: attempt.reason
  }));
}
