import { transcriptArtifactName } from '../artifacts/transcript-artifact.js';
import { errorMessage } from '../errors/error-message.js';
import type { WorkflowRunReads } from '../github/workflow-runs.js';
import { runIdParts } from './artifact-state.js';
import type { CarriedState } from './carried-state.js';

/**
 * Whether a carried state was written by a run of THIS workflow. With the default `bot_name`, every
 * workflow of the repository that comments with GITHUB_TOKEN comments as the same
 * `github-actions[bot]`, and a welcome or triage workflow that quotes an issue's body can end its
 * comment with a reader's forged state block. So the bot account is not the trust root: the run the
 * state names is looked up through the Actions API, and it must be a run of this repository, of this
 * run's own workflow file, that uploaded the transcript artifact the state names.
 */
export type Origin = { readonly kind: 'ours' } | { readonly kind: 'foreign'; readonly reason: string };

export interface StateOrigin {
  judge(state: CarriedState): Promise<Origin>;
}

/**
 * At most this many runs are looked up per action run: a thread filled with forged states must not
 * turn one run into hundreds of API calls. A state past the bound is passed over.
 */
export const MAX_RUN_LOOKUPS = 5;

/**
 * The workflow file of a `GITHUB_WORKFLOW_REF` or of a run's `path`, without the repository before it
 * or the ref after it. GITHUB_WORKFLOW_REF is "the ref path to the workflow", e.g.
 * `octocat/hello-world/.github/workflows/my-workflow.yml@refs/heads/my_branch`
 * (https://docs.github.com/en/actions/reference/variables-reference, read 2026-11-28).
 */
export function workflowFileOf(reference: string, repositoryFullName: string): string | undefined {
  const at = reference.lastIndexOf('@');
  const withoutRef = at < 0 ? reference : reference.slice(0, at);
  const prefix = `${repositoryFullName}/`;
  const file = withoutRef.toLowerCase().startsWith(prefix.toLowerCase())
    ? withoutRef.slice(prefix.length)
    : withoutRef;
  return file.trim() === '' ? undefined : file;
}

/** "5001-1" or "5001": the numeric run id, or undefined for any other form. */
function numericRunId(runId: string): number | undefined {
  if (!/^\d{1,16}(-\d{1,6})?$/.test(runId)) return undefined;
  const id = Number(runIdParts(runId)[0]);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * The check against this run's workflow. `workflowRef` is this run's GITHUB_WORKFLOW_REF; without it
 * (not in a workflow run) nothing can be tied to this workflow, and every state is passed over.
 * Lookups are cached per run id for the action run, and bounded by MAX_RUN_LOOKUPS. A 403 (the token
 * lacks `actions: read`) passes the state over with a reason that says so; any other failure throws,
 * so the run reports that the thread could not be read rather than quietly forgetting it.
 */
export function ownWorkflowOrigin(
  reads: WorkflowRunReads,
  options: { readonly workflowRef: string | undefined; readonly repositoryFullName: string }
): StateOrigin {
  const ownFile =
    options.workflowRef === undefined || options.workflowRef.trim() === ''
      ? undefined
      : workflowFileOf(options.workflowRef, options.repositoryFullName);
  const verdicts = new Map<string, Promise<Origin>>();
  const foreign = (reason: string): Origin => ({ kind: 'foreign', reason });

  const lookUp = async (state: CarriedState, ownFile: string): Promise<Origin> => {
    const id = numericRunId(state.runId);
    if (id === undefined) return foreign('it names no numeric run id');
    try {
      const run = await reads.workflowRun(id);
      if (run === undefined) return foreign(`it names run ${id}, which this repository does not have`);
      const file = workflowFileOf(run.path, options.repositoryFullName);
      if (file !== ownFile)
        return foreign(
          `it names run ${id} of ${(file ?? run.path).slice(0, 120)}, not of this workflow (${ownFile})`
        );
      if (state.artifactId === null) return { kind: 'ours' };
      const name = transcriptArtifactName(...runIdParts(state.runId));
      const artifacts = await reads.runArtifacts(id, name);
      if (!artifacts.some((artifact) => artifact.id === state.artifactId && artifact.name === name))
        return foreign(
          `it names the transcript artifact ${state.artifactId}, which run ${id} did not upload`
        );
      return { kind: 'ours' };
    } catch (error) {
      if ((error as { status?: unknown }).status === 403)
        return foreign(
          `the token may not read run ${id} to check it (GitHub answered 403; give the workflow \`actions: read\`)`
        );
      throw new Error(
        `run ${id} could not be looked up (${errorMessage(error).split('\n')[0]!.slice(0, 200)})`
      );
    }
  };

  return {
    judge(state) {
      if (ownFile === undefined)
        return Promise.resolve(
          foreign('this run does not know its own workflow file (GITHUB_WORKFLOW_REF is not set)')
        );
      const key = `${state.runId}\u0000${state.artifactId ?? ''}`;
      let verdict = verdicts.get(key);
      if (verdict === undefined) {
        if (verdicts.size >= MAX_RUN_LOOKUPS)
          return Promise.resolve(
            foreign(`more than ${MAX_RUN_LOOKUPS} runs were looked up in this run already`)
          );
        verdict = lookUp(state, ownFile);
        verdicts.set(key, verdict);
        verdict.catch(() => verdicts.delete(key));
      }
      return verdict;
    }
  };
}
