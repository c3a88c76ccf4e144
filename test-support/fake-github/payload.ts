/**
 * Seeds a fake GitHub from a webhook payload (e.g. one of @octokit/webhooks-examples): the
 * repository, the issue or pull request, the comment and the sender, so the API answers what the
 * event describes.
 */
import { fakeSha } from './render.js';
import type {
  AuthorAssociation,
  CommentSeed,
  FakeGitHubSeed,
  IssueSeed,
  Permission,
  PullFileSeed,
  PullSeed,
  ReviewCommentSeed,
  UserSeed,
  UserType
} from './types.js';

export interface PayloadSeedOptions {
  /** The sender's role (default: whatever `permissions` says, else 'none'). */
  senderPermission?: Permission;
  permissions?: Record<string, Permission>;
  /**
   * For an issue_comment on a pull request (the issue has a `pull_request` marker and the payload
   * no `pull_request` object): the PR details the payload lacks. Default head `patch-<n>` of this
   * repository, base the default branch.
   */
  pull?: Partial<Omit<PullSeed, 'number'>>;
  /** Changed files of the pull request (payloads never carry them). */
  files?: PullFileSeed[];
  /** More comments on the thread, after the payload's comment. */
  comments?: CommentSeed[];
  branches?: string[];
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Webhook timestamps are ISO strings, or epoch seconds in some repository objects. */
function time(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return new Date(value * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return undefined;
}

function user(value: unknown): UserSeed | undefined {
  const u = obj(value);
  const login = str(u?.login);
  if (!u || !login) return undefined;
  const type = str(u.type);
  return {
    login,
    ...(num(u.id) !== undefined ? { id: num(u.id) } : {}),
    ...(type === 'User' || type === 'Bot' || type === 'Organization' ? { type: type as UserType } : {})
  };
}

function association(value: unknown): AuthorAssociation | undefined {
  const a = str(value);
  return a as AuthorAssociation | undefined;
}

function labels(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((l) => (typeof l === 'string' ? l : str(obj(l)?.name))).filter((l): l is string => !!l);
}

function comment(value: Obj): CommentSeed {
  const seed: CommentSeed = {
    user: user(value.user) ?? 'ghost',
    body: str(value.body) ?? ''
  };
  if (num(value.id) !== undefined) seed.id = num(value.id);
  const a = association(value.author_association);
  if (a) seed.author_association = a;
  const created = time(value.created_at);
  if (created) seed.created_at = created;
  const updated = time(value.updated_at);
  if (updated) seed.updated_at = updated;
  return seed;
}

function reviewComment(value: Obj): ReviewCommentSeed {
  const seed: ReviewCommentSeed = {
    user: user(value.user) ?? 'ghost',
    body: str(value.body) ?? ''
  };
  if (num(value.id) !== undefined) seed.id = num(value.id);
  const path = str(value.path);
  if (path) seed.path = path;
  const line = num(value.line) ?? num(value.original_line) ?? num(value.position);
  if (line !== undefined) seed.line = line;
  const a = association(value.author_association);
  if (a) seed.author_association = a;
  const created = time(value.created_at);
  if (created) seed.created_at = created;
  return seed;
}

/** A seed for `startFakeGitHub` from a webhook payload; spread it into the options. */
export function stateFromPayload(payload: unknown, options: PayloadSeedOptions = {}): FakeGitHubSeed {
  const p = obj(payload);
  const repository = obj(p?.repository);
  const owner = user(repository?.owner);
  const name = str(repository?.name);
  if (!repository || !owner || !name) throw new Error('stateFromPayload: the payload has no repository');
  const ownerType = owner.type === 'Organization' ? 'Organization' : 'User';
  const defaultBranch = str(repository.default_branch) ?? 'main';

  const seed: FakeGitHubSeed = {
    repo: {
      owner: owner.login,
      name,
      ownerType,
      default_branch: defaultBranch,
      private: repository.private === true,
      description: str(repository.description) ?? null,
      ...(owner.id !== undefined ? { ownerId: owner.id } : {}),
      ...(num(repository.id) !== undefined ? { id: num(repository.id) } : {}),
      ...(time(repository.created_at) ? { created_at: time(repository.created_at) } : {})
    },
    permissions: { ...options.permissions },
    issues: [],
    pulls: [],
    ...(options.branches ? { branches: options.branches } : {})
  };

  const sender = user(p?.sender);
  if (sender && options.senderPermission && seed.permissions) {
    seed.permissions[sender.login] = options.senderPermission;
  }

  const payloadComment = obj(p?.comment);
  const issue = obj(p?.issue);
  const pr = obj(p?.pull_request);
  const isReviewComment = !!payloadComment && !!pr && 'pull_request_review_id' in payloadComment;
  const threadComments: CommentSeed[] = [
    ...(payloadComment && !isReviewComment ? [comment(payloadComment)] : []),
    ...(options.comments ?? [])
  ];

  if (pr) {
    const number = num(pr.number);
    if (number === undefined) throw new Error('stateFromPayload: pull_request without a number');
    const head = obj(pr.head);
    const base = obj(pr.base);
    const headRepo = obj(head?.repo);
    const headSeed: PullSeed['head'] = {
      ref: str(head?.ref) ?? `patch-${number}`,
      sha: str(head?.sha) ?? fakeSha(`head:${number}`),
      repo:
        head && 'repo' in head && head.repo === null
          ? null
          : { full_name: str(headRepo?.full_name) ?? `${owner.login}/${name}` }
    };
    const pull: PullSeed = {
      number,
      title: str(pr.title) ?? '',
      body: str(pr.body) ?? null,
      user: user(pr.user) ?? 'ghost',
      head: headSeed,
      base: { ref: str(base?.ref) ?? defaultBranch, ...(str(base?.sha) ? { sha: str(base?.sha) } : {}) },
      draft: pr.draft === true,
      state: pr.state === 'closed' ? 'closed' : 'open',
      merged: pr.merged === true,
      labels: labels(pr.labels),
      comments: threadComments,
      review_comments: isReviewComment && payloadComment ? [reviewComment(payloadComment)] : [],
      files: options.files ?? [],
      ...options.pull
    };
    // A partial head from the options (a branch name) keeps the payload's sha: GitHub always sends one.
    if (options.pull?.head) pull.head = { ...headSeed, ...options.pull.head };
    const a = association(pr.author_association);
    if (a && !options.pull?.author_association) pull.author_association = a;
    const created = time(pr.created_at);
    if (created && !options.pull?.created_at) pull.created_at = created;
    seed.pulls?.push(pull);
    return seed;
  }

  if (issue) {
    const number = num(issue.number);
    if (number === undefined) throw new Error('stateFromPayload: issue without a number');
    const isPull = obj(issue.pull_request) !== undefined;
    const issueSeed: IssueSeed = {
      number,
      title: str(issue.title) ?? '',
      body: str(issue.body) ?? null,
      user: user(issue.user) ?? 'ghost',
      labels: labels(issue.labels),
      state: issue.state === 'closed' ? 'closed' : 'open',
      locked: issue.locked === true,
      pull_request: isPull,
      comments: threadComments
    };
    if (num(issue.id) !== undefined) issueSeed.id = num(issue.id);
    const a = association(issue.author_association);
    if (a) issueSeed.author_association = a;
    const created = time(issue.created_at);
    if (created) issueSeed.created_at = created;
    const updated = time(issue.updated_at);
    if (updated) issueSeed.updated_at = updated;
    seed.issues?.push(issueSeed);
    if (isPull) {
      // The conversation lives on the issue seeded above; addPull reuses it.
      seed.pulls?.push({
        number,
        title: issueSeed.title,
        body: issueSeed.body ?? null,
        user: issueSeed.user,
        base: { ref: defaultBranch },
        files: options.files ?? [],
        ...options.pull,
        head: { ref: `patch-${number}`, sha: fakeSha(`head:${number}`), ...options.pull?.head }
      });
    }
    return seed;
  }

  if (payloadComment) throw new Error('stateFromPayload: a comment without its issue or pull request');
  return seed;
}
