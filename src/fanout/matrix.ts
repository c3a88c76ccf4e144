import { FanoutInputError } from './fanout-error.js';

/**
 * "A matrix will generate a maximum of 256 jobs per workflow run. This limit applies to both
 * GitHub-hosted and self-hosted runners." (https://docs.github.com/en/actions/reference/limits,
 * checked 2026-11-28). Past it, the shards run in waves.
 */
export const MATRIX_JOB_LIMIT = 256;

/**
 * "Outputs can be a maximum of 1 MB per job. The total of all outputs in a workflow run can be a
 * maximum of 50 MB. Size is approximated based on UTF-16 encoding." (GitHub docs, reusable
 * output-limitations.md, shown under workflow syntax `jobs.<job_id>.outputs`, checked 2026-11-28).
 * A wave's matrix stays far below: the plan job has other outputs, and the limit is per job.
 */
export const MAX_MATRIX_OUTPUT_BYTES = 64 * 1024;

/** One wave's matrix, for `strategy.matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}`. */
export interface MatrixWave {
  readonly shard: readonly string[];
}

/** The shard ids split into waves of at most 256 jobs, each as the JSON a job output carries. */
export function matrixWaves(shardIds: readonly string[], jobLimit = MATRIX_JOB_LIMIT): string[] {
  if (shardIds.length === 0) throw new FanoutInputError('A matrix needs at least one shard.');
  const waves: string[] = [];
  for (let start = 0; start < shardIds.length; start += jobLimit) {
    const wave: MatrixWave = { shard: shardIds.slice(start, start + jobLimit) };
    const json = JSON.stringify(wave);
    if (utf16Bytes(json) > MAX_MATRIX_OUTPUT_BYTES)
      throw new FanoutInputError(
        `Wave ${waves.length + 1}'s matrix would be ${utf16Bytes(json)} bytes, over the ${MAX_MATRIX_OUTPUT_BYTES} ` +
          'kept for a job output: shard ids must stay short.'
      );
    waves.push(json);
  }
  return waves;
}

/** GitHub approximates an output's size in UTF-16: two bytes a code unit. */
function utf16Bytes(text: string): number {
  return text.length * 2;
}
