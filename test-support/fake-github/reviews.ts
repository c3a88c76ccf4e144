/**
 * The pull-request review routes of the fake GitHub (https://docs.github.com/rest/pulls/reviews and
 * https://docs.github.com/rest/pulls/comments, read 2026-11-25): list review comments, create a
 * review with its line comments, list reviews, reply to a review comment. A review is checked as a
 * whole before anything is stored, so a rejected review leaves nothing behind, as on GitHub.
 *
 * GitHub's 422s for a review, as clients have logged them (the fake answers the same text):
 * - a line not in the diff: `{"message":"Unprocessable Entity","errors":["Pull request review thread
 *   line must be part of the diff and Pull request review thread diff hunk can't be blank"]}`
 *   (The-PR-Agent/pr-agent#592, 2024-01-13); with a `start_line` the sentence also says "Pull request
 *   review thread start line must be part of the same hunk as the line." (parkerbxyz/suggest-changes
 *   #64, 2025-04-11; documentation_url .../pulls/reviews#create-a-review-for-a-pull-request);
 * - a path not in the diff: `{"message":"Unprocessable Entity","errors":["Path could not be
 *   resolved"]}` (warpdotdev/oz-for-oss#310, 2026-04-23).
 * Not seen in a log, so worded by the fake: an unknown `commit_id`, a file without a patch ("Line
 * could not be resolved"), a body missing where the docs require one.
 */
import { findLine, parsePatch, type DiffLine } from './diff.js';
import { ACTIONS_BOT, reviewCommentJson, reviewJson, type RepoInfo } from './render.js';
import type { GitHubState } from './state.js';
import type { DiffSide, FakePull, FakeReviewComment, FakeUser, ReviewState } from './types.js';

const DOCS = 'https://docs.github.com/rest/pulls';
export const REVIEW_DOC = {
  listComments: `${DOCS}/comments#list-review-comments-on-a-pull-request`,
  reply: `${DOCS}/comments#create-a-reply-for-a-review-comment`,
  listReviews: `${DOCS}/reviews#list-reviews-for-a-pull-request`,
  createReview: `${DOCS}/reviews#create-a-review-for-a-pull-request`
} as const;

export interface ReviewAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What the review routes need from the server: state, who acts, its URL, a repository setting. */
export interface ReviewRouteContext {
  readonly state: GitHubState;
  readonly actor: FakeUser;
  readonly url: string;
  readonly allowActionsToApprove: boolean;
}

/** Pages a list the way the server pages every list (`per_page`, `page`, `link`). */
export type Pager = (items: unknown[]) => ReviewAnswer;

const EVENT_STATE: Readonly<Record<string, ReviewState>> = {
  APPROVE: 'APPROVED',
  REQUEST_CHANGES: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED'
};

function unprocessable(doc: string, ...errors: string[]): ReviewAnswer {
  return {
    status: 422,
    body: { message: 'Unprocessable Entity', errors, documentation_url: doc, status: '422' }
  };
}

function notFound(doc: string): ReviewAnswer {
  return { status: 404, body: { message: 'Not Found', documentation_url: doc, status: '404' } };
}

/** Rails' `to_sentence`, which is how GitHub joins a comment's several errors. */
function sentence(parts: string[]): string {
  if (parts.length <= 2) return parts.join(' and ');
  return `${parts.slice(0, -1).join(', ')}, and ${parts[parts.length - 1] ?? ''}`;
}

interface CheckedComment {
  path: string;
  line: number;
  side: DiffSide;
  startLine: number | undefined;
  body: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One draft comment of a review against the pull request's diff: the comment, or GitHub's error. */
function checkComment(pull: FakePull, draft: Record<string, unknown>): CheckedComment | string {
  const path = String(draft.path);
  const file = pull.files.find((f) => f.filename === path);
  if (!file) return 'Path could not be resolved';
  if (file.patch === undefined) return 'Line could not be resolved';
  const patch = parsePatch(file.patch);
  const side: DiffSide = draft.side === 'LEFT' ? 'LEFT' : 'RIGHT';
  let at: DiffLine | undefined;
  if (typeof draft.line === 'number') at = findLine(patch, side, draft.line);
  else if (typeof draft.position === 'number') at = patch.lines.find((l) => l.position === draft.position);
  else return 'Line could not be resolved';
  const hasStart = typeof draft.start_line === 'number';
  if (!at) {
    return sentence([
      'Pull request review thread line must be part of the diff',
      ...(hasStart
        ? ['Pull request review thread start line must be part of the same hunk as the line.']
        : []),
      "Pull request review thread diff hunk can't be blank"
    ]);
  }
  const line = side === 'RIGHT' ? at.right : at.left;
  if (line === undefined) return 'Line could not be resolved';
  if (hasStart) {
    const startSide: DiffSide =
      draft.start_side === 'LEFT' ? 'LEFT' : draft.start_side === 'RIGHT' ? 'RIGHT' : side;
    const start = findLine(patch, startSide, draft.start_line as number);
    if (!start || start.hunk !== at.hunk || start.position > at.position)
      return 'Pull request review thread start line must be part of the same hunk as the line.';
  }
  return {
    path,
    line,
    side,
    startLine: hasStart ? (draft.start_line as number) : undefined,
    body: String(draft.body)
  };
}

export class FakeReviewRoutes {
  constructor(private readonly ctx: ReviewRouteContext) {}

  private get repo(): RepoInfo {
    return this.ctx.state.repo;
  }

