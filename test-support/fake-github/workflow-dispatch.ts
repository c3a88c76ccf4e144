/**
 * The workflow-dispatch route of the fake GitHub: "Create a workflow dispatch event",
 * POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches
 * (https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event, read 2026-11-28
 * in @octokit/openapi's description). The body is `ref` (a branch or tag), `inputs` (at most 25) and,
 * since February 2026, `return_run_details`: true answers 200 with the new run's `workflow_run_id`,
 * `run_url` and `html_url`, otherwise 204 with no body ("Workflow dispatch API now returns run IDs",
 * https://github.blog/changelog/2026-02-19-workflow-dispatch-api-now-returns-run-ids).
 *
 * A test declares the workflows that may be dispatched (`defineWorkflow`: the file and its
 * `workflow_dispatch` inputs); the fake answers as GitHub does: 404 for a workflow it does not
 * have, 422 for a ref the repository lacks, an input the workflow does not declare, or a required
 * one missing. A dispatch registers its run (queued, event workflow_dispatch) and is recorded.
 */
import { WEB_URL } from './render.js';

export interface FakeDispatchWorkflow {
  /** The file in .github/workflows/ (`fanout.yml`). */
  readonly file: string;
  /** The names of its `workflow_dispatch` inputs, and which of them are required. */
  readonly inputs: readonly string[];
  readonly required?: readonly string[];
}

export interface RecordedDispatch {
  readonly workflow: string;
  readonly ref: string;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly runId: number;
}

interface DispatchAnswer {
  readonly status: number;
  readonly body?: unknown;
}

const DOC = 'https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event';
/** New runs' ids start here, far from the ids tests give the runs they spawn. */
const FIRST_RUN_ID = 880_001;

export class FakeWorkflowDispatchRoutes {
  private readonly workflows = new Map<string, FakeDispatchWorkflow>();
  readonly dispatches: RecordedDispatch[] = [];

  constructor(
    private readonly repo: () => { readonly fullName: string; readonly hasRef: (ref: string) => boolean },
    private readonly startRun: (id: number, path: string) => void
  ) {}

  define(workflow: FakeDispatchWorkflow): void {
    this.workflows.set(workflow.file, workflow);
  }

  dispatch(api: string, workflowId: string, body: unknown): DispatchAnswer {
    const workflow = this.workflows.get(workflowId);
    if (!workflow)
      return { status: 404, body: { message: 'Not Found', documentation_url: DOC, status: '404' } };
    const request = (typeof body === 'object' && body !== null ? body : {}) as {
      ref?: unknown;
      inputs?: unknown;
      return_run_details?: unknown;
    };
    const ref = typeof request.ref === 'string' ? request.ref.replace(/^refs\/(heads|tags)\//, '') : '';
    if (!this.repo().hasRef(ref)) return invalid(`No ref found for: ${String(request.ref)}`);
    const inputs =
      typeof request.inputs === 'object' && request.inputs !== null
        ? (request.inputs as Record<string, unknown>)
        : {};
    const unexpected = Object.keys(inputs).filter((name) => !workflow.inputs.includes(name));
    if (unexpected.length > 0) return invalid(`Unexpected inputs provided: ${JSON.stringify(unexpected)}`);
    const missing = (workflow.required ?? []).find(
      (name) => inputs[name] === undefined || inputs[name] === ''
    );
    if (missing !== undefined) return invalid(`Required input '${missing}' not provided`);
    const runId = FIRST_RUN_ID + this.dispatches.length;
    this.startRun(runId, `.github/workflows/${workflow.file}`);
    this.dispatches.push({ workflow: workflow.file, ref, inputs: { ...inputs }, runId });
    if (request.return_run_details !== true) return { status: 204 };
    const full = this.repo().fullName;
    return {
      status: 200,
      body: {
        workflow_run_id: runId,
        run_url: `${api}/repos/${full}/actions/runs/${runId}`,
        html_url: `${WEB_URL}/${full}/actions/runs/${runId}`
      }
    };
  }
}

function invalid(message: string): DispatchAnswer {
  return { status: 422, body: { message, documentation_url: DOC, status: '422' } };
}
