import { z } from 'zod';
import { toWorkflowRunFacts, workflowRunSchema, type WorkflowRunFacts } from './workflow-run-event.js';

/** The repository the workflow runs in, as the payload names it. */
export interface RepositoryRef {
  readonly owner: string;
  readonly name: string;
  readonly fullName: string;
  readonly defaultBranch: string;
  /** GitHub's numeric id, when the payload gives it: a follow-up checks the artifact's run against it. */
  readonly id?: number;
}

export interface Actor {
  readonly login: string;
  /** GitHub's numeric user id, when the payload gives it (for the commit's Co-authored-by address). */
  readonly id?: number;
  /** `User`, `Bot` or `Organization`, as GitHub reports it. */
  readonly type: string;
}

export interface CommentRef {
  readonly id: number;
  readonly body: string;
  readonly user: Actor;
  readonly htmlUrl: string;
}

export interface IssueRef {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly user: Actor;
  readonly isPullRequest: boolean;
}

export interface PullRequestRef {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly user: Actor;
  readonly headRef: string;
  readonly headRepoFullName: string | undefined;
  readonly baseRef: string;
}

/** A webhook payload, validated and reduced to what the action uses. */
export type ActionEvent =
  | {
      readonly kind: 'issue_comment';
      readonly action: string;
      readonly repository: RepositoryRef;
      readonly issue: IssueRef;
      readonly comment: CommentRef;
      readonly sender: Actor;
    }
  | {
      readonly kind: 'pull_request_review_comment';
      readonly action: string;
      readonly repository: RepositoryRef;
      readonly pullRequest: PullRequestRef;
      readonly comment: CommentRef & {
        readonly path: string;
        readonly line: number | undefined;
        readonly diffHunk: string;
        /** The thread's top comment when this one is a reply (GitHub takes replies to that one only). */
        readonly inReplyTo: number | undefined;
      };
      readonly sender: Actor;
    }
  | {
      /** A review submitted on a pull request: its body asks, like a comment's. */
      readonly kind: 'pull_request_review';
      readonly action: string;
      readonly repository: RepositoryRef;
      readonly pullRequest: PullRequestRef;
      readonly review: CommentRef & {
        /** `commented`, `approved` or `changes_requested` (any of them may ask). */
        readonly state: string;
      };
      readonly sender: Actor;
    }
  | {
      readonly kind: 'issues';
      readonly action: string;
      readonly repository: RepositoryRef;
      readonly issue: IssueRef;
      readonly label: string | undefined;
      readonly assignee: string | undefined;
      /** For `edited`: the body before the edit, or undefined when the edit left the body alone. */
      readonly previousBody: string | undefined;
      readonly sender: Actor;
    }
  | {
      readonly kind: 'workflow_dispatch' | 'schedule';
      readonly repository: RepositoryRef | undefined;
      readonly sender: Actor | undefined;
    }
  | {
      /** A pull request opened, pushed to, or marked ready: review_on_pull_request reviews it. */
      readonly kind: 'pull_request';
      readonly action: string;
      readonly repository: RepositoryRef;
      readonly pullRequest: PullRequestRef & { readonly draft: boolean };
      readonly sender: Actor;
    }
  | {
      /** Another workflow's run completed: a failed CI run on a pull request may start a CI fix (src/cifix/). */
      readonly kind: 'workflow_run';
      readonly action: string;
      readonly repository: RepositoryRef;
      readonly workflowRun: WorkflowRunFacts;
      readonly sender: Actor;
    }
  | { readonly kind: 'other'; readonly name: string };

const user = z.object({
  login: z.string(),
  id: z.number().int().optional(),
  type: z.string().default('User')
});
const repository = z.object({
  id: z.number().int().optional(),
  name: z.string(),
  full_name: z.string(),
  owner: z.object({ login: z.string() }),
  default_branch: z.string().default('main')
});
const issue = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullable().optional(),
  user,
  pull_request: z.unknown().optional()
});
const comment = z.object({
  id: z.number().int(),
  body: z.string().nullable(),
  user,
  html_url: z.string().default('')
});
const pullRequest = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullable().optional(),
  user,
  head: z.object({ ref: z.string(), repo: z.object({ full_name: z.string() }).nullable().optional() }),
  base: z.object({ ref: z.string() })
});

const schemas = {
  issue_comment: z.object({ action: z.string(), issue, comment, repository, sender: user }),
  pull_request_review_comment: z.object({
    action: z.string(),
    pull_request: pullRequest,
    comment: comment.extend({
      path: z.string(),
      line: z.number().int().nullable().optional(),
      original_line: z.number().int().nullable().optional(),
      diff_hunk: z.string().default(''),
      in_reply_to_id: z.number().int().optional()
    }),
    repository,
    sender: user
  }),
  pull_request_review: z.object({
    action: z.string(),
    pull_request: pullRequest,
    // A review without a body (an approval with no text) has body null.
    review: comment.extend({ state: z.string() }),
    repository,
    sender: user
  }),
  pull_request: z.object({
    action: z.string(),
    pull_request: pullRequest.extend({ draft: z.boolean().default(false) }),
    repository,
    sender: user
  }),
  issues: z.object({
    action: z.string(),
    issue,
    repository,
    sender: user,
    label: z.object({ name: z.string() }).optional(),
    assignee: z.object({ login: z.string() }).nullable().optional(),
    changes: z.object({ body: z.object({ from: z.string().nullable() }).optional() }).optional()
  }),
  workflow_run: z.object({ action: z.string(), workflow_run: workflowRunSchema, repository, sender: user }),
  dispatch: z.object({ repository: repository.optional(), sender: user.optional() })
};

