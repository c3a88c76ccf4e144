import { RepositoryClient } from './octokit-api.js';

/** Whether a workflow run's attempt still goes on (queued, waiting or in progress) or is over. */
export type AttemptState = 'live' | 'over';

/** The Actions API the thread queue needs: is that run attempt still going on? */
export interface WorkflowRuns {
  attemptState(runId: number, attempt: number): Promise<AttemptState>;
}

/**
 * "Get a workflow run attempt", GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}
 * (https://docs.github.com/en/rest/actions/workflow-runs#get-a-workflow-run-attempt, read 2026-11-26):
 * anyone with read access may call it (the job's `actions: read`). Its `status` is one of queued,
 * in_progress, completed, waiting, requested or pending; only `completed` means the attempt is over.
 * A 404 (the run deleted, or not of this repository) is over too: nothing is left to wait for.
 */
export class OctokitWorkflowRuns extends RepositoryClient implements WorkflowRuns {
  async attemptState(runId: number, attempt: number): Promise<AttemptState> {
    try {
      const { data } = await this.octokit.rest.actions.getWorkflowRunAttempt({
        ...this.repo,
        run_id: runId,
        attempt_number: attempt,
        exclude_pull_requests: true
      });
      if (typeof data.status !== 'string' && data.status !== null)
        throw new Error(`GitHub answered a workflow run without a status for run ${runId}`);
      return data.status === 'completed' ? 'over' : 'live';
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return 'over';
      throw error;
    }
  }
}

/** What the trust check reads of a run: the workflow file it ran. */
export interface WorkflowRunOrigin {
  readonly id: number;
  /** As GitHub gives it: `.github/workflows/agent.yml`, or with the repository and ref around it. */
  readonly path: string;
  /** The event that started the run (`workflow_dispatch`, `schedule`, `pull_request`, ...), when GitHub gives it. */
  readonly event?: string;
  /** `owner/name` of the repository the run's head came from (a fork's, for a fork's pull request). */
  readonly headRepository?: string;
}

/** A transcript artifact a run uploaded, as "List workflow run artifacts" names it. */
export interface RunArtifactEntry {
  readonly id: number;
  readonly name: string;
}

/** Another run's artifacts, every one listed and each downloadable (a fan-out's resume reads its earlier run's). */
export interface RunArtifactDownloads {
  allRunArtifacts(runId: number): Promise<RunArtifactEntry[]>;
  /** The artifact's zip, at most `maxBytes` long. */
  downloadArtifactZip(artifactId: number, maxBytes: number): Promise<Buffer>;
}

/** The Actions API reads that tie a carried state to a run of this workflow (src/followup/workflow-origin.ts). */
export interface WorkflowRunReads {
  /** The run, or undefined when this repository has no such run (GitHub answers 404). */
  workflowRun(runId: number): Promise<WorkflowRunOrigin | undefined>;
  /** The run's artifacts of that name (a run uploads one transcript artifact). */
  runArtifacts(runId: number, name: string): Promise<RunArtifactEntry[]>;
  /**
   * One page (100, from page 1) of the run ids of a workflow file (`agent.yml`), as GitHub lists
   * them, newest first; `more` when a next page exists. Undefined when there is no such workflow.
   */
  workflowRunIds(workflowFileName: string, page: number): Promise<WorkflowRunIdPage | undefined>;
}

export interface WorkflowRunIdPage {
  readonly ids: readonly number[];
  readonly more: boolean;
}

/**
 * "Get a workflow run", GET /repos/{owner}/{repo}/actions/runs/{run_id}, and "List workflow run
 * artifacts", GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts?name=…
 * (https://docs.github.com/en/rest/actions/workflow-runs#get-a-workflow-run and
 * https://docs.github.com/en/rest/actions/artifacts#list-workflow-run-artifacts, read 2026-11-28 in
 * @octokit/openapi's description): anyone with read access may call them (the job's `actions: read`).
 * The run's `path` is "the full path of the workflow"; the description's example is
 * `octocat/octo-repo/.github/workflows/ci.yml@main`, while runs of a file in the repository give
 * `.github/workflows/ci.yml`: workflowFileOf reads both.
 */
export class OctokitWorkflowRunReads extends RepositoryClient implements WorkflowRunReads {
  async workflowRun(runId: number): Promise<WorkflowRunOrigin | undefined> {
    try {
      const { data } = await this.octokit.rest.actions.getWorkflowRun({
        ...this.repo,
        run_id: runId,
        exclude_pull_requests: true
      });
      if (typeof data.path !== 'string' || typeof data.id !== 'number')
        throw new Error(`GitHub answered a workflow run without its id and path for run ${runId}`);
      return {
        id: data.id,
        path: data.path,
        ...(typeof data.event === 'string' ? { event: data.event } : {}),
        ...(typeof data.head_repository?.full_name === 'string'
          ? { headRepository: data.head_repository.full_name }
          : {})
      };
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return undefined;
      throw error;
    }
  }

  /**
   * "List workflow runs for a workflow", GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs
   * (https://docs.github.com/en/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow, read
   * 2026-11-28 in @octokit/openapi's description): `workflow_id` may be the workflow's file name, and
   * anyone with read access may call it. Without a filter parameter the list is not capped at 1,000.
   */
  async workflowRunIds(workflowFileName: string, page: number): Promise<WorkflowRunIdPage | undefined> {
    try {
      const { data, headers } = await this.octokit.rest.actions.listWorkflowRuns({
        ...this.repo,
        workflow_id: workflowFileName,
        per_page: 100,
        page,
        exclude_pull_requests: true
      });
      if (!Array.isArray(data.workflow_runs))
        throw new Error(`GitHub answered the runs of ${workflowFileName} without a list`);
      const ids = data.workflow_runs.map((run) => run.id).filter((id) => Number.isSafeInteger(id));
      return { ids, more: /\brel="next"/.test(headers.link ?? '') };
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return undefined;
      throw error;
    }
  }

  async runArtifacts(runId: number, name: string): Promise<RunArtifactEntry[]> {
    const { data } = await this.octokit.rest.actions.listWorkflowRunArtifacts({
      ...this.repo,
      run_id: runId,
      name,
      per_page: 100
    });
    if (!Array.isArray(data.artifacts))
      throw new Error(`GitHub answered the artifacts of run ${runId} without a list`);
    return data.artifacts
      .filter((artifact) => typeof artifact.id === 'number' && typeof artifact.name === 'string')
      .map((artifact) => ({ id: artifact.id, name: artifact.name }));
  }

  /** Every artifact of the run, all pages (a fan-out run's shard results: one per shard). */
  async allRunArtifacts(runId: number): Promise<RunArtifactEntry[]> {
    const artifacts = await this.octokit.paginate(this.octokit.rest.actions.listWorkflowRunArtifacts, {
      ...this.repo,
      run_id: runId,
      per_page: 100
    });
    return artifacts
      .filter((artifact) => typeof artifact.id === 'number' && typeof artifact.name === 'string')
      .map((artifact) => ({ id: artifact.id, name: artifact.name }));
  }
}
