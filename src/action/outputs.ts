import * as core from '@actions/core';
import type { SessionOutcome } from '../agent/session.js';
import { countCompactions } from '../compaction/compaction-count.js';
import type { ArtifactOutcome, ChangesOutcome } from '../github/report.js';

export type Conclusion = 'success' | 'failure' | 'skipped' | 'refused';

export interface RunOutputs {
  readonly conclusion: Conclusion;
  readonly session?: SessionOutcome;
  readonly changes?: ChangesOutcome;
  readonly artifact?: ArtifactOutcome;
  readonly commentId?: number;
}

/** Where an output goes: @actions/core before the agent ran, the runner-files guard after it. */
export type OutputSink = (name: string, value: string | number) => void;

/** Sets every output the README lists; a skipped or refused run still sets `conclusion`. */
export function publishOutputs(outputs: RunOutputs, setOutput: OutputSink = core.setOutput): void {
  setOutput('conclusion', outputs.conclusion);
  const result = outputs.session?.result;
  if (result) {
    setOutput('stop_reason', result.stopReason);
    setOutput('num_turns', result.turns);
    // The same count the report shows: every logged event, spills included, and by layer.
    const compactions = countCompactions(result.compactionLog);
    setOutput('compaction_count', compactions.total);
    setOutput('compaction_counts', JSON.stringify(compactions.byLayer));
    setOutput('total_cost_usd', result.costUsd.toFixed(6));
    setOutput('input_tokens', result.usage.input);
    setOutput('output_tokens', result.usage.output);
    setOutput('cache_read_tokens', result.usage.cacheRead);
    setOutput('cache_write_tokens', result.usage.cacheWrite);
    setOutput('transcript_dir', outputs.session!.runDir);
    setOutput('transcript_head', outputs.session!.records.transcript.head);
  }
  const changes = outputs.changes;
  if (changes?.kind === 'pushed') {
    setOutput('branch_name', changes.branch);
    if (changes.pullRequestUrl) setOutput('pr_url', changes.pullRequestUrl);
  }
  if (outputs.commentId !== undefined) setOutput('comment_id', outputs.commentId);
  if (outputs.artifact?.kind === 'uploaded') setOutput('artifact_id', outputs.artifact.id);
}
