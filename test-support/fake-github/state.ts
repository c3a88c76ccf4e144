/**
 * The in-memory repository behind a fake GitHub: issues (pull requests are issues too, sharing
 * their numbers), comments, pull requests, reactions and permissions. No HTTP here.
 */
import { diffHunk, findLine, parsePatch } from './diff.js';
import { fakeSha, isoSeconds, stableId, userTypeFor, type ReactionCounts, type RepoInfo } from './render.js';
import {
  REACTION_CONTENTS,
  type AuthorAssociation,
  type CommentSeed,
  type FakeComment,
  type FakeGitHubSeed,
  type FakeIssue,
  type DiffSide,
  type FakePull,
  type FakePullFile,
  type FakeReaction,
  type FakeReview,
  type FakeReviewComment,
  type FakeReviewThread,
  type HeadPush,
  type PullFileSeed,
  type ReviewState,
  type FakeUser,
  type IssueSeed,
  type Permission,
  type PullSeed,
  type ReactionContent,
  type ReactionSubject,
  type RepoSeed,
  type ReviewCommentSeed,
  type UserSeed
} from './types.js';

export const DEFAULT_REPO: RepoSeed = { owner: 'octo-org', name: 'octo-repo' };

export class GitHubState {
  readonly repo: RepoInfo;
  private readonly users = new Map<string, FakeUser>();
  private readonly roles = new Map<string, Permission>();
  readonly issues = new Map<number, FakeIssue>();
  readonly pulls = new Map<number, FakePull>();
  readonly comments = new Map<number, FakeComment>();
  readonly reviewComments = new Map<number, FakeReviewComment>();
  readonly reviews = new Map<number, FakeReview>();
  /** Threads by node id, in creation order. */
  readonly threads = new Map<string, FakeReviewThread>();
  /** Every head sha each pull request has had (a review may name any of them). */
  readonly heads = new Map<number, string[]>();
  readonly reactions: FakeReaction[] = [];
  /** Branch names, when the seed listed them (undefined: any branch exists). */
  branches: Set<string> | undefined;
  private nextCommentId = 1_900_000_001;
  private nextIssueId = 2_400_000_001;
  private nextPullId = 1_800_000_001;
  private nextReactionId = 250_000_001;
  private nextReviewCommentId = 1_500_000_001;
  private nextReviewId = 2_100_000_001;

  constructor(
    seed: FakeGitHubSeed,
    private readonly clock: () => number
  ) {
    const repoSeed = seed.repo ?? DEFAULT_REPO;
    const owner = this.user({
      login: repoSeed.owner,
      type: repoSeed.ownerType ?? 'Organization',
      ...(repoSeed.ownerId !== undefined ? { id: repoSeed.ownerId } : {})
    });
    this.repo = {
      owner,
      name: repoSeed.name,
      id: repoSeed.id ?? stableId(`repo:${repoSeed.owner}/${repoSeed.name}`),
      default_branch: repoSeed.default_branch ?? 'main',
      private: repoSeed.private ?? false,
      description: repoSeed.description ?? null,
      created_at: repoSeed.created_at ?? '2024-01-15T10:00:00Z'
    };
    if (owner.type === 'User') this.roles.set(owner.login.toLowerCase(), 'admin');
    for (const [login, role] of Object.entries(seed.permissions ?? {})) this.setPermission(login, role);
    if (seed.branches) this.branches = new Set([this.repo.default_branch, ...seed.branches]);
    for (const issue of seed.issues ?? []) this.addIssue(issue);
    for (const pull of seed.pulls ?? []) this.addPull(pull);
  }

  now(): string {
    return isoSeconds(this.clock());
  }

  get fullName(): string {
    return `${this.repo.owner.login}/${this.repo.name}`;
  }

  /** The user record for a login (one per login, case-insensitive like GitHub). */
  user(seed: string | UserSeed): FakeUser {
    const s: UserSeed = typeof seed === 'string' ? { login: seed } : seed;
    const key = s.login.toLowerCase();
    const known = this.users.get(key);
    if (known) return known;
    const user: FakeUser = {
      login: s.login,
      id: s.id ?? stableId(`user:${key}`),
      type: userTypeFor(s.login, s.type)
    };
    this.users.set(key, user);
    return user;
  }

