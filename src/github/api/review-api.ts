import type { AccountType } from './github-api.js';

/*
 * The pull-request review boundary: the REST routes and the two GraphQL calls a review run makes.
 * Kept apart from GitHubApi so that runs which never review need not know them. Wire facts
 * (docs.github.com/en/rest/pulls/reviews, /pulls/comments, graphql resolveReviewThread, read
 * 2026-11-25): one review with line comments is one POST; a comment whose lines are not in the diff
 * fails the whole review with 422; a thread can be resolved only through GraphQL.
 */

/** A changed file of a pull request with its unified-diff patch (absent for binary or huge files). */
export interface ReviewFile {
  readonly filename: string;
  readonly status: string;
  readonly previousFilename: string | undefined;
  readonly patch: string | undefined;
}

/** A review comment already on the pull request (anyone's): what a new review must not repeat. */
export interface PostedReviewComment {
  readonly id: number;
  readonly body: string;
  readonly login: string;
  readonly userType: AccountType;
  readonly path: string;
  /** The comment's last line on the head it was posted on; null when the line is gone (outdated). */
  readonly line: number | null;
  readonly startLine: number | null;
  /** The commit the comment was first posted on, and its lines there (they stay when a push outdates it). */
  readonly originalCommitId: string;
  readonly originalStartLine: number | null;
  readonly originalLine: number | null;
  readonly side: 'LEFT' | 'RIGHT';
  readonly commitId: string;
  /** The comment it answers, for replies in a thread. */
  readonly inReplyToId: number | undefined;
  readonly createdAt: string;
}

/** A review already on the pull request: the action's own bodies carry the findings that were off the diff. */
export interface PostedReview {
  readonly id: number;
  readonly body: string;
  readonly login: string;
  readonly userType: AccountType;
  readonly commitId: string | null;
}

/** A review thread, as GraphQL's `reviewThreads` gives it: the ids of its comments, whether resolved. */
export interface ReviewThread {
  /** The GraphQL node id, for resolveReviewThread. */
  readonly id: string;
  readonly isResolved: boolean;
  readonly isOutdated: boolean;
  /** The REST ids (databaseId) of its comments, oldest first. */
  readonly commentIds: readonly number[];
}

export interface NewReviewComment {
  readonly path: string;
  readonly line: number;
  readonly side: 'LEFT' | 'RIGHT';
  readonly startLine?: number;
  readonly startSide?: 'LEFT' | 'RIGHT';
  readonly body: string;
}

export type ReviewEvent = 'COMMENT' | 'APPROVE' | 'REQUEST_CHANGES';

export interface NewReview {
  /** The head the agent read: GitHub anchors the comments there. */
  readonly commitId: string;
  readonly body: string;
  readonly event: ReviewEvent;
  readonly comments: readonly NewReviewComment[];
}

/** GitHub said no to a review (422: a line outside the diff, a bad range); the message is GitHub's. */
export class ReviewRejectedError extends Error {}

export interface PullRequestReviews {
  /** The head commit the pull request points at now. */
  headSha(pullNumber: number): Promise<string>;
  /** Every changed file with its patch (GitHub lists at most 3,000). */
  listReviewFiles(pullNumber: number): Promise<ReviewFile[]>;
  /** Every review comment on the pull request, oldest first (all pages). */
  listReviewComments(pullNumber: number): Promise<PostedReviewComment[]>;
  /** Every review on the pull request, oldest first (all pages). */
  listReviews(pullNumber: number): Promise<PostedReview[]>;
  /** One review with all its line comments; ReviewRejectedError on GitHub's 422. */
  createReview(pullNumber: number, review: NewReview): Promise<{ id: number; url: string }>;
  /** A reply in the thread of a review comment. */
  replyToReviewComment(
    pullNumber: number,
    commentId: number,
    body: string
  ): Promise<{ id: number; url: string }>;
  /** The pull request's review threads (GraphQL), all pages. */
  listReviewThreads(pullNumber: number): Promise<ReviewThread[]>;
  /** Resolves a thread (GraphQL); throws when the token may not (the caller then replies instead). */
  resolveReviewThread(threadId: string): Promise<void>;
}
