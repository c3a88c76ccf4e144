import { z } from 'zod';
import type { RepositoryRef } from '../events/event.js';
import { accountType, type Octokit } from './octokit-api.js';
import {
  ReviewRejectedError,
  type NewReview,
  type PostedReview,
  type PostedReviewComment,
  type PullRequestReviews,
  type ReviewFile,
  type ReviewThread
} from './review-api.js';

/*
 * PullRequestReviews over the same Octokit as OctokitGitHubApi (retries, throttling, GHES base URL).
 * Wire facts, read 2026-11-25:
 * - "Create a review for a pull request", POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews
 *   (https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request): `commit_id`,
 *   `body`, `event` (APPROVE, REQUEST_CHANGES, COMMENT; without it the review stays PENDING),
 *   `comments[]` of {path, line, side, start_line, start_side, body}; answers 200. A comment outside
 *   the diff fails the whole review with 422 "Unprocessable Entity" and `errors` as plain strings.
 * - "List review comments on a pull request", GET .../pulls/{pull_number}/comments, and "Create a
 *   reply for a review comment", POST .../pulls/{pull_number}/comments/{comment_id}/replies (201)
 *   (https://docs.github.com/rest/pulls/comments). An outdated comment comes back with `line: null`.
 * - "List pull requests files" (https://docs.github.com/rest/pulls/pulls#list-pull-requests-files):
 *   `patch` is absent for binary and very large files; at most 3,000 files.
 * - Threads are GraphQL only: `PullRequest.reviewThreads` (connection, `first` at most 100) and the
 *   `resolveReviewThread(input: {threadId})` mutation
 *   (https://docs.github.com/graphql/reference/objects#pullrequestreviewthread,
 *   https://docs.github.com/graphql/reference/mutations#resolvereviewthread).
 */

const side = z.enum(['LEFT', 'RIGHT']);

const reviewCommentSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  user: z.object({ login: z.string(), type: z.string().optional() }).nullable(),
  path: z.string(),
  line: z.number().int().nullable().optional(),
  start_line: z.number().int().nullable().optional(),
  original_start_line: z.number().int().nullable().optional(),
  original_line: z.number().int().nullable().optional(),
  side: side.optional(),
  commit_id: z.string(),
  original_commit_id: z.string(),
  in_reply_to_id: z.number().int().optional(),
  created_at: z.string()
});

const fileSchema = z.object({
  filename: z.string(),
  status: z.string(),
  previous_filename: z.string().optional(),
  patch: z.string().optional()
});

/** "List reviews for a pull request": body may be empty (""), commit_id null for some old reviews. */
const reviewSchema = z.object({
  id: z.number().int(),
  body: z.string().nullable().optional(),
  user: z.object({ login: z.string(), type: z.string().optional() }).nullable(),
  commit_id: z.string().nullable().optional()
});

const createdSchema = z.object({ id: z.number().int(), html_url: z.string() });

const pullSchema = z.object({ head: z.object({ sha: z.string() }) });

const threadsSchema = z.object({
  repository: z.object({
    pullRequest: z.object({
      reviewThreads: z.object({
        pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
        nodes: z.array(
          z.object({
            id: z.string(),
            isResolved: z.boolean(),
            isOutdated: z.boolean(),
            comments: z.object({ nodes: z.array(z.object({ databaseId: z.number().int().nullable() })) })
          })
        )
      })
    })
  })
});

const resolvedSchema = z.object({
  resolveReviewThread: z.object({ thread: z.object({ id: z.string(), isResolved: z.boolean() }) })
});

/** GitHub's 422 body: `errors` are strings for a review, objects for most other writes. */
const rejectionSchema = z.object({
  status: z.literal(422),
  response: z.object({
    data: z.object({
      message: z.string(),
      errors: z
        .array(
          z.union([z.string(), z.object({ message: z.string().optional(), code: z.string().optional() })])
        )
        .optional()
    })
  })
});

/** What Octokit's GraphQL client throws when the answer has `errors`. */
const graphqlFailureSchema = z.object({
  errors: z.array(z.object({ type: z.string().optional(), message: z.string() })).min(1)
});

// Comment ids are only needed to tie a thread to REST comments; its first 100 cover every
// realistic thread (the top comment is first).
const THREADS_QUERY = `query ($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id isResolved isOutdated comments(first: 100) { nodes { databaseId } } }
      }
    }
  }
}`;

