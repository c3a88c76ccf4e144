import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ActionsFanoutArtifacts, type FanoutArtifacts } from '../../artifacts/fanout-artifacts.js';
import { FanoutInputError } from '../../fanout/fanout-error.js';
import type { ManifestOrigin } from '../../fanout/manifest.js';
import { workflowFileOf } from '../../followup/workflow-origin.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';

/** What every role of a fan-out job works with: the action, the trusted request, the plan's owner, the artifacts. */
export interface FanoutJob {
  readonly action: ActionContext;
  readonly request: AcceptedRequest;
  /** This repository and workflow file: a manifest written for any other is refused. */
  readonly origin: ManifestOrigin;
  readonly artifacts: FanoutArtifacts;
  /** A private folder for the job's own files (RUNNER_TEMP on a runner), outside the checkout. */
  readonly scratch: string;
}

export async function openFanoutJob(
  action: ActionContext,
  request: AcceptedRequest,
  artifacts: FanoutArtifacts = new ActionsFanoutArtifacts()
): Promise<FanoutJob> {
  const scratch = await mkdtemp(path.join(action.env.RUNNER_TEMP || tmpdir(), 'compact-agent-fanout-'));
  return { action, request, origin: fanoutOrigin(action.env), artifacts, scratch };
}

/**
 * Who a plan belongs to: `owner/name` (GITHUB_REPOSITORY) and the workflow file of this run
 * (from GITHUB_WORKFLOW_REF, "the ref path to the workflow", e.g.
 * `octocat/hello-world/.github/workflows/my-workflow.yml@refs/heads/my_branch`,
 * https://docs.github.com/en/actions/reference/variables-reference, read 2026-11-28).
 */
export function fanoutOrigin(env: NodeJS.ProcessEnv): ManifestOrigin {
  const repository = env.GITHUB_REPOSITORY?.trim() ?? '';
  const workflow = workflowFileOf(env.GITHUB_WORKFLOW_REF ?? '', repository);
  if (repository === '' || workflow === undefined)
    throw new FanoutInputError(
      'A fan-out job needs GITHUB_REPOSITORY and GITHUB_WORKFLOW_REF, which GitHub sets in every workflow run: ' +
        'run the fan-out roles in a GitHub Actions workflow (or use `compact-agent fanout` locally).'
    );
  return { repository, workflow };
}
