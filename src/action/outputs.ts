import * as core from '@actions/core';
import type { SessionOutcome } from '../agent/session.js';
import type { ArtifactOutcome, ChangesOutcome } from '../github/report.js';

export type Conclusion = 'success' | 'failure' | 'skipped' | 'refused';

export interface RunOutputs {
  readonly conclusion: Conclusion;
  readonly session?: SessionOutcome;
  readonly changes?: ChangesOutcome;
  readonly artifact?: ArtifactOutcome;
  readonly commentId?: number;
}

/** Sets every output the README lists; a skipped or refused run still sets `conclusion`. */
export function publishOutputs(outputs: RunOutputs): void {
  core.setOutput('conclusion', outputs.conclusion);
  const result = outputs.session?.result;
  if (result) {
    core.setOutput('stop_reason', result.stopReason);
    core.setOutput('num_turns', result.turns);
    core.setOutput('compaction_count', result.compactionLog.length);
    core.setOutput('total_cost_usd', result.costUsd.toFixed(6));
    core.setOutput('input_tokens', result.usage.input);
    core.setOutput('output_tokens', result.usage.output);
    core.setOutput('cache_read_tokens', result.usage.cacheRead);
    core.setOutput('cache_write_tokens', result.usage.cacheWrite);
    core.setOutput('transcript_dir', outputs.session!.runDir);
    core.setOutput('transcript_head', outputs.session!.records.transcript.head);
  }
  const changes = outputs.changes;
  if (changes?.kind === 'pushed') {
    core.setOutput('branch_name', changes.branch);
    if (changes.pullRequestUrl) core.setOutput('pr_url', changes.pullRequestUrl);
  }
  if (outputs.commentId !== undefined) core.setOutput('comment_id', outputs.commentId);
  if (outputs.artifact?.kind === 'uploaded') core.setOutput('artifact_id', outputs.artifact.id);
}
