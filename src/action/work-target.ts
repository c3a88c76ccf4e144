import type { ActionEvent } from '../github/event.js';
import type { GitHubApi } from '../github/github-api.js';
import type { GitRepository } from '../git/repository.js';

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
}

/**
 * Decides the target and checks out what the agent should work on: the PR's head branch for a
 * comment on a same-repository PR, the PR's head commit (detached) for a fork, else HEAD as it is.
 */
export async function prepareWorkTarget(
  event: ActionEvent,
  api: GitHubApi,
  git: GitRepository,
  options: TargetOptions
): Promise<WorkTarget> {
  const pull = await pullRequestOf(event, api);
  if (pull) {
    if (pull.headRepoFullName !== undefined && pull.headRepoFullName !== options.repositoryFullName) {
      await git.checkoutFromOrigin(`pull/${pull.number}/head`, undefined);
      return { kind: 'fork', pullNumber: pull.number, headRepo: pull.headRepoFullName };
    }
    await git.checkoutFromOrigin(pull.headRef, pull.headRef);
    return { kind: 'pull-request-branch', branch: pull.headRef, pullNumber: pull.number };
  }
  const issueNumber =
    event.kind === 'issue_comment' || event.kind === 'issues' ? event.issue.number : undefined;
  return {
    kind: 'new-branch',
    branch: `${options.branchPrefix}${issueNumber ?? 'run'}-${options.shortId}`,
    base: options.defaultBranch,
    issueNumber
  };
}

async function pullRequestOf(
  event: ActionEvent,
  api: GitHubApi
): Promise<{ number: number; headRef: string; headRepoFullName: string | undefined } | undefined> {
  if (event.kind === 'pull_request_review_comment') {
    const pr = event.pullRequest;
    return { number: pr.number, headRef: pr.headRef, headRepoFullName: pr.headRepoFullName };
  }
  if (event.kind === 'issue_comment' && event.issue.isPullRequest) {
    const pr = await api.getPullRequest(event.issue.number);
    return { number: pr.number, headRef: pr.headRef, headRepoFullName: pr.headRepoFullName };
  }
  return undefined;
}
