import type { RepositoryRef } from '../events/event.js';

/** The kind of account behind a login, as GitHub's REST API reports it (`Unknown`: absent or new). */
export type AccountType = 'Bot' | 'User' | 'Organization' | 'Mannequin' | 'Unknown';

export interface ThreadComment {
  readonly id: number;
  readonly body: string;
  readonly login: string;
  /** Only a `Bot` comment can be the action's own (see bot-author.ts). */
  readonly userType: AccountType;
  readonly createdAt: string;
}

export interface PullRequestAuthor {
  readonly login: string;
  readonly type: AccountType;
  /** GitHub's numeric user id: it stays with the account when the login is renamed. */
  readonly id: number | undefined;
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
  /**
   * Who opened it: a follow-up on a PR the action opened finds the issue it was for. The account's
   * type and id come with the login, since only the Bot account itself counts (see bot-author.ts).
   */
  readonly author?: PullRequestAuthor;
}

export interface ChangedFile {
  readonly filename: string;
  readonly status: string;
  readonly additions: number;
  readonly deletions: number;
}

/** A workflow artifact as "Get an artifact" describes it: enough to judge whether to read it. */
export interface WorkflowArtifact {
  readonly id: number;
  readonly name: string;
  readonly sizeInBytes: number;
  readonly expired: boolean;
  /** The run that uploaded it; absent when GitHub does not say. */
  readonly workflowRun:
    | {
        readonly id: number | undefined;
        readonly repositoryId: number | undefined;
        readonly headRepositoryId: number | undefined;
      }
    | undefined;
}

/** The artifact has expired: GitHub answers 410 to its download. */
export class ArtifactExpiredError extends Error {}

/** The artifact is larger than the caller would read: refused before or while downloading. */
export class ArtifactTooLargeError extends Error {}

/**
 * Workflow artifacts of the repository over the REST API (the token needs `actions: read`): a
 * follow-up reads the previous run's transcript artifact, which another workflow run uploaded.
 */
export interface WorkflowArtifacts {
  getArtifact(artifactId: number): Promise<WorkflowArtifact>;
  /** The artifact's zip, at most `maxBytes` long; ArtifactExpiredError on 410. */
  downloadArtifactZip(artifactId: number, maxBytes: number): Promise<Buffer>;
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