  setPermission(login: string, role: Permission): void {
    this.roles.set(login.toLowerCase(), role);
  }

  permission(login: string): Permission {
    return this.roles.get(login.toLowerCase()) ?? 'none';
  }

  private association(login: string, given: AuthorAssociation | undefined): AuthorAssociation {
    if (given) return given;
    if (login.toLowerCase() === this.repo.owner.login.toLowerCase()) return 'OWNER';
    const role = this.permission(login);
    return role === 'none' || role === 'read' ? 'NONE' : 'COLLABORATOR';
  }

  addIssue(seed: IssueSeed): FakeIssue {
    if (this.issues.has(seed.number)) throw new Error(`fake GitHub: issue #${seed.number} already exists`);
    const user = this.user(seed.user);
    const created = seed.created_at ?? this.now();
    const issue: FakeIssue = {
      number: seed.number,
      id: seed.id ?? this.nextIssueId++,
      title: seed.title,
      body: seed.body ?? null,
      user,
      labels: [...(seed.labels ?? [])],
      state: seed.state ?? 'open',
      locked: seed.locked ?? false,
      isPullRequest: seed.pull_request ?? false,
      author_association: this.association(user.login, seed.author_association),
      created_at: created,
      updated_at: seed.updated_at ?? created
    };
    this.issues.set(issue.number, issue);
    for (const comment of seed.comments ?? []) this.addComment(issue.number, comment);
    return issue;
  }

  addPull(seed: PullSeed, createdViaApi = false): FakePull {
    const existing = this.issues.get(seed.number);
    if (existing && !existing.isPullRequest) {
      throw new Error(`fake GitHub: #${seed.number} is already an issue, not a pull request`);
    }
    if (this.pulls.has(seed.number)) throw new Error(`fake GitHub: pull #${seed.number} already exists`);
    const user = this.user(seed.user);
    const created = seed.created_at ?? this.now();
    const issue =
      existing ??
      this.addIssue({
        number: seed.number,
        title: seed.title,
        body: seed.body ?? null,
        user: seed.user,
        pull_request: true,
        created_at: created,
        ...(seed.labels ? { labels: seed.labels } : {}),
        ...(seed.state ? { state: seed.state } : {}),
        ...(seed.author_association ? { author_association: seed.author_association } : {}),
        ...(seed.updated_at ? { updated_at: seed.updated_at } : {})
      });
    const pull: FakePull = {
      number: seed.number,
      id: seed.id ?? this.nextPullId++,
      title: seed.title,
      body: seed.body ?? null,
      user,
      head: {
        ref: seed.head.ref,
        sha: seed.head.sha,
        repoFullName: seed.head.repo === null ? null : (seed.head.repo?.full_name ?? this.fullName)
      },
      base: { ref: seed.base.ref, sha: seed.base.sha ?? fakeSha(`base:${seed.base.ref}`) },
      files: (seed.files ?? []).map((file) => pullFile(file, seed.head.sha)),
      draft: seed.draft ?? false,
      state: seed.state ?? 'open',
      merged: seed.merged ?? false,
      author_association: issue.author_association,
      created_at: created,
      updated_at: seed.updated_at ?? created,
      createdViaApi,
      maintainer_can_modify: false
    };
    this.pulls.set(pull.number, pull);
    this.heads.set(pull.number, [pull.head.sha]);
    for (const comment of seed.comments ?? []) this.addComment(pull.number, comment);
    for (const comment of seed.review_comments ?? []) this.addReviewComment(pull.number, comment);
    return pull;
  }

  addComment(issueNumber: number, seed: CommentSeed): FakeComment {
    if (!this.issues.has(issueNumber)) throw new Error(`fake GitHub: no issue #${issueNumber}`);
    const id = seed.id ?? this.nextCommentId++;
    if (this.comments.has(id)) throw new Error(`fake GitHub: comment ${id} already exists`);
    if (id >= this.nextCommentId) this.nextCommentId = id + 1;
    const user = this.user(seed.user);
    const created = seed.created_at ?? this.now();
    const comment: FakeComment = {
      id,
      issueNumber,
      user,
      body: seed.body,
      author_association: this.association(user.login, seed.author_association),
      created_at: created,
      updated_at: seed.updated_at ?? created,
      history: []
    };
    this.comments.set(id, comment);
    return comment;
  }

