/**
 * Types of the fake GitHub REST API: what tests seed, what the fake records, and (for the answers)
 * the response types Octokit itself declares, so the compiler checks that every field the real API
 * always sends is there.
 */
import type { getOctokit } from '@actions/github';

// ---------------------------------------------------------------------------------------------
// Response shapes, from the Octokit that @actions/github ships (a direct dependency of the project).

type Rest = ReturnType<typeof getOctokit>['rest'];
type DataOf<F> = F extends (...args: never[]) => Promise<{ data: infer D }> ? D : never;

export type RepoJson = DataOf<Rest['repos']['get']>;
export type IssueJson = DataOf<Rest['issues']['get']>;
export type IssueCommentJson = DataOf<Rest['issues']['getComment']>;
export type ReviewCommentJson = DataOf<Rest['pulls']['getReviewComment']>;
export type ReactionJson = DataOf<Rest['reactions']['createForIssueComment']>;
export type PermissionJson = DataOf<Rest['repos']['getCollaboratorPermissionLevel']>;
export type PullJson = DataOf<Rest['pulls']['get']>;
export type PullFileJson = DataOf<Rest['pulls']['listFiles']>[number];
export type ReviewJson = DataOf<Rest['pulls']['createReview']>;
/** The `repository` schema (a PR's head.repo / base.repo): smaller than the full repository. */
export type PullRepoJson = PullJson['head']['repo'];
export type SimpleUserJson = PullJson['user'];

// ---------------------------------------------------------------------------------------------
// Seeds

/** Repository roles, as `role_name` reports them. */
export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
export const PERMISSIONS: readonly Permission[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];

export type AuthorAssociation =
  | 'OWNER'
  | 'MEMBER'
  | 'COLLABORATOR'
  | 'CONTRIBUTOR'
  | 'FIRST_TIME_CONTRIBUTOR'
  | 'FIRST_TIMER'
  | 'MANNEQUIN'
  | 'NONE';

export type ReactionContent = ReactionJson['content'];
export const REACTION_CONTENTS: readonly ReactionContent[] = [
  '+1',
  '-1',
  'laugh',
  'confused',
  'heart',
  'hooray',
  'rocket',
  'eyes'
];

export type UserType = 'User' | 'Bot' | 'Organization';

export interface UserSeed {
  login: string;
  /** Default: a stable number derived from the login. */
  id?: number;
  /** Default 'User', or 'Bot' for logins ending in `[bot]`. */
  type?: UserType;
}

export interface RepoSeed {
  owner: string;
  name: string;
  /** Default: a stable number derived from owner/name. Link headers use it (`/repositories/{id}/...`). */
  id?: number;
  ownerType?: 'User' | 'Organization';
  ownerId?: number;
  default_branch?: string;
  private?: boolean;
  description?: string | null;
  created_at?: string;
}

export interface CommentSeed {
  /** Default: the next id of the fake. */
  id?: number;
  user: string | UserSeed;
  body: string;
  /** Default: OWNER for the repository owner, else NONE. */
  author_association?: AuthorAssociation;
  created_at?: string;
  updated_at?: string;
}

export interface IssueSeed {
  number: number;
  id?: number;
  title: string;
  body?: string | null;
  user: string | UserSeed;
  labels?: string[];
  state?: 'open' | 'closed';
  locked?: boolean;
  /** The issue is a pull request (GitHub's `pull_request` marker). Set by `pulls` seeds automatically. */
  pull_request?: boolean;
  author_association?: AuthorAssociation;
  comments?: CommentSeed[];
  created_at?: string;
  updated_at?: string;
}

export type PullFileStatus = PullFileJson['status'];

export interface PullFileSeed {
  filename: string;
  /** Default 'modified'. */
  status?: PullFileStatus;
  additions?: number;
  deletions?: number;
  patch?: string;
  previous_filename?: string;
  sha?: string;
}

export type DiffSide = 'LEFT' | 'RIGHT';

/**
 * A pull request review comment (on a diff line). Its line is looked up in the file's patch when
 * the pull request has one for `path` (for `position` and `diff_hunk`); a seed need not be in it.
 */
export interface ReviewCommentSeed {
  id?: number;
  user: string | UserSeed;
  body: string;
  /** Default 'README.md'. */
  path?: string;
  /** Default 1. */
  line?: number;
  /** Default RIGHT. */
  side?: DiffSide;
  start_line?: number;
  /** Default: the pull request's head sha. */
  commit_id?: string;
  /** The comment this one answers: it joins that comment's thread (and takes its place). */
  in_reply_to?: number;
  author_association?: AuthorAssociation;
  created_at?: string;
}

export interface PullSeed {
  number: number;
  id?: number;
  title: string;
  body?: string | null;
  user: string | UserSeed;
  head: {
    ref: string;
    sha: string;
    /** Default: this repository. A fork is `{ full_name: 'someone/repo' }`. */
    repo?: { full_name: string } | null;
  };
  base: { ref: string; sha?: string };
  files?: PullFileSeed[];
  draft?: boolean;
  state?: 'open' | 'closed';
  merged?: boolean;
  labels?: string[];
  author_association?: AuthorAssociation;
  /** Conversation comments (issue comments on the PR). */
  comments?: CommentSeed[];
  review_comments?: ReviewCommentSeed[];
  created_at?: string;
  updated_at?: string;
}

