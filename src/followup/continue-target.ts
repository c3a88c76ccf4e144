import type { GitHubApi } from '../github/github-api.js';
import type { GitRepository } from '../git/repository.js';
import type { WorkTarget } from '../action/work-target.js';
import { branchNameProblem } from '../config/branch-name.js';
import type { CarriedState } from './carried-state.js';

export interface ContinuedTarget {
  readonly target: WorkTarget;
  /** What the report says about where this run's work went, and why. */
  readonly note: string;
}

/**
 * Where a follow-up on an issue works: the previous run's branch, fetched from origin with whatever
 * people pushed on it since, and its open pull request. When the branch is gone, or the PR was
 * merged or closed, the fresh target (a new branch from the default branch) stays, and the note
 * says why.
 */
export async function continueOnPreviousBranch(
  previous: CarriedState,
  fresh: Extract<WorkTarget, { kind: 'new-branch' }>,
  api: GitHubApi,
  git: GitRepository
): Promise<ContinuedTarget> {
  const startFresh = (why: string): ContinuedTarget => ({
    target: fresh,
    note: `${why}, so this run starts a new branch from \`${fresh.base}\`.`
  });
  const branch = previous.branch;
  if (branch === null) return startFresh('The previous run pushed no branch');
  if (branchNameProblem(branch) !== undefined || branch === fresh.base)
    return startFresh(`The previous run's branch name \`${branch.slice(0, 60)}\` cannot be continued`);
  let pullNumber: number | undefined;
  if (previous.pullRequest !== null) {
    const pull = await api.getPullRequest(previous.pullRequest).catch(() => undefined);
    if (pull === undefined) return startFresh(`The pull request #${previous.pullRequest} could not be read`);
    if (pull.merged) return startFresh(`The pull request #${pull.number} was merged`);
    if (pull.state === 'closed') return startFresh(`The pull request #${pull.number} was closed`);
    if (pull.headRef !== branch)
      return startFresh(`The pull request #${pull.number} no longer comes from \`${branch}\``);
    pullNumber = pull.number;
  }
  if (!(await git.remoteHasBranch(branch))) return startFresh(`The branch \`${branch}\` was deleted`);
  // The full ref: a bare name could fetch a tag of the same name.
  await git.checkoutFromOrigin(`refs/heads/${branch}`, branch);
  return {
    target: {
      kind: 'continued-branch',
      branch,
      base: fresh.base,
      issueNumber: fresh.issueNumber,
      pullNumber
    },
    note: `Continued on \`${branch}\`${pullNumber !== undefined ? ` (pull request #${pullNumber})` : ''}, on top of its latest commit.`
  };
}
