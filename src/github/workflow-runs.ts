import type { RepositoryRef } from './event.js';
import { resilientOctokit, type Octokit, type OctokitGitHubApiOptions } from './octokit-api.js';

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
export class OctokitWorkflowRuns implements WorkflowRuns {
  private readonly octokit: Octokit;
  private readonly repo: { owner: string; repo: string };

  constructor(
    token: string,
    repository: Pick<RepositoryRef, 'owner' | 'name'>,
    baseUrl: string | undefined,
    options: OctokitGitHubApiOptions = {}
  ) {
    this.octokit = resilientOctokit(token, baseUrl, options);
    this.repo = { owner: repository.owner, repo: repository.name };
  }

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