/** A payload that is not what its event name says: a clear error, before anything runs. */
export class MalformedEventError extends Error {
  constructor(eventName: string, detail: string) {
    super(
      `The ${eventName} event payload is not valid: ${detail}. Is GITHUB_EVENT_PATH the runner's event file?`
    );
    this.name = 'MalformedEventError';
  }
}

/** Validates the payload of `eventName` where it enters, and keeps only what the action needs. */
export function parseEvent(eventName: string, payload: unknown): ActionEvent {
  const parse = <T>(schema: z.ZodType<T>): T => {
    const result = schema.safeParse(payload);
    if (result.success) return result.data;
    const issueText = result.error.issues
      .slice(0, 3)
      .map((problem) => `${problem.path.join('.') || 'payload'}: ${problem.message}`)
      .join('; ');
    throw new MalformedEventError(eventName, issueText);
  };
  switch (eventName) {
    case 'issue_comment': {
      const event = parse(schemas.issue_comment);
      return {
        kind: 'issue_comment',
        action: event.action,
        repository: toRepository(event.repository),
        issue: toIssue(event.issue),
        comment: toComment(event.comment),
        sender: event.sender
      };
    }
    case 'pull_request_review_comment': {
      const event = parse(schemas.pull_request_review_comment);
      return {
        kind: 'pull_request_review_comment',
        action: event.action,
        repository: toRepository(event.repository),
        pullRequest: toPullRequest(event.pull_request),
        comment: {
          ...toComment(event.comment),
          path: event.comment.path,
          line: event.comment.line ?? event.comment.original_line ?? undefined,
          diffHunk: event.comment.diff_hunk,
          inReplyTo: event.comment.in_reply_to_id
        },
        sender: event.sender
      };
    }
    case 'pull_request_review': {
      const event = parse(schemas.pull_request_review);
      return {
        kind: 'pull_request_review',
        action: event.action,
        repository: toRepository(event.repository),
        pullRequest: toPullRequest(event.pull_request),
        review: { ...toComment(event.review), state: event.review.state },
        sender: event.sender
      };
    }
    case 'pull_request': {
      const event = parse(schemas.pull_request);
      return {
        kind: 'pull_request',
        action: event.action,
        repository: toRepository(event.repository),
        pullRequest: { ...toPullRequest(event.pull_request), draft: event.pull_request.draft },
        sender: event.sender
      };
    }
    case 'issues': {
      const event = parse(schemas.issues);
      return {
        kind: 'issues',
        action: event.action,
        repository: toRepository(event.repository),
        issue: toIssue(event.issue),
        label: event.label?.name,
        assignee: event.assignee?.login,
        previousBody: event.changes?.body ? (event.changes.body.from ?? '') : undefined,
        sender: event.sender
      };
    }
    case 'workflow_run': {
      const event = parse(schemas.workflow_run);
      return {
        kind: 'workflow_run',
        action: event.action,
        repository: toRepository(event.repository),
        workflowRun: toWorkflowRunFacts(event.workflow_run),
        sender: event.sender
      };
    }
    case 'workflow_dispatch':
    case 'schedule': {
      const event = parse(schemas.dispatch);
      return {
        kind: eventName,
        repository: event.repository ? toRepository(event.repository) : undefined,
        sender: event.sender
      };
    }
    default:
      return { kind: 'other', name: eventName };
  }
}

function toRepository(value: z.infer<typeof repository>): RepositoryRef {
  return {
    owner: value.owner.login,
    name: value.name,
    fullName: value.full_name,
    defaultBranch: value.default_branch,
    ...(value.id !== undefined ? { id: value.id } : {})
  };
}

function toIssue(value: z.infer<typeof issue>): IssueRef {
  return {
    number: value.number,
    title: value.title,
    body: value.body ?? '',
    user: value.user,
    isPullRequest: value.pull_request !== undefined && value.pull_request !== null
  };
}

function toPullRequest(pr: z.infer<typeof pullRequest>): PullRequestRef {
  return {
    number: pr.number,
    title: pr.title,
    body: pr.body ?? '',
    user: pr.user,
    headRef: pr.head.ref,
    headRepoFullName: pr.head.repo?.full_name,
    baseRef: pr.base.ref
  };
}

function toComment(value: z.infer<typeof comment>): CommentRef {
  return { id: value.id, body: value.body ?? '', user: value.user, htmlUrl: value.html_url };
}