  /**
   * Adds a review comment. A top comment starts a thread and, without `reviewId`, a review of its
   * own (as a lone comment or reply on GitHub does); a reply (`in_reply_to`) takes its parent's
   * anchor and joins its thread.
   */
  addReviewComment(pullNumber: number, seed: ReviewCommentSeed, reviewId?: number): FakeReviewComment {
    const pull = this.pulls.get(pullNumber);
    if (!pull) throw new Error(`fake GitHub: no pull request #${pullNumber}`);
    const id = seed.id ?? this.nextReviewCommentId++;
    if (this.reviewComments.has(id)) throw new Error(`fake GitHub: review comment ${id} already exists`);
    if (id >= this.nextReviewCommentId) this.nextReviewCommentId = id + 1;
    const user = this.user(seed.user);
    const created = seed.created_at ?? this.now();
    const author_association = this.association(user.login, seed.author_association);
    const review =
      reviewId ??
      this.addReview(pullNumber, { user, body: '', state: 'COMMENTED', commitId: pull.head.sha }).id;
    let comment: FakeReviewComment;
    if (seed.in_reply_to !== undefined) {
      const parent = this.reviewComments.get(seed.in_reply_to);
      if (!parent || parent.pullNumber !== pullNumber)
        throw new Error(`fake GitHub: no review comment ${seed.in_reply_to} on #${pullNumber}`);
      const root =
        parent.inReplyTo === undefined ? parent : (this.reviewComments.get(parent.inReplyTo) ?? parent);
      comment = {
        ...root,
        id,
        reviewId: review,
        user,
        body: seed.body,
        inReplyTo: root.id,
        author_association,
        created_at: created,
        updated_at: created
      };
      this.threadOf(root.id)?.commentIds.push(id);
    } else {
      const path = seed.path ?? 'README.md';
      const line = seed.line ?? 1;
      const side = seed.side ?? 'RIGHT';
      const commitId = seed.commit_id ?? pull.head.sha;
      const anchor = anchorIn(pull.files.find((f) => f.filename === path)?.patch, side, line);
      comment = {
        id,
        pullNumber,
        reviewId: review,
        user,
        body: seed.body,
        path,
        line,
        startLine: seed.start_line ?? null,
        originalLine: line,
        originalStartLine: seed.start_line ?? null,
        side,
        startSide: seed.start_line === undefined ? null : side,
        commitId,
        originalCommitId: commitId,
        position: anchor.position,
        originalPosition: anchor.position,
        diffHunk: anchor.diffHunk,
        lineText: anchor.text,
        inReplyTo: undefined,
        author_association,
        created_at: created,
        updated_at: created
      };
      const thread: FakeReviewThread = {
        id: threadNodeId(id),
        pullNumber,
        commentIds: [id],
        isResolved: false,
        resolvedBy: undefined
      };
      this.threads.set(thread.id, thread);
    }
    this.reviewComments.set(id, comment);
    return comment;
  }

  addReview(
    pullNumber: number,
    review: { user: FakeUser; body: string; state: ReviewState; commitId: string }
  ): FakeReview {
    const made: FakeReview = {
      id: this.nextReviewId++,
      pullNumber,
      user: review.user,
      body: review.body,
      state: review.state,
      commitId: review.commitId,
      author_association: this.association(review.user.login, undefined),
      submitted_at: review.state === 'PENDING' ? undefined : this.now()
    };
    this.reviews.set(made.id, made);
    return made;
  }