  renderComment(comment: FakeReviewComment): unknown {
    const s = this.ctx.state;
    const pull = s.pulls.get(comment.pullNumber);
    if (!pull) throw new Error(`fake GitHub: review comment ${comment.id} has no pull request`);
    return reviewCommentJson(
      this.ctx.url,
      this.repo,
      comment,
      pull,
      s.reactionCounts({ kind: 'pull_request_review_comment', id: comment.id })
    );
  }

  /** GET /pulls/{n}/comments: oldest first (GitHub's default sort: created, ascending). */
  listComments(pullNumber: number, query: URLSearchParams, page: Pager): ReviewAnswer {
    const s = this.ctx.state;
    if (!s.pulls.has(pullNumber)) return notFound(REVIEW_DOC.listComments);
    const since = query.get('since');
    let comments = s
      .reviewCommentsOn(pullNumber)
      .filter((c) => since === null || c.updated_at >= since)
      .map((c) => this.renderComment(c));
    if (query.get('direction') === 'desc') comments = comments.reverse();
    return page(comments);
  }

  /** GET /pulls/{n}/reviews: chronological. */
  listReviews(pullNumber: number, page: Pager): ReviewAnswer {
    const s = this.ctx.state;
    if (!s.pulls.has(pullNumber)) return notFound(REVIEW_DOC.listReviews);
    return page(s.reviewsOn(pullNumber).map((r) => reviewJson(this.ctx.url, this.repo, r)));
  }

  /** POST /pulls/{n}/reviews: the body's shape is the contract check's; this checks it against the PR. */
  createReview(pullNumber: number, body: unknown): ReviewAnswer {
    const doc = REVIEW_DOC.createReview;
    const s = this.ctx.state;
    const pull = s.pulls.get(pullNumber);
    if (!pull) return notFound(doc);
    const request = isObject(body) ? body : {};
    const commitId = typeof request.commit_id === 'string' ? request.commit_id : pull.head.sha;
    if (!(s.heads.get(pullNumber) ?? []).includes(commitId))
      return unprocessable(doc, `No commit found for SHA: ${commitId}`);
    const event = typeof request.event === 'string' ? request.event : undefined;
    const text = typeof request.body === 'string' ? request.body : '';
    const drafts = Array.isArray(request.comments) ? request.comments.filter(isObject) : [];
    if (event === 'APPROVE' || event === 'REQUEST_CHANGES') {
      if (pull.user.id === this.ctx.actor.id) {
        return unprocessable(
          doc,
          event === 'APPROVE'
            ? 'Can not approve your own pull request'
            : 'Can not request changes on your own pull request'
        );
      }
      if (event === 'APPROVE' && this.ctx.actor.id === ACTIONS_BOT.id && !this.ctx.allowActionsToApprove)
        return unprocessable(doc, 'GitHub Actions is not permitted to approve pull requests.');
    }
    if (text.trim() === '' && (event === 'REQUEST_CHANGES' || (event === 'COMMENT' && drafts.length === 0)))
      return unprocessable(doc, `Review body is required for ${event}`);
    const checked: CheckedComment[] = [];
    for (const draft of drafts) {
      const result = checkComment(pull, draft);
      if (typeof result === 'string') return unprocessable(doc, result);
      checked.push(result);
    }
    const state: ReviewState = event === undefined ? 'PENDING' : (EVENT_STATE[event] ?? 'COMMENTED');
    const review = s.addReview(pullNumber, { user: this.ctx.actor, body: text, state, commitId });
    for (const comment of checked) {
      s.addReviewComment(
        pullNumber,
        {
          user: this.ctx.actor,
          body: comment.body,
          path: comment.path,
          line: comment.line,
          side: comment.side,
          commit_id: commitId,
          ...(comment.startLine !== undefined ? { start_line: comment.startLine } : {})
        },
        review.id
      );
    }
    return { status: 200, body: reviewJson(this.ctx.url, this.repo, review) };
  }

  /** POST /pulls/{n}/comments/{id}/replies: joins the thread of that comment (of its top comment for a reply). */
  reply(pullNumber: number, commentId: number, body: unknown): ReviewAnswer {
    const doc = REVIEW_DOC.reply;
    const s = this.ctx.state;
    const parent = s.reviewComments.get(commentId);
    if (!s.pulls.has(pullNumber) || !parent || parent.pullNumber !== pullNumber) return notFound(doc);
    // The API description: comment_id "must be the ID of a top-level review comment, not a reply to
    // that comment. Replies to replies are not supported." (the answer's exact wording is ours).
    if (parent.inReplyTo !== undefined) {
      return {
        status: 422,
        body: {
          message: 'Validation Failed: replies to replies are not supported; reply to the top-level comment',
          documentation_url: doc,
          status: '422'
        }
      };
    }
    const text = isObject(body) && typeof body.body === 'string' ? body.body : '';
    if (text.trim() === '') {
      return {
        status: 422,
        body: {
          message: 'Validation Failed',
          errors: [{ resource: 'PullRequestReviewComment', code: 'missing_field', field: 'body' }],
          documentation_url: doc,
          status: '422'
        }
      };
    }
    const comment = s.addReviewComment(pullNumber, {
      user: this.ctx.actor,
      body: text,
      in_reply_to: commentId
    });
    const json = this.renderComment(comment);
    return { status: 201, body: json, headers: { location: (json as { url: string }).url } };
  }
}
