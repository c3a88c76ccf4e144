import * as core from '@actions/core';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { FANOUT_ROLLUP_ARTIFACT, type EarlierRun } from '../../artifacts/fanout-artifacts.js';
import { readPlan, readShardResults, uploadPlan, type SpendLine } from '../../artifacts/fanout-contents.js';
import type { FanoutPlanSettings } from '../../config/fanout-inputs.js';
import { errorMessage } from '../../errors/error-message.js';
import { readRegularFile } from '../../files/bounded-file.js';
import { FanoutInputError } from '../../fanout/fanout-error.js';
import type { FanoutManifest } from '../../fanout/manifest.js';
import { MATRIX_JOB_LIMIT, matrixWaves } from '../../fanout/matrix.js';
import { planFanout } from '../../fanout/plan-fanout.js';
import { replan } from '../../fanout/replan.js';
import type { ShardResult } from '../../fanout/shard-result.js';
import { workflowFileOf } from '../../followup/workflow-origin.js';
import { githubClientsOf } from '../stages/github-clients.js';
import { publishOutputs } from '../outputs.js';
import type { FanoutJob } from './fanout-job.js';

/** The input that names the cap, in every message about it. */
const CAP_INPUT = 'fanout_max_total_usd';

/** What the plan job decided: the plan it uploads and the shards this workflow run starts. */
export interface PlanDecision {
  readonly manifest: FanoutManifest;
  readonly carried: ReadonlyMap<string, ShardResult>;
  readonly ledger: readonly SpendLine[];
  /** The shards still to run, in plan order; this run's matrix is the first wave of them. */
  readonly toRun: readonly string[];
  /** How many of `toRun` this run starts (a pilot starts only the first N). */
  readonly startNow: number;
}

/**
 * The plan job: no agent, no model call, no GitHub write. A new plan lists and groups the units and
 * splits the cap; a resume re-plans an earlier run of this workflow. Either way the plan goes up as
 * the artifact the shard and land jobs read, and the outputs give the first wave's matrix.
 */
export async function runPlanRole(job: FanoutJob, settings: FanoutPlanSettings): Promise<void> {
  const decision =
    settings.resumeRunId !== undefined
      ? await resumePlan(job, settings, settings.resumeRunId)
      : await newPlan(job, settings);
  await uploadPlan(job.artifacts, decision, job.scratch);
  const outputs = planOutputs(decision);
  publishOutputs({ conclusion: 'success', fanoutPlan: outputs });
  const { manifest } = decision;
  const line =
    `Plan ${manifest.planId}: ${manifest.unitsBefore} unit(s) in ${manifest.shards.length} shard(s), a cap of ` +
    `$${manifest.totalCapUsd.toFixed(2)}; this run starts ${outputs.shardCount} shard(s)` +
    (decision.carried.size > 0 ? `, ${decision.carried.size} finished shard(s) carried forward` : '') +
    (outputs.wavesLeft > 0 ? `; ${outputs.wavesLeft} more wave(s) follow by resuming this run.` : '.');
  core.info(line);
  await core.summary
    .addRaw(`## compact-agent fan-out plan\n\n${line}\n`)
    .write()
    .catch(() => undefined);
}

/** The outputs of a plan: this wave's matrix (at most 256 shards), its size, and the waves after it. */
export function planOutputs(decision: PlanDecision): {
  planId: string;
  matrix: string;
  shardCount: number;
  wavesLeft: number;
} {
  const now = decision.toRun.slice(0, decision.startNow);
  const waves = now.length > 0 ? matrixWaves(now) : [];
  const first = waves[0] ?? JSON.stringify({ shard: [] });
  const started = Math.min(now.length, MATRIX_JOB_LIMIT);
  return {
    planId: decision.manifest.planId,
    matrix: first,
    shardCount: started,
    wavesLeft: Math.ceil((decision.toRun.length - started) / MATRIX_JOB_LIMIT)
  };
}

async function newPlan(job: FanoutJob, settings: FanoutPlanSettings): Promise<PlanDecision> {
  const { action } = job;
  if (settings.unitSource === undefined || settings.totalCapUsd === undefined)
    throw new FanoutInputError(
      'A new plan needs its units and its cap (fanout_units, fanout_max_total_usd).'
    );
  const { manifest } = await planFanout(
    {
      prompt: job.request.task,
      unitSource: settings.unitSource,
      grouping: { by: settings.groupBy, size: settings.shardSize },
      totalCapUsd: settings.totalCapUsd,
      validationRetries: settings.validationRetries,
      ...(settings.validationCommand ? { validationCommand: settings.validationCommand } : {}),
      ...(settings.pilot ? { pilot: settings.pilot } : {}),
      capName: CAP_INPUT
    },
    {
      repoDir: action.runner.workspace,
      env: action.env,
      signal: new AbortController().signal,
      origin: job.origin
    }
  );
  const toRun = manifest.shards.map((shard) => shard.id);
  return {
    manifest,
    carried: new Map(),
    ledger: [],
    toRun,
    startNow: settings.pilot ? Math.min(settings.pilot, toRun.length) : toRun.length
  };
}

/**
 * A resume: the earlier run must be a run of this workflow file in this repository (GitHub is
 * asked, not the artifact), its plan is read and checked, its shards' results checked, and only the
 * shards not finished are planned again, from what is left of the cap.
 */
