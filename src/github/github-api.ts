import type { RepositoryRef } from './event.js';

export interface ThreadComment {
  readonly id: number;
  readonly body: string;
  readonly login: string;
  readonly userType: string;
  readonly createdAt: string;
}

export interface PullRequestDetails {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly headRef: string;
  readonly headRepoFullName: string | undefined;
  readonly baseRef: string;
  /** Open or closed (a merged PR is closed and merged); absent where a caller does not know. */
  readonly state?: 'open' | 'closed';
  readonly merged?: boolean;
  /** Who opened it: a follow-up on a PR the action opened finds the issue it was for. */
  readonly author?: string;
}

export interface ChangedFile {
  readonly filename: string;
  readonly status: string;
  readonly additions: number;
  readonly deletions: number;
}

export type ReactionTarget = { readonly kind: 'issue_comment' | 'review_comment'; readonly id: number };

/** The GitHub boundary: the few REST calls the action makes, behind an interface tests can fake. */
export interface GitHubApi {
  readonly repository: Pick<RepositoryRef, 'owner' | 'name'>;
  permission(login: string): Promise<string>;
  addReaction(target: ReactionTarget, content: 'eyes' | 'rocket' | 'confused'): Promise<void>;
  createComment(issueNumber: number, body: string): Promise<{ id: number; url: string }>;
  updateComment(commentId: number, body: string): Promise<void>;
  listComments(issueNumber: number): Promise<ThreadComment[]>;
  getPullRequest(number: number): Promise<PullRequestDetails>;
  listPullRequestFiles(number: number): Promise<ChangedFile[]>;
  createPullRequest(request: {
    title: string;
    head: string;
    base: string;
    body: string;
    draft: boolean;
  }): Promise<{ number: number; url: string }>;
  /** Replaces a pull request's body (a follow-up run updates its PR instead of opening another). */
  updatePullRequest(number: number, update: { body: string }): Promise<{ number: number; url: string }>;
}
