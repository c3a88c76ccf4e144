/**
 * A local multi-job runner for a workflow file: it runs the jobs as GitHub's runner would, against
 * the loopback fakes. Jobs start when what they `need` has ended; a job's `if:` is GitHub's own
 * expression evaluator's verdict (status functions included) over real contexts (github, inputs,
 * needs, matrix, secrets); a matrix (`fromJSON` of an earlier job's output too) is expanded and run
 * at most `max-parallel` at a time, on a pool of `runners` (default 2); `actions/checkout` clones the
 * bare remote at the run's commit; this action's step runs as the built action (dist/index.js) with
 * its `with:` values evaluated and action.yml's defaults for the rest; step and job outputs travel
 * as on GitHub. Every job gets its own GITHUB_TOKEN, whose permissions are the job's `permissions:`
 * block (the one fake GitHub refuses beyond them), and its own artifact runtime token for the run
 * (the one fake artifact service keeps every job's artifacts under the run).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { runAction, type ActionRun } from '../action-runner.js';
import { runnerOutputs } from '../runner-commands.js';
import { runtimeToken, type FakeArtifacts } from '../fake-artifacts/index.js';
import type { AccessLevel, FakeGitHub, PermissionScope, TokenPermissions } from '../fake-github/index.js';
import { mapWithLimit } from '../../src/fanout/pool.js';
import { checkout } from './checkout.js';
import { conditionHolds, evaluateValue, interpolate, type Contexts } from './expressions.js';
import { expandMatrix, type MatrixCombination } from './matrix.js';
import { RunnerPool } from './runners.js';
import {
  dispatchInputs,
  needsOf,
  readWorkflowFile,
  type JobPermissions,
  type Workflow,
  type WorkflowJob,
  type WorkflowStep
} from './workflow-file.js';

export type JobResult = 'success' | 'failure' | 'skipped' | 'cancelled';

/** One job of the run on one runner: a plain job, or one combination of a matrix. */
export interface JobInstanceRun {
  readonly job: string;
  /** As GitHub names it: `shard (shard-01)` for a matrix combination. */
  readonly name: string;
  readonly matrix: MatrixCombination | undefined;
  readonly attempt: number;
  /** Its GITHUB_TOKEN (the fake GitHub records which token made each request). */
  readonly githubToken: string;
  readonly permissions: TokenPermissions;
  /** Its artifact service job id (the runtime token's `Actions.Results:<run>:<job>`). */
  readonly jobBackendId: string;
  result: JobResult;
  /** This action's step runs, in order (checkout steps are not listed). */
  readonly actions: ActionRun[];
  readonly outputs: Record<string, string>;
  /** Why it failed when no step did (a matrix that cannot expand, a rejected environment). */
  error?: string;
}

export interface JobSummary {
  readonly result: JobResult;
  readonly outputs: Record<string, string>;
  readonly instances: readonly JobInstanceRun[];
  /** `refs/heads/*` of the remote when the job started and when it ended: what it pushed. */
  readonly remoteRefsBefore: Record<string, string>;
  readonly remoteRefsAfter: Record<string, string>;
  /** Set when the job kept its result from an earlier attempt (it was not re-run). */
  readonly fromAttempt?: number;
}

export interface WorkflowRun {
  readonly id: number;
  readonly attempt: number;
  readonly sha: string;
  readonly inputs: Readonly<Record<string, string>>;
  readonly runBackendId: string;
  readonly jobs: Readonly<Record<string, JobSummary>>;
  readonly conclusion: 'success' | 'failure';
}

