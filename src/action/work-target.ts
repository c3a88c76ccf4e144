import type { ActionEvent } from '../github/events/event.js';
import type { GitHubApi } from '../github/api/github-api.js';
import type { GitRepository } from '../git/repository.js';
import { errorFirstLine } from '../errors/error-message.js';
import { pullRequestNumberOf } from './event-parts.js';

/** Where the run's changes go, decided before the agent starts (it works on the right checkout). */
export type WorkTarget =
  | {
      readonly kind: 'new-branch';
      readonly branch: string;
      readonly base: string;
      readonly issueNumber: number | undefined;
    }
  | { readonly kind: 'pull-request-branch'; readonly branch: string; readonly pullNumber: number }
  /** A follow-up on an issue: the previous run's branch, checked out from origin, and its open PR. */
  | {
      readonly kind: 'continued-branch';
      readonly branch: string;
      readonly base: string;
      readonly issueNumber: number | undefined;
      readonly pullNumber: number | undefined;
    }
  | { readonly kind: 'fork'; readonly pullNumber: number; readonly headRepo: string };

export interface TargetOptions {
  readonly branchPrefix: string;
  readonly shortId: string;
  readonly defaultBranch: string;
  readonly repositoryFullName: string;
  /**
   * The `base_branch` input: new branches start from it and their pull requests target it.
   * Undefined: the checkout as it is, and the default branch. A run on a pull request ignores it.
   */
  readonly baseBranch?: string | undefined;
}

/** base_branch names a branch origin does not have (or origin could not be asked): nothing ran. */
export class BaseBranchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaseBranchError';
  }
}

/**
 * Decides the target and checks out what the agent should work on: the PR's head branch for a
 * comment or a review on a same-repository PR, the PR's head commit (detached) for a fork, the tip of
 * `base_branch` on origin when it is set, else HEAD as it is. The new branch's `base` (the branch
 * its pull request targets, and the one a follow-up that starts afresh starts from) is
 * `base_branch` or the default branch.
 */
export async function prepareWorkTarget(
  event: ActionEvent,
  api: GitHubApi,
  git: GitRepository,
  options: TargetOptions
): Promise<WorkTarget> {
  const pull = await pullRequestOf(event, api);
  if (pull) {
    // A deleted head repository (GitHub answers `head.repo: null`) was a fork's: its branch name may
    // be one of ours (`develop`), and pushing to that would write the fork's work into our branch.
    if (pull.headRepoFullName !== options.repositoryFullName) {
      await git.checkoutFromOrigin(`pull/${pull.number}/head`, undefined);
      return { kind: 'fork', pullNumber: pull.number, headRepo: pull.headRepoFullName ?? '(a deleted fork)' };
    }
    await git.checkoutFromOrigin(pull.headRef, pull.headRef);
    return { kind: 'pull-request-branch', branch: pull.headRef, pullNumber: pull.number };
  }
  const issueNumber =
    event.kind === 'issue_comment' || event.kind === 'issues' ? event.issue.number : undefined;
  if (options.baseBranch !== undefined) await checkOutBaseBranch(options.baseBranch, git, options);
  return {
    kind: 'new-branch',
    branch: `${options.branchPrefix}${issueNumber ?? 'run'}-${options.shortId}`,
    base: options.baseBranch ?? options.defaultBranch,
    issueNumber
  };
}

/**
 * The agent starts from the tip of `base_branch` on origin. Asked of origin first, so a branch
 * that is not there stops the run with a message about the input, before the agent or any push.
 */
async function checkOutBaseBranch(base: string, git: GitRepository, options: TargetOptions): Promise<void> {
  const ref = `refs/heads/${base}`;
  let exists: boolean;
  try {
    exists = await git.remoteHasBranch(base);
  } catch (error) {
    throw new BaseBranchError(
      `The input base_branch is "${base}", but origin could not be asked whether it has that branch ` +
        `(${errorFirstLine(error)}), so the run stopped before the agent started and nothing was pushed. ` +
        'Check that the workflow checks out the repository (actions/checkout) before this action.'
    );
  }
  if (!exists) {
    throw new BaseBranchError(
      `The input base_branch is "${base}", but origin has no branch of that name, so the run stopped ` +
        'before the agent started and nothing was pushed. Push or create that branch, correct the ' +
        `name in the workflow, or leave base_branch empty to start from the default branch (${options.defaultBranch}).`
    );
  }
  await git.checkoutFromOrigin(ref, base);
}

async function pullRequestOf(
  event: ActionEvent,
  api: GitHubApi
): Promise<{ number: number; headRef: string; headRepoFullName: string | undefined } | undefined> {
  if (
    event.kind === 'pull_request_review_comment' ||
    event.kind === 'pull_request_review' ||
    event.kind === 'pull_request'
  ) {
    const pr = event.pullRequest;
    return { number: pr.number, headRef: pr.headRef, headRepoFullName: pr.headRepoFullName };
  }
  const pullNumber =
    event.kind === 'issue_comment' && event.issue.isPullRequest
      ? event.issue.number
      : event.kind === 'workflow_run'
        ? pullRequestNumberOf(event)
        : undefined;
  if (pullNumber !== undefined) {
    const pr = await api.getPullRequest(pullNumber);
    return { number: pr.number, headRef: pr.headRef, headRepoFullName: pr.headRepoFullName };
  }
  return undefined;
}
