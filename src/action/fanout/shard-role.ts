import * as core from '@actions/core';
import path from 'node:path';
import { readPlan, shardArtifactIds, uploadShardResult } from '../../artifacts/fanout-contents.js';
import { boxedValidation } from '../../fanout/boxed-validation.js';
import { FanoutInputError } from '../../fanout/fanout-error.js';
import { sessionShardAgent } from '../../fanout/session-shard-agent.js';
import { runShard } from '../../fanout/shard-run.js';
import type { ShardResult } from '../../fanout/shard-result.js';
import { GitRepository } from '../../git/repository.js';
import { guardRepository } from '../../git/repository-guard.js';
import { guardRunnerFiles, type RunnerFilesGuard } from '../../security/runner-files.js';
import { publishOutputs, type Conclusion } from '../outputs.js';
import { guardedOutputs, warnRestoredRunnerFiles } from '../stages/runner-output.js';
import type { FanoutJob } from './fanout-job.js';

/** How long a shard's validation command may run, each time. */
const VALIDATION_TIMEOUT_MS = 10 * 60_000;

/**
 * A shard job: reads the plan this run's plan job uploaded (checked against this repository and
 * workflow), runs the engine's runShard for its shard in a worktree of the checkout (the agent in
 * the box, with the shard's budget from the manifest; the validation command in the box too), and
 * uploads the result with its transcripts. It makes no GitHub write: the land job is the only writer.
 */
export async function runShardRole(job: FanoutJob, shardId: string): Promise<void> {
  const { action } = job;
  const plan = await readPlan(job.artifacts, job.origin, job.scratch);
  if (plan === undefined)
    throw new FanoutInputError(
      "This run has no fan-out plan (the artifact compact-agent-fanout-plan): the shard job must run after the plan job's " +
        'success (needs: plan) in the same workflow run.'
    );
  const { manifest } = plan;
  const shard = manifest.shards.find((candidate) => candidate.id === shardId);
  if (shard === undefined)
    throw new FanoutInputError(
      `fanout_shard ${shardId} is not a shard of plan ${manifest.planId} (it has ${manifest.shards[0]!.id} to ` +
        `${manifest.shards.at(-1)!.id}). Set fanout_shard: \${{ matrix.shard }} with the plan job's fanout_matrix.`
    );
  await refuseSecondAttempt(job, shardId);
  const repo = new GitRepository(action.runner.workspace);
  const base = await repo.head();
  const transcriptsDir = path.join(job.scratch, 'transcripts');
  const { result, runnerFiles } = await withAgentGuards(job, () =>
    runShard({
      repo,
      base,
      manifest,
      shard,
      budgetUsd: shard.budgetUsd,
      agent: sessionShardAgent({
        config: action.config.agent,
        env: action.env,
        redact: action.redact,
        signal: new AbortController().signal,
        onNotice: (line) => core.info(line)
      }),
      transcriptsDir,
      validation: boxedValidation(action.config.agent, action.env, (line) => core.info(action.redact(line))),
      validationTimeoutMs: VALIDATION_TIMEOUT_MS,
      signal: new AbortController().signal,
      onSpend: (cost) => core.info(`${shard.id}: an agent run cost $${cost.toFixed(4)}.`)
    })
  );
  // Written by this process after the box is gone: the agent never held the result or the token.
  await uploadShardResult(job.artifacts, result, transcriptsDir, job.scratch);
  reportShard(result, guardedOutputs(runnerFiles));
}

/**
 * What an agent run in the action always has around it: the checkout's push credential out of
 * git's config, the runner's file commands recorded (put back afterwards), and the runner deaf to
 * workflow commands on the step's output while the agent's processes run.
 */
async function withAgentGuards(
  job: FanoutJob,
  work: () => Promise<ShardResult>
): Promise<{ result: ShardResult; runnerFiles: RunnerFilesGuard }> {
  const { action } = job;
  const guard = await guardRepository(new GitRepository(action.runner.workspace), action.config.github.token);
  const runnerFiles = guardRunnerFiles(action.env);
  action.commands.pause();
  try {
    return { result: await work(), runnerFiles };
  } finally {
    await action.commands.resume();
    guard.reclaim();
    warnRestoredRunnerFiles(runnerFiles);
  }
}

function reportShard(result: ShardResult, setOutput: (name: string, value: string | number) => void): void {
  const conclusion: Conclusion =
    result.status === 'done' ? 'success' : result.status === 'over-budget' ? 'limit' : 'failure';
  publishOutputs(
    {
      conclusion,
      ...(result.status === 'over-budget' ? { limit: 'budget' as const } : {}),
      ...(result.status !== 'done'
        ? { noChangeReason: `${result.shardId} ${result.status}: ${result.error ?? result.stopReason}` }
        : {})
    },
    setOutput
  );
  const line =
    `${result.shardId}: ${result.status} ($${result.costUsd.toFixed(4)} of $${result.budgetUsd.toFixed(2)}, ` +
    `${result.files.length} file(s)${result.refusedPaths.length > 0 ? `, ${result.refusedPaths.length} out-of-scope edit(s) refused` : ''}` +
    `${result.validation ? `, validation ${result.validation.passed ? 'passed' : 'failed'}` : ''}).`;
  if (result.status === 'done') core.info(line);
  else
    core.setFailed(
      `${line} ${result.error ?? result.stopReason}. The land job lands the others; resume this run for it.`
    );
}

/**
 * A shard runs once per workflow run: a "re-run failed jobs" (GITHUB_RUN_ATTEMPT above 1) would
 * spend its budget again past what the land job counts, and its upload of the same artifact name
 * fails; a result already uploaded means the shard ran. A resume (a new run) is the way to go on.
 */
async function refuseSecondAttempt(job: FanoutJob, shardId: string): Promise<void> {
  const { action } = job;
  const attempt = Number(action.env.GITHUB_RUN_ATTEMPT ?? '1');
  const why =
    attempt > 1
      ? `this is attempt ${attempt} of run ${action.runner.runId} (a re-run of its jobs)`
      : (await shardArtifactIds(job.artifacts)).includes(shardId)
        ? `run ${action.runner.runId} already has ${shardId}'s result`
        : undefined;
  if (why === undefined) return;
  throw new FanoutInputError(
    `${shardId} does not run again in the same workflow run: ${why}, and a second run would spend its ` +
      'budget again past the cap. Resume instead: dispatch the workflow again with its input ' +
      `resume_run: ${action.runner.runId} (the action's input fanout_resume), which runs only the shards ` +
      'not landed, with what is left of the cap.'
  );
}