export interface SimulatorWorld {
  /** The workflow file to run, and where the repository keeps it (`.github/workflows/fanout.yml`). */
  readonly workflowFile: string;
  readonly workflowPath: string;
  /** The bare repository standing for GitHub's copy of the repository. */
  readonly remote: string;
  readonly branch?: string;
  readonly github: FakeGitHub;
  readonly artifacts: FakeArtifacts;
  readonly anthropicUrl: string;
  readonly secrets: Readonly<Record<string, string>>;
  /** Runners shared by all jobs (default 2). */
  readonly runners?: number;
  /** Node's arguments for this action's steps (default the built dist/index.js). */
  readonly entry?: readonly string[];
  /** Judges a job waiting on a protected environment: true approves it (default: approved). */
  readonly approve?: (environment: string, job: string) => boolean;
  /** Called before each job instance starts (e.g. to move the base branch while shards run). */
  readonly beforeJob?: (name: string) => void | Promise<void>;
}

/** The action this repository builds: a step `uses:` of this prefix runs dist/. */
const THIS_ACTION = 'compact-agent/compact-agent@';
const CHECKOUT = 'actions/checkout@';
const SCOPES: readonly PermissionScope[] = ['actions', 'checks', 'contents', 'issues', 'pull-requests'];

/** A job's token permissions from its (or the workflow's) block; without one, GitHub's restricted default. */
export function tokenPermissions(block: JobPermissions | undefined): TokenPermissions {
  if (block === undefined) return { contents: 'read' };
  if (block === 'read-all' || block === 'write-all') {
    const level: AccessLevel = block === 'read-all' ? 'read' : 'write';
    return Object.fromEntries(SCOPES.map((scope) => [scope, level]));
  }
  return Object.fromEntries(
    Object.entries(block).filter((entry): entry is [PermissionScope, AccessLevel] =>
      (SCOPES as readonly string[]).includes(entry[0])
    )
  );
}

interface ActionInputSpec {
  readonly default?: string;
}

function actionInputs(): Record<string, ActionInputSpec> {
  const action = parse(readFileSync(path.resolve('action.yml'), 'utf8')) as {
    inputs?: Record<string, { default?: unknown }>;
  };
  return Object.fromEntries(
    Object.entries(action.inputs ?? {}).map(([name, spec]) => [
      name,
      spec.default === undefined ? {} : { default: String(spec.default) }
    ])
  );
}

export class WorkflowSimulator {
  readonly workflow: Workflow;
  readonly pool: RunnerPool;
  private nextRunId = 7001;
  private readonly backendRuns = new Map<string, number>();
  private readonly branch: string;

  constructor(private readonly world: SimulatorWorld) {
    this.workflow = readWorkflowFile(world.workflowFile);
    this.pool = new RunnerPool(world.runners ?? 2);
    this.branch = world.branch ?? 'main';
    // A download by run id (another run's artifacts) goes through GitHub's REST API, which knows
    // the run of each artifact; the artifact service knows only its backend run id.
    world.github.linkArtifacts(world.artifacts, (artifact) => {
      const stored = world.artifacts.artifacts.find((candidate) => candidate.id === artifact.id);
      return (stored && this.backendRuns.get(stored.runBackendId)) ?? 0;
    });
    world.github.followBranches((name) => this.remoteRefs()[name] !== undefined);
  }

  /** A `workflow_dispatch` run on the branch's current commit. */
  async dispatch(given: Readonly<Record<string, string>>): Promise<WorkflowRun> {
    const inputs = dispatchInputs(this.workflow, given);
    const id = this.nextRunId++;
    const runBackendId = randomUUID();
    this.backendRuns.set(runBackendId, id);
    const sha = this.remoteRefs()[this.branch];
    if (sha === undefined) throw new Error(`The remote has no branch ${this.branch} to run on.`);
    return this.execute(
      { id, attempt: 1, sha, inputs, runBackendId },
      new Set(Object.keys(this.workflow.jobs)),
      {}
    );
  }

