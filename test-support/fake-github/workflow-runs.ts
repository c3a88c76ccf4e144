/**
 * The workflow-run route of the fake GitHub: "Get a workflow run attempt",
 * GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}
 * (https://docs.github.com/en/rest/actions/workflow-runs#get-a-workflow-run-attempt, read 2026-11-26).
 * A test registers the runs it spawns and moves them along (queued, in_progress, completed); an
 * unknown run, or an attempt the run has not reached, is a 404 as on GitHub. The answer is the
 * description's `workflow-run` object, checked against it like every answer of the fake.
 */
import { nodeId, pullRepoJson, WEB_URL, type RepoInfo } from './render.js';

/** GitHub's run statuses (the description's `status` parameter of "List workflow runs"). */
export type FakeRunStatus = 'queued' | 'in_progress' | 'waiting' | 'requested' | 'pending' | 'completed';

export interface FakeWorkflowRun {
  readonly id: number;
  /** The newest attempt; each earlier attempt is completed (a re-run starts when the run is over). */
  attempt: number;
  status: FakeRunStatus;
  conclusion: 'success' | 'failure' | 'cancelled' | null;
  readonly event: string;
  readonly createdAt: string;
  /** The workflow file the run ran (default `.github/workflows/agent.yml`, what runAction's GITHUB_WORKFLOW_REF names). */
  readonly path: string;
}

export interface WorkflowRunAnswer {
  readonly status: number;
  readonly body: unknown;
}

const DOC = 'https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run-attempt';
const WORKFLOW_ID = 161335;
const DOC_RUN = 'https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run';
/** The workflow file of a run the test does not say otherwise of. */
export const DEFAULT_WORKFLOW_PATH = '.github/workflows/agent.yml';

export class FakeWorkflowRunRoutes {
  private readonly runs = new Map<number, FakeWorkflowRun>();

  constructor(
    private readonly repo: () => RepoInfo,
    private readonly clock: () => number
  ) {}

  /** Registers (or moves along) a run: its newest attempt, status and conclusion. */
  set(
    id: number,
    update: {
      attempt?: number;
      status: FakeRunStatus;
      conclusion?: FakeWorkflowRun['conclusion'];
      event?: string;
      path?: string;
    }
  ): void {
    const known = this.runs.get(id);
    const run: FakeWorkflowRun = known ?? {
      id,
      attempt: 1,
      status: update.status,
      conclusion: null,
      event: update.event ?? 'issue_comment',
      path: update.path ?? DEFAULT_WORKFLOW_PATH,
      createdAt: new Date(this.clock()).toISOString().replace(/\.\d{3}Z$/, 'Z')
    };
    run.attempt = update.attempt ?? run.attempt;
    run.status = update.status;
    run.conclusion = update.status === 'completed' ? (update.conclusion ?? 'success') : null;
    this.runs.set(id, run);
  }

  get(id: number): FakeWorkflowRun | undefined {
    return this.runs.get(id);
  }

  attempt(api: string, id: number, attempt: number): WorkflowRunAnswer {
    const run = this.runs.get(id);
    if (!run || attempt < 1 || attempt > run.attempt)
      return { status: 404, body: { message: 'Not Found', documentation_url: DOC, status: '404' } };
    const latest = attempt === run.attempt;
    return { status: 200, body: this.render(api, run, attempt, latest) };
  }

  /** "Get a workflow run", GET /repos/{owner}/{repo}/actions/runs/{run_id}: its newest attempt. */
  run(api: string, id: number): WorkflowRunAnswer {
    const run = this.runs.get(id);
    if (!run)
      return { status: 404, body: { message: 'Not Found', documentation_url: DOC_RUN, status: '404' } };
    return { status: 200, body: this.render(api, run, run.attempt, true) };
  }

  /**
   * "List workflow runs for a workflow", GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs:
   * the runs of one workflow file (`workflow_id` is its file name or its id), newest first, as the
   * description's `workflow-run` objects; the server pages them. Null for an unknown workflow (404).
   */
  ofWorkflow(api: string, workflowId: string): unknown[] | null {
    const runs = [...this.runs.values()].filter(
      (run) => run.path.split('/').at(-1) === workflowId || String(WORKFLOW_ID) === workflowId
    );
    if (runs.length === 0) return null;
    return runs.sort((a, b) => b.id - a.id).map((run) => this.render(api, run, run.attempt, true));
  }

  private render(api: string, run: FakeWorkflowRun, attempt: number, latest: boolean): unknown {
    const repo = this.repo();
    const full = `${repo.owner.login}/${repo.name}`;
    const runApi = `${api}/repos/${full}/actions/runs/${run.id}`;
    const repository = pullRepoJson(api, repo);
    return {
      id: run.id,
      name: 'agent',
      node_id: nodeId('WorkflowRun', run.id),
      head_branch: repo.default_branch,
      head_sha: '0'.repeat(40),
      path: run.path,
      display_title: 'agent',
      run_number: run.id % 1000,
      run_attempt: attempt,
      event: run.event,
      // An earlier attempt is over: a re-run starts only when the run has completed.
      status: latest ? run.status : 'completed',
      conclusion: latest ? run.conclusion : 'failure',
      workflow_id: WORKFLOW_ID,
      url: runApi,
      html_url: `${WEB_URL}/${full}/actions/runs/${run.id}`,
      pull_requests: [],
      created_at: run.createdAt,
      updated_at: run.createdAt,
      run_started_at: run.createdAt,
      jobs_url: `${runApi}/attempts/${attempt}/jobs`,
      logs_url: `${runApi}/attempts/${attempt}/logs`,
      check_suite_url: `${api}/repos/${full}/check-suites/${run.id}`,
      artifacts_url: `${runApi}/artifacts`,
      cancel_url: `${runApi}/cancel`,
      rerun_url: `${runApi}/rerun`,
      previous_attempt_url: attempt > 1 ? `${runApi}/attempts/${attempt - 1}` : null,
      workflow_url: `${api}/repos/${full}/actions/workflows/${WORKFLOW_ID}`,
      head_commit: null,
      repository,
      head_repository: repository
    };
  }
}