/** The state a fake starts from; `stateFromPayload` builds one from a webhook payload. */
export interface FakeGitHubSeed {
  repo?: RepoSeed;
  /** login → role. Unknown users: 'none'. The owner of a user-owned repository defaults to 'admin'. */
  permissions?: Record<string, Permission>;
  issues?: IssueSeed[];
  pulls?: PullSeed[];
  /**
   * Branches that exist. When given, `POST /pulls` answers 422 for an unknown head or base (like
   * GitHub); when absent, any branch name is accepted. `addBranch` adds to it.
   */
  branches?: string[];
}

// ---------------------------------------------------------------------------------------------
// Faults and records

export interface FaultRule {
  /** Default: any method. */
  method?: string;
  /** Tested against the path without the query (e.g. `/repos/o/r/issues/comments/12`). */
  path: RegExp;
  status: number;
  /** How many matching requests to fail (default 1 for failNext; Infinity for failAlways). */
  times?: number;
  /** The JSON `message` (default: GitHub's usual text for the status). */
  message?: string;
  /** A whole JSON body instead of `{ message, documentation_url, status }`. */
  body?: unknown;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }` or rate-limit headers. */
  headers?: Record<string, string>;
}

export interface RecordedGitHubRequest {
  /** Arrival order on this server, from 0. */
  seq: number;
  /** The token it carried (once authenticated): which job's, when the fake granted several. */
  token?: string;
  /** Refused before any route because the token's permissions do not cover it. */
  refusedBy?: 'permissions';
  /** When it arrived (Date.now, not the seeded clock): how far apart the client spaced its calls. */
  arrivedAt: number;
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** Parsed JSON body; undefined when there was none (or it was not JSON: see rawBody). */
  body: unknown;
  rawBody: string;
  /** The status answered (0 until answered). */
  status: number;
  /** The JSON answered (undefined for an empty answer). */
  response: unknown;
  /** True when an injected fault produced the answer. */
  faulted: boolean;
}

// ---------------------------------------------------------------------------------------------
// State the fake exposes (its own records, not JSON answers).

export interface FakeUser {
  login: string;
  id: number;
  type: UserType;
}

export interface FakeComment {
  id: number;
  issueNumber: number;
  user: FakeUser;
  body: string;
  author_association: AuthorAssociation;
  created_at: string;
  updated_at: string;
  /** Bodies this comment had before, oldest first (one entry per PATCH). */
  history: string[];
}

export interface FakeReviewComment {
  id: number;
  pullNumber: number;
  /** The review it belongs to (a seeded comment gets a review of its own, as on GitHub). */
  reviewId: number;
  user: FakeUser;
  body: string;
  path: string;
  /** The line on the current head; null once a push changed it (outdated), as GitHub answers. */
  line: number | null;
  startLine: number | null;
  originalLine: number;
  originalStartLine: number | null;
  side: DiffSide;
  startSide: DiffSide | null;
  /** The head it is anchored to now, and the one it was written on. */
  commitId: string;
  originalCommitId: string;
  /** The diff-relative position (deprecated by GitHub, still answered); null when outdated. */
  position: number | null;
  originalPosition: number;
  diffHunk: string;
  /** The text of the commented line when written (how a push tells whether it changed). */
  lineText: string | undefined;
  inReplyTo: number | undefined;
  author_association: AuthorAssociation;
  created_at: string;
  updated_at: string;
}

export type ReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING';

export interface FakeReview {
  id: number;
  pullNumber: number;
  user: FakeUser;
  body: string;
  state: ReviewState;
  commitId: string;
  author_association: AuthorAssociation;
  submitted_at: string | undefined;
}

/** A review thread: a top comment and its replies (GraphQL's PullRequestReviewThread). */
export interface FakeReviewThread {
  /** GraphQL node id (PRRT_...). */
  id: string;
  pullNumber: number;
  /** REST ids, oldest first; the first is the top comment. */
  commentIds: number[];
  isResolved: boolean;
  resolvedBy: FakeUser | undefined;
}

/** A new head for a pull request (a push): its sha and the files' new patches. */
export interface HeadPush {
  sha: string;
  /** The pull request's changed files after the push (replaces the list). */
  files: PullFileSeed[];
}

export interface FakeIssue {
  number: number;
  id: number;
  title: string;
  body: string | null;
  user: FakeUser;
  labels: string[];
  state: 'open' | 'closed';
  locked: boolean;
  isPullRequest: boolean;
  author_association: AuthorAssociation;
  created_at: string;
  updated_at: string;
}

export interface FakePullFile {
  filename: string;
  status: PullFileStatus;
  additions: number;
  deletions: number;
  patch?: string;
  previous_filename?: string;
  sha: string;
}

export interface FakePull {
  number: number;
  id: number;
  title: string;
  body: string | null;
  user: FakeUser;
  head: { ref: string; sha: string; repoFullName: string | null };
  base: { ref: string; sha: string };
  files: FakePullFile[];
  draft: boolean;
  state: 'open' | 'closed';
  merged: boolean;
  author_association: AuthorAssociation;
  created_at: string;
  updated_at: string;
  /** True for PRs made through POST /pulls (not seeded). */
  createdViaApi: boolean;
  /** `maintainer_can_modify` as asked on creation. */
  maintainer_can_modify: boolean;
}

export type ReactionSubject =
  | { kind: 'issue_comment'; id: number }
  | { kind: 'pull_request_review_comment'; id: number }
  | { kind: 'issue'; number: number };

export interface FakeReaction {
  id: number;
  subject: ReactionSubject;
  user: FakeUser;
  content: ReactionContent;
  created_at: string;
}