  /**
   * GitHub's "re-run job": a new attempt of the same run (same id, commit, inputs and artifacts)
   * that runs the named jobs again and every job that needs them; the others keep their results.
   */
  async rerun(run: WorkflowRun, jobs: readonly string[]): Promise<WorkflowRun> {
    const again = new Set(jobs);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [name, job] of Object.entries(this.workflow.jobs))
        if (!again.has(name) && needsOf(job).some((need) => again.has(need))) {
          again.add(name);
          grew = true;
        }
    }
    const kept = Object.fromEntries(
      Object.entries(run.jobs)
        .filter(([name]) => !again.has(name))
        .map(([name, summary]) => [name, { ...summary, fromAttempt: summary.fromAttempt ?? run.attempt }])
    );
    return this.execute({ ...run, attempt: run.attempt + 1 }, again, kept);
  }

  /** `refs/heads/<name>` → commit of the remote. */
  remoteRefs(): Record<string, string> {
    const text = execFileSync(
      'git',
      ['for-each-ref', '--format=%(refname:lstrip=2) %(objectname)', 'refs/heads'],
      {
        cwd: this.world.remote,
        encoding: 'utf8'
      }
    );
    return Object.fromEntries(
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ') as [string, string])
    );
  }

  private async execute(
    run: Pick<WorkflowRun, 'id' | 'attempt' | 'sha' | 'inputs' | 'runBackendId'>,
    toRun: ReadonlySet<string>,
    kept: Record<string, JobSummary>
  ): Promise<WorkflowRun> {
    const { github } = this.world;
    github.setWorkflowRun(run.id, {
      status: 'in_progress',
      attempt: run.attempt,
      event: 'workflow_dispatch',
      path: this.world.workflowPath
    });
    const promises = new Map<string, Promise<JobSummary>>();
    const summaryOf = (name: string): Promise<JobSummary> => {
      const known = kept[name];
      if (known) return Promise.resolve(known);
      let promise = promises.get(name);
      if (!promise) {
        promise = this.runJob(run, name, this.workflow.jobs[name]!, summaryOf);
        promises.set(name, promise);
      }
      return promise;
    };
    const jobs: Record<string, JobSummary> = {};
    for (const name of Object.keys(this.workflow.jobs))
      jobs[name] = toRun.has(name) ? await summaryOf(name) : kept[name]!;
    await Promise.all(promises.values());
    const conclusion = Object.values(jobs).some((job) => job.result === 'failure') ? 'failure' : 'success';
    github.setWorkflowRun(run.id, {
      status: 'completed',
      conclusion,
      attempt: run.attempt,
      path: this.world.workflowPath
    });
    return { ...run, jobs, conclusion };
  }

  private async runJob(
    run: Pick<WorkflowRun, 'id' | 'attempt' | 'sha' | 'inputs' | 'runBackendId'>,
    name: string,
    job: WorkflowJob,
    summaryOf: (name: string) => Promise<JobSummary>
  ): Promise<JobSummary> {
    const needs: Record<string, { result: JobResult; outputs: Record<string, string> }> = {};
    for (const need of needsOf(job)) {
      const summary = await summaryOf(need);
      needs[need] = { result: summary.result, outputs: summary.outputs };
    }
    const results = Object.values(needs).map((need) => need.result);
    const status = {
      success: results.every((result) => result === 'success'),
      failure: results.includes('failure'),
      cancelled: false
    };
    const base = this.contexts(run, name, needs, undefined, {});
    const remoteRefsBefore = this.remoteRefs();
    const done = (
      result: JobResult,
      instances: JobInstanceRun[],
      outputs: Record<string, string> = {}
    ): JobSummary => ({
      result,
      outputs,
      instances,
      remoteRefsBefore,
      remoteRefsAfter: this.remoteRefs()
    });
    if (!conditionHolds(job.if, base, status)) return done('skipped', []);

    let combinations: Array<MatrixCombination | undefined> = [undefined];
    if (job.strategy?.matrix !== undefined) {
      try {
        combinations = expandMatrix(evaluateValue(job.strategy.matrix, base), name);
      } catch (error) {
        return done('failure', [this.failedInstance(run, name, job, (error as Error).message)]);
      }
    }
    const parallel = job.strategy?.['max-parallel'] ?? combinations.length;
    const instances = await mapWithLimit(combinations, parallel, (matrix) =>
      this.pool.run(instanceName(name, matrix), () => this.runInstance(run, name, job, needs, matrix))
    );
    const result = instances.some((instance) => instance.result === 'failure') ? 'failure' : 'success';
    // A matrix job's outputs: each combination may set them; the last one to finish wins.
    const outputs = Object.assign({}, ...instances.map((instance) => instance.outputs)) as Record<
      string,
      string
    >;
    return done(result, instances, outputs);
  }

  private failedInstance(
    run: Pick<WorkflowRun, 'attempt'>,
    name: string,
    job: WorkflowJob,
    error: string
  ): JobInstanceRun {
    return {
      job: name,
      name,
      matrix: undefined,
      attempt: run.attempt,
      githubToken: '',
      permissions: tokenPermissions(job.permissions ?? this.workflow.permissions),
      jobBackendId: '',
      result: 'failure',
      actions: [],
      outputs: {},
      error
    };
  }

  private contexts(
    run: Pick<WorkflowRun, 'id' | 'attempt' | 'sha' | 'inputs'>,
    job: string,
    needs: Record<string, unknown>,
    matrix: MatrixCombination | undefined,
    steps: Record<string, unknown>,
    githubToken = ''
  ): Contexts {
    const repo = this.world.github.repo;
    return {
      github: {
        event_name: 'workflow_dispatch',
        event: this.payload(run),
        run_id: String(run.id),
        run_attempt: String(run.attempt),
        repository: repo.full_name,
        repository_owner: repo.owner,
        sha: run.sha,
        ref: `refs/heads/${this.branch}`,
        ref_name: this.branch,
        workflow: this.workflow.name ?? this.world.workflowPath,
        workflow_ref: `${repo.full_name}/${this.world.workflowPath}@refs/heads/${this.branch}`,
        job,
        token: githubToken,
        server_url: 'https://github.com',
        api_url: this.world.github.url
      },
      inputs: run.inputs,
      needs,
      matrix: matrix ?? {},
      secrets: { ...this.world.secrets, GITHUB_TOKEN: githubToken },
      steps,
      strategy: {},
      env: {},
      vars: {}
    };
  }

  private payload(run: Pick<WorkflowRun, 'inputs'>): Record<string, unknown> {
    const repo = this.world.github.repo;
    return {
      inputs: run.inputs,
      ref: `refs/heads/${this.branch}`,
      workflow: this.world.workflowPath,
      repository: {
        id: repo.id,
        name: repo.name,
        full_name: repo.full_name,
        owner: { login: repo.owner, type: 'User' },
        default_branch: repo.default_branch
      },
      sender: { login: 'octocat', type: 'User', id: 583231 }
    };
  }

  private async runInstance(
    run: Pick<WorkflowRun, 'id' | 'attempt' | 'sha' | 'inputs' | 'runBackendId'>,
    job: string,
    spec: WorkflowJob,
    needs: Record<string, unknown>,
    matrix: MatrixCombination | undefined
  ): Promise<JobInstanceRun> {
    const name = instanceName(job, matrix);
    await this.world.beforeJob?.(name);
    const githubToken = `ghs_${randomBytes(18).toString('hex')}`;
    const permissions = tokenPermissions(spec.permissions ?? this.workflow.permissions);
    this.world.github.grantToken(githubToken, permissions);
    const instance: JobInstanceRun = {
      job,
      name,
      matrix,
      attempt: run.attempt,
      githubToken,
      permissions,
      jobBackendId: randomUUID(),
      result: 'success',
      actions: [],
      outputs: {}
    };
    const environment = typeof spec.environment === 'string' ? spec.environment : spec.environment?.name;
    if (environment !== undefined && !(this.world.approve?.(environment, name) ?? true)) {
      instance.result = 'failure';
      instance.error = `The deployment to environment ${environment} was rejected.`;
      return instance;
    }
    const workspace = mkdtempSync(path.join(tmpdir(), 'workflow-sim-workspace-'));
    const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> =
      {};
    for (const step of spec.steps) {
      const contexts = this.contexts(run, job, needs, matrix, steps, githubToken);
      const outcome = await this.runStep(run, instance, step, contexts, workspace);
      if (step.id !== undefined)
        steps[step.id] = { outputs: outcome.outputs, outcome: outcome.result, conclusion: outcome.result };
      if (outcome.result === 'failure') {
        instance.result = 'failure';
        break;
      }
    }
    const contexts = this.contexts(run, job, needs, matrix, steps, githubToken);
    for (const [key, template] of Object.entries(spec.outputs ?? {}))
      instance.outputs[key] = interpolate(template, contexts);
    return instance;
  }

  private async runStep(
    run: Pick<WorkflowRun, 'id' | 'attempt' | 'sha' | 'runBackendId'>,
    instance: JobInstanceRun,
    step: WorkflowStep,
    contexts: Contexts,
    workspace: string
  ): Promise<{ result: 'success' | 'failure'; outputs: Record<string, string> }> {
    const given = Object.fromEntries(
      Object.entries(step.with ?? {}).map(([key, value]) => [key, interpolate(String(value), contexts)])
    );
    if (!('uses' in step))
      throw new Error(
        `The workflow simulator runs only ${CHECKOUT}* and ${THIS_ACTION}* steps, not \`run: ${step.run}\`.`
      );
    if (step.uses.startsWith(CHECKOUT)) {
      checkout({
        remote: this.world.remote,
        workspace,
        sha: run.sha,
        branch: this.branch,
        fetchDepth: given['fetch-depth'] === undefined ? 1 : Number(given['fetch-depth'])
      });
      return { result: 'success', outputs: {} };
    }
    if (!step.uses.startsWith(THIS_ACTION))
      throw new Error(
        `The workflow simulator runs only ${CHECKOUT}* and ${THIS_ACTION}* steps, not ${step.uses}.`
      );
    // The runner gives an input action.yml declares: the `with:` value, else its default (evaluated:
    // `${{ github.token }}` is the job's token); one with neither is absent.
    const inputs: Record<string, string> = {};
    for (const [key, spec] of Object.entries(actionInputs())) {
      const value =
        given[key] ?? (spec.default === undefined ? undefined : interpolate(spec.default, contexts));
      if (value !== undefined) inputs[key] = value;
    }
    for (const key of Object.keys(given))
      if (!(key in inputs)) throw new Error(`The step gives ${key}, which action.yml does not declare.`);
    const repo = this.world.github.repo;
    const action = await runAction({
      eventName: 'workflow_dispatch',
      payload: this.payload({ inputs: (contexts.inputs ?? {}) as Record<string, string> }),
      inputs,
      workspace,
      github: this.world.github,
      artifacts: this.world.artifacts,
      anthropicUrl: this.world.anthropicUrl,
      runId: String(run.id),
      spaceGitHubWrites: true,
      onlyGivenInputs: true,
      ...(this.world.entry ? { entry: this.world.entry } : {}),
      env: {
        GITHUB_RUN_ATTEMPT: String(run.attempt),
        GITHUB_WORKFLOW_REF: `${repo.full_name}/${this.world.workflowPath}@refs/heads/${this.branch}`,
        GITHUB_WORKFLOW: this.workflow.name ?? this.world.workflowPath,
        GITHUB_SHA: run.sha,
        GITHUB_REF: `refs/heads/${this.branch}`,
        GITHUB_REF_NAME: this.branch,
        GITHUB_JOB: instance.job,
        GITHUB_ACTOR: 'octocat',
        ACTIONS_RUNTIME_TOKEN: runtimeToken(run.runBackendId, instance.jobBackendId)
      }
    });
    instance.actions.push(action);
    return {
      result: action.code === 0 ? 'success' : 'failure',
      outputs: runnerOutputs(action.chunks, action.outputs)
    };
  }
}

/** GitHub's name of a job instance: `shard (shard-01)` for a matrix combination. */
export function instanceName(job: string, matrix: MatrixCombination | undefined): string {
  return matrix === undefined ? job : `${job} (${Object.values(matrix).map(String).join(', ')})`;
}