async function resumePlan(
  job: FanoutJob,
  settings: FanoutPlanSettings,
  runId: number
): Promise<PlanDecision> {
  const earlier = await checkedEarlierRun(job, runId);
  const plan = await readPlan(job.artifacts, job.origin, job.scratch, earlier);
  if (plan === undefined)
    throw new FanoutInputError(
      `Run ${runId} has no fan-out plan (the artifact compact-agent-fanout-plan): it is not a fan-out run, or its ` +
        'artifacts have expired. Set fanout_resume to the id of a fan-out run whose plan job succeeded.'
    );
  const { results, problems, spent } = await readShardResults(
    job.artifacts,
    plan.manifest,
    job.scratch,
    earlier
  );
  for (const [shardId, result] of plan.carried) if (!results.has(shardId)) results.set(shardId, result);
  const unlandable = new Set([...problems.keys(), ...(await earlierUnlandable(job, earlier))]);
  const ledger = [...plan.ledger, ...spent];
  const spentUsd = ledger.reduce((sum, line) => sum + line.costUsd, 0);
  const cap = settings.totalCapUsd ?? plan.manifest.totalCapUsd;
  const next = replan(plan.manifest, { results, unlandable, spentUsd }, cap, CAP_INPUT);
  for (const [shardId, problem] of problems)
    core.warning(`Run ${runId}'s result of ${shardId} was not trusted (${problem}): it runs again.`);
  return {
    manifest: next.manifest,
    carried: next.finished,
    ledger,
    toRun: next.again,
    startNow: next.again.length
  };
}

async function checkedEarlierRun(job: FanoutJob, runId: number): Promise<EarlierRun> {
  const { action } = job;
  let run;
  try {
    run = await githubClientsOf(action).workflowRunReads().workflowRun(runId);
  } catch (error) {
    throw new FanoutInputError(
      `Run ${runId} could not be looked up (${errorMessage(error).split('\n')[0]}). A resume reads the earlier ` +
        "run and its artifacts: give the plan job's token `actions: read` in the workflow's permissions."
    );
  }
  const file = run ? workflowFileOf(run.path, job.origin.repository) : undefined;
  if (run === undefined || file !== job.origin.workflow)
    throw new FanoutInputError(
      `fanout_resume names run ${runId}, which is ${run === undefined ? 'not a run of this repository' : `a run of ${file ?? run.path}`}, ` +
        `not of this workflow (${job.origin.workflow}). Give the id of an earlier run of this workflow.`
    );
  const problem = untrustedEarlierRunProblem(run, job.origin.repository);
  if (problem !== undefined)
    throw new FanoutInputError(
      `fanout_resume names run ${runId}, ${problem}. Its plan carries commands (the unit listing, the validation) ` +
        'that this fan-out would run, so only a run a person with write access dispatched, or a scheduled one, ' +
        'can be resumed. Give the id of such a run of this workflow.'
    );
  return { runId, reads: githubClientsOf(action).runArtifactDownloads() };
}

const earlierRollupSchema = z.object({
  rows: z.array(z.object({ shardId: z.string(), status: z.string() })).max(100_000)
});

/** The shards the earlier run's land job left as conflict or rejected (its roll-up artifact), if it landed. */
async function earlierUnlandable(job: FanoutJob, earlier: EarlierRun): Promise<string[]> {
  const dir = await mkdtemp(path.join(job.scratch, 'rollup-in-'));
  try {
    if (!(await job.artifacts.download(FANOUT_ROLLUP_ARTIFACT, dir, earlier))) return [];
    const text = (await readRegularFile(path.join(dir, 'rollup.json'), 50_000_000)).toString('utf8');
    const parsed = earlierRollupSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error('it is not a roll-up');
    return parsed.data.rows
      .filter((row) => row.status === 'conflict' || row.status === 'rejected')
      .map((row) => row.shardId);
  } catch (error) {
    throw new FanoutInputError(
      `Run ${earlier.runId}'s roll-up (${FANOUT_ROLLUP_ARTIFACT}/rollup.json) cannot be read (${errorMessage(error)}), ` +
        'so which shards conflicted is unknown. Resume from a run whose land job finished, or plan a new fan-out.'
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Why an earlier run of this workflow file may not be resumed, or undefined when it may. The path
 * alone is not enough: a pull request's run uses the workflow file as its head has it (a fork's
 * too), so it can upload a plan with any commands under this workflow's path. Only
 * `workflow_dispatch` (a writer started it) and `schedule` (the default branch's file) runs count,
 * and their head must be this repository ("Events that trigger workflows",
 * https://docs.github.com/en/actions/reference/events-that-trigger-workflows, read 2026-11-28).
 */
export function untrustedEarlierRunProblem(
  run: { readonly event?: string; readonly headRepository?: string },
  repositoryFullName: string
): string | undefined {
  if (run.event !== 'workflow_dispatch' && run.event !== 'schedule')
    return `which was started by ${run.event === undefined ? 'an event GitHub did not name' : `a ${run.event} event`}, not by a dispatch or a schedule`;
  if (
    run.headRepository !== undefined &&
    run.headRepository.toLowerCase() !== repositoryFullName.toLowerCase()
  )
    return `whose code came from ${run.headRepository}, not from ${repositoryFullName}`;
  return undefined;
}
