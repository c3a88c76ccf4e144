import { z } from 'zod';
import { RepositoryClient } from './octokit-api.js';

/** The 200 answer's `workflow-dispatch-response` (the description's required fields). */
const runDetails = z.object({
  workflow_run_id: z.number().int().positive(),
  html_url: z.string().url()
});

/** A dispatched workflow run, as far as GitHub said which run it started. */
export interface DispatchedRun {
  /** The new run's id and page; undefined when GitHub answered without them (204, an older GHES). */
  readonly runId: number | undefined;
  readonly htmlUrl: string | undefined;
}

/** The one Actions write `/agent fanout` makes: start a workflow_dispatch run of a workflow file. */
export interface WorkflowDispatcher {
  dispatch(
    workflowFile: string,
    ref: string,
    inputs: Readonly<Record<string, string>>
  ): Promise<DispatchedRun>;
}

/**
 * "Create a workflow dispatch event", POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches
 * (https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event, read 2026-11-28
 * in @octokit/openapi's description): `workflow_id` may be the file name, `ref` a branch, and the
 * token needs `actions: write`. Since February 2026 `return_run_details: true` answers 200 with the
 * run's `workflow_run_id` and `html_url` instead of an empty 204 ("Workflow dispatch API now returns
 * run IDs", https://github.blog/changelog/2026-02-19-workflow-dispatch-api-now-returns-run-ids);
 * the description's breaking-changes list makes that the only answer from API version 2026-03-10 on.
 * A GitHub Enterprise Server without it refuses the unknown parameter (400 or 422 naming it): the
 * dispatch is sent once more without it, and the run is then not known by id.
 */
export class OctokitWorkflowDispatcher extends RepositoryClient implements WorkflowDispatcher {
  async dispatch(
    workflowFile: string,
    ref: string,
    inputs: Readonly<Record<string, string>>
  ): Promise<DispatchedRun> {
    const request = { ...this.repo, workflow_id: workflowFile, ref, inputs: { ...inputs } };
    try {
      // Octokit's types still know only the 204; the 200's body is checked here.
      const answer: { readonly status: number; readonly data: unknown } =
        await this.octokit.rest.actions.createWorkflowDispatch({ ...request, return_run_details: true });
      const details = answer.status === 200 ? runDetails.safeParse(answer.data) : undefined;
      return details?.success
        ? { runId: details.data.workflow_run_id, htmlUrl: details.data.html_url }
        : { runId: undefined, htmlUrl: undefined };
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      const message = error instanceof Error ? error.message : '';
      if ((status === 400 || status === 422) && message.includes('return_run_details')) {
        await this.octokit.rest.actions.createWorkflowDispatch(request);
        return { runId: undefined, htmlUrl: undefined };
      }
      throw error;
    }
  }
}