const RESOLVE_MUTATION = `mutation ($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

export class OctokitPullRequestReviews implements PullRequestReviews {
  private readonly repo: { owner: string; repo: string };

  constructor(
    private readonly octokit: Octokit,
    repository: Pick<RepositoryRef, 'owner' | 'name'>
  ) {
    this.repo = { owner: repository.owner, repo: repository.name };
  }

  async headSha(pullNumber: number): Promise<string> {
    const { data } = await this.octokit.rest.pulls.get({ ...this.repo, pull_number: pullNumber });
    return pullSchema.parse(data).head.sha;
  }

  async listReviewFiles(pullNumber: number): Promise<ReviewFile[]> {
    const files = await this.octokit.paginate(this.octokit.rest.pulls.listFiles, {
      ...this.repo,
      pull_number: pullNumber,
      per_page: 100
    });
    return z
      .array(fileSchema)
      .parse(files)
      .map((file) => ({
        filename: file.filename,
        status: file.status,
        previousFilename: file.previous_filename,
        patch: file.patch
      }));
  }

  async listReviewComments(pullNumber: number): Promise<PostedReviewComment[]> {
    const comments = await this.octokit.paginate(this.octokit.rest.pulls.listReviewComments, {
      ...this.repo,
      pull_number: pullNumber,
      per_page: 100
    });
    return z
      .array(reviewCommentSchema)
      .parse(comments)
      .map((comment) => ({
        id: comment.id,
        body: comment.body,
        login: comment.user?.login ?? 'ghost',
        userType: accountType(comment.user?.type),
        path: comment.path,
        line: comment.line ?? null,
        startLine: comment.start_line ?? null,
        originalCommitId: comment.original_commit_id,
        originalStartLine: comment.original_start_line ?? null,
        originalLine: comment.original_line ?? null,
        side: comment.side ?? 'RIGHT',
        commitId: comment.commit_id,
        inReplyToId: comment.in_reply_to_id,
        createdAt: comment.created_at
      }));
  }

  /** GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews (docs.github.com/en/rest/pulls/reviews, read 2026-11-25). */
  async listReviews(pullNumber: number): Promise<PostedReview[]> {
    const reviews = await this.octokit.paginate(this.octokit.rest.pulls.listReviews, {
      ...this.repo,
      pull_number: pullNumber,
      per_page: 100
    });
    return z
      .array(reviewSchema)
      .parse(reviews)
      .map((review) => ({
        id: review.id,
        body: review.body ?? '',
        login: review.user?.login ?? 'ghost',
        userType: accountType(review.user?.type),
        commitId: review.commit_id ?? null
      }));
  }

  async createReview(pullNumber: number, review: NewReview): Promise<{ id: number; url: string }> {
    try {
      const { data } = await this.octokit.rest.pulls.createReview({
        ...this.repo,
        pull_number: pullNumber,
        commit_id: review.commitId,
        body: review.body,
        event: review.event,
        comments: review.comments.map((comment) => ({
          path: comment.path,
          line: comment.line,
          side: comment.side,
          ...(comment.startLine !== undefined
            ? { start_line: comment.startLine, start_side: comment.startSide ?? comment.side }
            : {}),
          body: comment.body
        }))
      });
      const created = createdSchema.parse(data);
      return { id: created.id, url: created.html_url };
    } catch (error) {
      const rejected = rejectionSchema.safeParse(error);
      if (!rejected.success) throw error;
      const { message, errors = [] } = rejected.data.response.data;
      const details = errors
        .map((e) => (typeof e === 'string' ? e : (e.message ?? e.code ?? '')))
        .filter(Boolean);
      throw new ReviewRejectedError(details.length > 0 ? `${message}: ${details.join('; ')}` : message, {
        cause: error
      });
    }
  }

  async replyToReviewComment(
    pullNumber: number,
    commentId: number,
    body: string
  ): Promise<{ id: number; url: string }> {
    const { data } = await this.octokit.rest.pulls.createReplyForReviewComment({
      ...this.repo,
      pull_number: pullNumber,
      comment_id: commentId,
      body
    });
    const created = createdSchema.parse(data);
    return { id: created.id, url: created.html_url };
  }

  async listReviewThreads(pullNumber: number): Promise<ReviewThread[]> {
    const threads: ReviewThread[] = [];
    let after: string | null = null;
    do {
      const answer: unknown = await this.octokit.graphql(THREADS_QUERY, {
        owner: this.repo.owner,
        name: this.repo.repo,
        number: pullNumber,
        after
      });
      const page = threadsSchema.parse(answer).repository.pullRequest.reviewThreads;
      for (const node of page.nodes) {
        threads.push({
          id: node.id,
          isResolved: node.isResolved,
          isOutdated: node.isOutdated,
          commentIds: node.comments.nodes.map((c) => c.databaseId).filter((id): id is number => id !== null)
        });
      }
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after !== null);
    return threads;
  }

  async resolveReviewThread(threadId: string): Promise<void> {
    let answer: unknown;
    try {
      answer = await this.octokit.graphql(RESOLVE_MUTATION, { threadId });
    } catch (error) {
      const failure = graphqlFailureSchema.safeParse(error);
      if (!failure.success) throw error;
      const [first] = failure.data.errors;
      throw new Error(
        `GitHub refused to resolve the review thread ${threadId}: ${first?.type ? `${first.type}: ` : ''}${first?.message ?? ''}`,
        { cause: error }
      );
    }
    if (!resolvedSchema.parse(answer).resolveReviewThread.thread.isResolved)
      throw new Error(`GitHub did not resolve the review thread ${threadId}`);
  }
}
