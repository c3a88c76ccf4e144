import path from 'node:path';
import { parseTranscript } from '../audit/parse-transcript.js';
import { verifyChain } from '../transcript/verify-chain.js';
import type { ShardResult } from './shard-result.js';

/** One agent run's transcript as a shard's artifact holds it: `transcripts/<run>/transcript.jsonl`. */
export interface ShardTranscript {
  /** The run folder's name: the run id. */
  readonly run: string;
  readonly text: string;
}

/**
 * The most a result's cost may differ from its transcripts' sum: a cent, as the audit ledger judges a
 * report's cost against its transcript (src/audit/ledger/audit-run.ts). Both are the same sums of the
 * same responses' costs, so anything more is a different figure.
 */
export const COST_TOLERANCE_USD = 0.01;

/**
 * Why a shard's result cannot be trusted for its cost, or undefined when it can. A shard job writes
 * its result, and the land job spends the rest of the cap by it: a result that says less than its
 * runs cost would let a resume overspend the cap. So the cost must be the sum of the costs its
 * transcripts record (each run's `run_end` cost, or the last response's running total when the run
 * did not end), each transcript's hash chain must be whole (verifyChain), every run the result names
 * must have its transcript, and every transcript must be a run the result names. The land role marks
 * a shard with such a problem `rejected`.
 */
export function resultCostProblem(
  result: Pick<ShardResult, 'costUsd' | 'runs'>,
  transcripts: readonly ShardTranscript[]
): string | undefined {
  const named = result.runs.map((runDir) => path.basename(runDir));
  const repeated = named.find((run, index) => named.indexOf(run) !== index);
  if (repeated !== undefined) return `its result names the run ${repeated} twice`;
  const byRun = new Map<string, ShardTranscript>();
  for (const transcript of transcripts) {
    if (byRun.has(transcript.run)) return `its artifact holds two transcripts of the run ${transcript.run}`;
    byRun.set(transcript.run, transcript);
  }
  const missing = named.find((run) => !byRun.has(run));
  if (missing !== undefined)
    return `its result names the run ${missing}, whose transcript is not in its artifact, so its cost cannot be checked`;
  const unnamed = transcripts.find((transcript) => !named.includes(transcript.run));
  if (unnamed !== undefined)
    return `its artifact holds the transcript of the run ${unnamed.run}, which its result does not count`;
  let recorded = 0;
  for (const run of named) {
    const cost = transcriptCost(byRun.get(run)!);
    if (typeof cost === 'string') return cost;
    recorded += cost;
  }
  if (Math.abs(recorded - result.costUsd) > COST_TOLERANCE_USD)
    return (
      `its result says it cost $${result.costUsd.toFixed(4)}, but its transcripts record $${recorded.toFixed(4)}: ` +
      'the cost was changed after the runs (a forged result)'
    );
  return undefined;
}

/** The cost one transcript records, or why it cannot be believed. */
function transcriptCost(transcript: ShardTranscript): number | string {
  const chain = verifyChain(transcript.text);
  switch (chain.status) {
    case 'broken':
      return `the transcript of the run ${transcript.run} was changed: line ${chain.line} of ${chain.lines}, ${chain.reason}`;
    case 'not_transcript':
      return `the transcript of the run ${transcript.run} is not a transcript (${chain.reason})`;
    case 'unchained':
      return `the transcript of the run ${transcript.run} has no hash chain, so its cost cannot be checked`;
    case 'intact':
      break;
  }
  const audit = parseTranscript(transcript.text);
  if (audit.runId !== undefined && audit.runId !== transcript.run)
    return `the transcript in the folder of the run ${transcript.run} is the run ${audit.runId}'s`;
  return audit.costUsd;
}