  /** Review comments of a pull request, oldest first. */
  reviewCommentsOn(pullNumber: number): FakeReviewComment[] {
    return [...this.reviewComments.values()]
      .filter((c) => c.pullNumber === pullNumber)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id));
  }

  reviewsOn(pullNumber: number): FakeReview[] {
    return [...this.reviews.values()].filter((r) => r.pullNumber === pullNumber).sort((a, b) => a.id - b.id);
  }

  threadsOn(pullNumber: number): FakeReviewThread[] {
    return [...this.threads.values()].filter((t) => t.pullNumber === pullNumber);
  }

  threadOf(commentId: number): FakeReviewThread | undefined {
    return [...this.threads.values()].find((t) => t.commentIds.includes(commentId));
  }

  /**
   * A push to the pull request's head: new sha, new files. A comment stays on its line when that
   * file's patch is unchanged or still shows the same text on that line and side; otherwise it is
   * outdated, and GitHub then answers `line: null` and `position: null` (original_* keep the anchor).
   */
  pushHead(pullNumber: number, push: HeadPush): void {
    const pull = this.pulls.get(pullNumber);
    if (!pull) throw new Error(`fake GitHub: no pull request #${pullNumber}`);
    const before = new Map(pull.files.map((f) => [f.filename, f.patch]));
    pull.head.sha = push.sha;
    pull.files = push.files.map((file) => pullFile(file, push.sha));
    pull.updated_at = this.now();
    this.heads.get(pullNumber)?.push(push.sha);
    for (const comment of this.reviewCommentsOn(pullNumber)) {
      if (comment.line === null) continue;
      const file = pull.files.find((f) => f.filename === comment.path);
      const kept =
        file !== undefined &&
        (file.patch === before.get(comment.path) ||
          (file.patch !== undefined &&
            comment.lineText !== undefined &&
            findLine(parsePatch(file.patch), comment.side, comment.line)?.text === comment.lineText));
      if (kept) {
        comment.commitId = push.sha;
        comment.position = anchorIn(file.patch, comment.side, comment.line).position;
      } else {
        comment.line = null;
        comment.startLine = null;
        comment.position = null;
      }
    }
  }

  /** Comments of an issue or PR conversation, oldest first (GitHub's order). */
  commentsOn(issueNumber: number): FakeComment[] {
    return [...this.comments.values()]
      .filter((c) => c.issueNumber === issueNumber)
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id));
  }

  nextNumber(): number {
    return Math.max(0, ...this.issues.keys()) + 1;
  }

  /** Adds a reaction; an identical one (same user, subject and content) is returned instead, as GitHub does. */
  react(
    subject: ReactionSubject,
    user: FakeUser,
    content: ReactionContent
  ): { reaction: FakeReaction; created: boolean } {
    const same = this.reactions.find(
      (r) => sameSubject(r.subject, subject) && r.user.id === user.id && r.content === content
    );
    if (same) return { reaction: same, created: false };
    const reaction: FakeReaction = {
      id: this.nextReactionId++,
      subject,
      user,
      content,
      created_at: this.now()
    };
    this.reactions.push(reaction);
    return { reaction, created: true };
  }

  reactionCounts(subject: ReactionSubject): ReactionCounts {
    const counts = Object.fromEntries(REACTION_CONTENTS.map((c) => [c, 0])) as ReactionCounts;
    for (const r of this.reactions) if (sameSubject(r.subject, subject)) counts[r.content]++;
    return counts;
  }
}

function pullFile(file: PullFileSeed, headSha: string): FakePullFile {
  return {
    filename: file.filename,
    status: file.status ?? 'modified',
    additions: file.additions ?? 0,
    deletions: file.deletions ?? 0,
    sha: file.sha ?? fakeSha(`file:${file.filename}:${headSha}`),
    ...(file.patch !== undefined ? { patch: file.patch } : {}),
    ...(file.previous_filename !== undefined ? { previous_filename: file.previous_filename } : {})
  };
}

/** Where a line sits in a file's patch; a seed off the patch gets a one-line hunk of its own. */
function anchorIn(
  patch: string | undefined,
  side: DiffSide,
  line: number
): { position: number; diffHunk: string; text: string | undefined } {
  if (patch !== undefined) {
    const parsed = parsePatch(patch);
    const at = findLine(parsed, side, line);
    if (at) return { position: at.position, diffHunk: diffHunk(parsed, at), text: at.text };
  }
  return { position: 1, diffHunk: `@@ -${line},1 +${line},1 @@\n line`, text: undefined };
}

/** A GraphQL-style node id for a review thread (GitHub's look like PRRT_kwDO...). */
export function threadNodeId(topCommentId: number): string {
  return `PRRT_${Buffer.from(`thread:${topCommentId}`).toString('base64url')}`;
}

export function sameSubject(a: ReactionSubject, b: ReactionSubject): boolean {
  if (a.kind === 'issue' || b.kind === 'issue') {
    return a.kind === b.kind && (a as { number: number }).number === (b as { number: number }).number;
  }
  return a.kind === b.kind && a.id === b.id;
}
