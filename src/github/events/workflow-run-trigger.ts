import type { ActionEvent } from './event.js';

export type CiTriggerDecision =
  { readonly run: true; readonly pullNumber: number } | { readonly run: false; readonly reason: string };

/**
 * Whether a `workflow_run` event may start a CI fix, from the payload alone (who owns the pull
 * request is asked of GitHub later, in ci-fix-gate.ts): a completed run that failed, of this
 * repository's own branch, linked to one of its pull requests.
 *
 * A fork's run never starts anything: `workflow_run` runs with the base repository's secrets and a
 * write token, and the fork's head is code anyone wrote (docs "Events that trigger workflows",
 * workflow_run, read 2026-11-28; GitHub leaves `pull_requests` empty for a fork's run, github/docs
 * issue 22501). The head repository is compared, not only the empty list, so that a payload that
 * links a pull request to a fork's run is refused too.
 */
export function decideCiFix(event: Extract<ActionEvent, { kind: 'workflow_run' }>): CiTriggerDecision {
  const run = event.workflowRun;
  if (event.action !== 'completed')
    return skip(`workflow_run.${event.action} is not a finished run (a CI fix starts on completed)`);
  if (run.conclusion !== 'failure')
    return skip(
      `the workflow run ${run.name === '' ? run.id : `"${run.name}"`} ended ${run.conclusion ?? 'without a conclusion'}, not failure: there is nothing to fix`
    );
  if (run.headRepoFullName !== event.repository.fullName)
    return skip(
      `the failed run is of ${run.headRepoFullName ?? 'a deleted repository'}'s code, not of ${event.repository.fullName}: ` +
        "a fork's CI is never fixed from a workflow_run, which would run the fork's code with this repository's secrets"
    );
  const pull = run.pullRequests.find((candidate) => candidate.headRef === run.headBranch);
  if (pull === undefined)
    return skip(
      `the failed run on ${run.headBranch === undefined ? 'its commit' : `the branch ${run.headBranch}`} belongs to no pull request of this repository`
    );
  return { run: true, pullNumber: pull.number };
}

function skip(reason: string): CiTriggerDecision {
  return { run: false, reason };
}
