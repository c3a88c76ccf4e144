/**
 * A fake GitHub REST API on 127.0.0.1 for Octokit (`getOctokit(token, { baseUrl: fake.url })`) and
 * for spawned actions (GITHUB_API_URL). It answers the routes compact-agent uses from in-memory
 * state, validates like github.com (auth, 422 shapes, body limits), records every request and
 * injects faults. One instance holds all of its state, so several can run at once.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ACTIONS_BOT,
  commentJson,
  fakeSha,
  issueJson,
  permissionJson,
  pullFileJson,
  pullJson,
  reactionJson,
  repoJson
} from './render.js';
import { ReviewGraph } from './graphql.js';
import {
  canonicalPath,
  checkRequest,
  checkResponse,
  findOperation,
  invalidRequestMessage,
  type ContractViolation,
  type Operation
} from '../github-contract/index.js';
import { FakeReviewRoutes } from './reviews.js';
import {
  FakeWorkflowDispatchRoutes,
  type FakeDispatchWorkflow,
  type RecordedDispatch
} from './workflow-dispatch.js';
import { FakeWorkflowRunRoutes, type FakeRunStatus } from './workflow-runs.js';
import { ciJobRoutes, FakeCiJobRoutes, type FakeJobSeed } from './ci-jobs.js';
import { repositoryListRoutes } from './repository-lists.js';
import { issueRoutes } from './issue-routes.js';
import { branchAnswer } from './branches.js';
import { GitHubState, sameSubject } from './state.js';
import {
  REACTION_CONTENTS,
  type CommentSeed,
  type FakeComment,
  type FakeGitHubSeed,
  type FakeIssue,
  type FakePull,
  type FakeReaction,
  type FakeReview,
  type FakeReviewComment,
  type FakeReviewThread,
  type FakeUser,
  type FaultRule,
  type HeadPush,
  type IssueSeed,
  type Permission,
  type PullSeed,
  type ReactionContent,
  type ReactionSubject,
  type RecordedGitHubRequest,
  type ReviewCommentSeed,
  type UserSeed
} from './types.js';
import { closeLoopback, flattenHeaders, listenOnLoopback } from '../loopback.js';
import { TokenGrants, type TokenPermissions } from './token-grants.js';
import { FastWriteGuard, type FastWriteLimit } from './rate-limits.js';
import {
  FakeArtifactRoutes,
  type ArtifactFaultKind,
  type ArtifactSeed,
  type ArtifactStore
} from './artifacts.js';

/** GitHub's limit on issue, comment and pull request bodies (characters). */
export const MAX_BODY_CHARS = 65_536;
/** GitHub's limit on issue and pull request titles. */
export const MAX_TITLE_CHARS = 256;
export const DEFAULT_TOKEN = 'ghs_test';

export interface FakeGitHubOptions extends FakeGitHubSeed {
  /** The only token accepted (as `token <t>` or `Bearer <t>`). Default 'ghs_test'. */
  token?: string;
  /** Who the token acts as: author of created comments and PRs, reactor. Default github-actions[bot]. */
  actor?: UserSeed;
  /**
   * The repository setting "Allow GitHub Actions to create and approve pull requests" (default
   * true). When false, POST /pulls by github-actions[bot] gets GitHub's 403.
   */
  allowActionsToCreatePullRequests?: boolean;
  /** Faults that apply to every matching request, for the whole life of the server. */
  failRoutes?: FaultRule[];
  /**
   * GraphQL resolveReviewThread answers FORBIDDEN "Resource not accessible by integration", as for
   * a token that may not resolve threads (default false; `forbidResolvingThreads` changes it).
   */
  forbidResolvingThreads?: boolean;
  /**
   * Check every request and answer against GitHub's OpenAPI description (default true): a request
   * that breaks it gets GitHub's 422 "Invalid request."; every break is in `contractViolations`.
   */
  checkContract?: boolean;
  /** Clock for timestamps (default Date.now), and for secondaryLimitOnFastWrites. */
  clock?: () => number;
  /**
   * GitHub's secondary rate limit on bursts of writes: a write sooner than `minGapMs` after the last
   * accepted one (by `clock`) gets 403 with `retry-after` (rate-limits.ts FastWriteGuard). Default: off.
   */
  secondaryLimitOnFastWrites?: FastWriteLimit;
  port?: number;
}

export interface FakeGitHub {
  /** Base URL for Octokit's `baseUrl` and GITHUB_API_URL, e.g. http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly repo: { owner: string; name: string; full_name: string; id: number; default_branch: string };
  readonly actor: FakeUser;
  /** Requests and answers that broke GitHub's OpenAPI description (see test-support/github-contract). */
  readonly contractViolations: readonly ContractViolation[];
  /** Every request in arrival order, with what was answered. */
  readonly requests: readonly RecordedGitHubRequest[];
  /** Requests with that method (case-insensitive) whose path matches (a string must be equal). */
  requestsTo(method: string, path: RegExp | string): RecordedGitHubRequest[];
  /** Comments of an issue or PR, oldest first (seeded and created). */
  comments(issueNumber: number): FakeComment[];
  comment(id: number): FakeComment | undefined;
  /** Comments created through the API (by any route), in creation order. */
  readonly createdComments: readonly FakeComment[];
  issue(number: number): FakeIssue | undefined;
  pull(number: number): FakePull | undefined;
  /** Pull requests made through POST /pulls, in creation order. */
  readonly createdPulls: readonly FakePull[];
  readonly reactions: readonly FakeReaction[];
  reactionsOn(subject: ReactionSubject): FakeReaction[];
  permission(login: string): Permission;
  setPermission(login: string, role: Permission): void;
  addIssue(seed: IssueSeed): FakeIssue;
  addPull(seed: PullSeed): FakePull;
  addComment(issueNumber: number, seed: CommentSeed): FakeComment;
  /** A review comment (a reply with `in_reply_to`), in a review of its own. */
  addReviewComment(pullNumber: number, seed: ReviewCommentSeed): FakeReviewComment;
  /** Reviews of a pull request, oldest first. */
  reviews(pullNumber: number): FakeReview[];
  /** Review comments of a pull request (replies too), oldest first. */
  reviewComments(pullNumber: number): FakeReviewComment[];
  /** Review threads of a pull request, in creation order. */
  threads(pullNumber: number): FakeReviewThread[];
  /** A push to the pull request's head: comments on lines it changed become outdated. */
  pushHead(pullNumber: number, push: HeadPush): void;
  /** Makes GraphQL's resolveReviewThread answer FORBIDDEN (or, with false, work again). */
  forbidResolvingThreads(forbidden?: boolean): void;
  /** Makes a branch exist (only matters when the seed listed `branches`). */
  addBranch(name: string): void;
  /** Registers a zip as a workflow artifact of this repository (or, with ids, of another). */
  addArtifact(seed: ArtifactSeed): void;
  /**
   * Serves the artifacts a fake artifact service finalized, as uploaded by the workflow run `runOf`
   * names (the fake artifact service does not know GitHub's run ids).
   */
  linkArtifacts(store: ArtifactStore, runOf: (artifact: { id: number; name: string }) => number): void;
  /** Makes an artifact expired, another repository's, a fork run's, or missing. */
  artifactFault(id: number, kind: ArtifactFaultKind): void;
  /**
   * Registers a workflow run, or moves it along (a new attempt, a status): what "Get a workflow run
   * attempt" answers. Unregistered runs are 404.
   */
  setWorkflowRun(
    id: number,
    update: {
      attempt?: number;
      status: FakeRunStatus;
      conclusion?: 'success' | 'failure' | 'cancelled';
      /** The workflow file it ran; default `.github/workflows/agent.yml`. */
      path?: string;
      /** The event that started it; default `issue_comment`. */
      event?: string;
    }
  ): void;
  /** Seeds the jobs of a run's attempt, with their logs and annotations (ci-jobs.ts). */
  setRunJobs(runId: number, attempt: number, jobs: readonly FakeJobSeed[]): void;
  /** The runs whose failed jobs were re-run through the API, in order. */
  readonly reruns: readonly number[];
  /** Declares a workflow that "Create a workflow dispatch event" may start (workflow-dispatch.ts). */
  defineDispatchWorkflow(workflow: FakeDispatchWorkflow): void;
  /** The workflow dispatches GitHub accepted, in order, each with the run it started. */
  readonly dispatches: readonly RecordedDispatch[];
  /** Registers a run that a spawned action has finished, as completed, unless the test registered it. */
  finishedRun(id: number): void;
  /**
   * Registers a run the test starts as in progress, as GitHub lists a run while it runs; unless the
   * test registered that run itself. finishedRun then completes it.
   */
  startedRun(id: number): void;
  /** Makes "Get a branch" answer `protected: true` for the branch. */
  protectBranch(name: string): void;
  /** Fail the next `times` (default 1) matching requests with that status. */
  failNext(rule: FaultRule): void;
  /** Fail every matching request until the returned function is called. */
  failAlways(rule: FaultRule): () => void;
  clearFaults(): void;
  /**
   * Accepts `token` too, with only these permissions (a job's GITHUB_TOKEN and its `permissions:`
   * block, token-grants.ts): beyond them, GitHub's 403 "Resource not accessible by integration".
   */
  grantToken(token: string, permissions: TokenPermissions): void;
  /**
   * The repository's branches from now on are what `has` says (e.g. a bare repository the test
   * pushes to): POST /pulls and GET /branches/{name} ask it.
   */
  followBranches(has: (name: string) => boolean): void;
  close(): Promise<void>;
}

const DOCS = 'https://docs.github.com/rest';
const PERMISSIONS_DOC = 'https://docs.github.com/rest/overview/permissions-required-for-github-apps';
const DOC = {
  repo: `${DOCS}/repos/repos#get-a-repository`,
  permission: `${DOCS}/collaborators/collaborators#get-repository-permissions-for-a-user`,
  getIssue: `${DOCS}/issues/issues#get-an-issue`,
  listComments: `${DOCS}/issues/comments#list-issue-comments`,
  createComment: `${DOCS}/issues/comments#create-an-issue-comment`,
  getComment: `${DOCS}/issues/comments#get-an-issue-comment`,
  updateComment: `${DOCS}/issues/comments#update-an-issue-comment`,
  reactComment: `${DOCS}/reactions/reactions#create-reaction-for-an-issue-comment`,
  listCommentReactions: `${DOCS}/reactions/reactions#list-reactions-for-an-issue-comment`,
  reactIssue: `${DOCS}/reactions/reactions#create-reaction-for-an-issue`,
  reactReviewComment: `${DOCS}/reactions/reactions#create-reaction-for-a-pull-request-review-comment`,
  getReviewComment: `${DOCS}/pulls/comments#get-a-review-comment-for-a-pull-request`,
  getPull: `${DOCS}/pulls/pulls#get-a-pull-request`,
  listPulls: `${DOCS}/pulls/pulls#list-pull-requests`,
  listFiles: `${DOCS}/pulls/pulls#list-pull-requests-files`,
  createPull: `${DOCS}/pulls/pulls#create-a-pull-request`,
  updatePull: `${DOCS}/pulls/pulls#update-a-pull-request`
} as const;

const GRAPHQL_DOC = 'https://docs.github.com/graphql';

const DEFAULT_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Bad credentials',
  403: 'Resource not accessible by integration',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  422: 'Validation Failed',
  429: 'API rate limit exceeded for installation.',
  500: 'Server Error',
  502: 'Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout'
};

const RATE_LIMIT = 1000; // GITHUB_TOKEN: 1,000 requests per hour per repository

type Json = Record<string, unknown>;

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A binary body, sent as it is (the artifact blob). */
  raw?: Buffer;
}

interface Ctx {
  method: string;
  rest: string;
  query: URLSearchParams;
  body: unknown;
  record: RecordedGitHubRequest;
}

type Handler = (ctx: Ctx, params: string[]) => Answer;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

interface ActiveFault {
  rule: FaultRule;
  remaining: number;
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });
}

function error(status: number, message: string, documentation_url = DOCS, extra: Json = {}): Answer {
  return { status, body: { message, ...extra, documentation_url, status: String(status) } };
}

/** 422 "Validation Failed" with GitHub's `errors` array. */
function validationFailed(doc: string, ...errors: Json[]): Answer {
  return error(422, 'Validation Failed', doc, { errors });
}

/** 422 for a body that fails the endpoint's JSON schema (missing or mistyped parameter). */
function invalidRequest(doc: string, detail: string): Answer {
  return error(422, `Invalid request.\n\n${detail}`, doc);
}

const notFound = (doc = DOCS): Answer => error(404, 'Not Found', doc);

function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function showValue(value: unknown): string {
  return value === null ? 'nil' : JSON.stringify(value);
}

/** Checks a required string parameter; returns an answer when it is wrong. */
function requireString(body: Json, field: string, doc: string): Answer | undefined {
  if (!(field in body) || body[field] === undefined)
    return invalidRequest(doc, `"${field}" wasn't supplied.`);
  if (typeof body[field] !== 'string')
    return invalidRequest(doc, `For 'properties/${field}', ${showValue(body[field])} is not a string.`);
  return undefined;
}

function optionalType(
  body: Json,
  field: string,
  type: 'string' | 'boolean' | 'integer',
  doc: string,
  nullable = false
): Answer | undefined {
  const value = body[field];
  if (value === undefined || (nullable && value === null)) return undefined;
  const ok =
    type === 'integer' ? typeof value === 'number' && Number.isInteger(value) : typeof value === type;
  return ok
    ? undefined
    : invalidRequest(doc, `For 'properties/${field}', ${showValue(value)} is not a ${type}.`);
}

function bodyTooLong(resource: string, doc: string): Answer {
  return validationFailed(doc, {
    resource,
    code: 'custom',
    field: 'body',
    message: `body is too long (maximum is ${MAX_BODY_CHARS} characters)`
  });
}

/** A branch set that asks someone else whether a branch exists (only `has` is used by the routes). */
class FollowedBranches extends Set<string> {
  constructor(private readonly lookup: (name: string) => boolean) {
    super();
  }

  override has(name: string): boolean {
    return this.lookup(name);
  }
}

function requestId(): string {
  const hex = (n: number): string => randomBytes(n).toString('hex').toUpperCase();
  return `${hex(2)}:${hex(2)}:${hex(3)}:${hex(3)}:${hex(4)}`;
}

class FakeGitHubServer implements FakeGitHub {
  readonly token: string;
  readonly actor: FakeUser;
  private readonly state: GitHubState;
  private readonly records: RecordedGitHubRequest[] = [];
  private readonly faults: ActiveFault[] = [];
  private readonly created: FakePull[] = [];
  private readonly createdCommentList: FakeComment[] = [];
  private readonly routes: Route[];
  private readonly artifactRoutes: FakeArtifactRoutes;
  private readonly workflowRuns: FakeWorkflowRunRoutes;
  private readonly ciJobs: FakeCiJobRoutes;
  private readonly dispatchRoutes: FakeWorkflowDispatchRoutes;
  private readonly protectedBranches = new Set<string>();
  private readonly reviewRoutes: FakeReviewRoutes;
  private readonly graph: ReviewGraph;
  private resolveForbidden: boolean;
  private readonly violations: ContractViolation[] = [];
  private readonly grants = new TokenGrants();
  /** The operation each checked request was matched to, for checking its answer. */
  private readonly operations = new WeakMap<RecordedGitHubRequest, Operation>();
  private address: AddressInfo | undefined;
  private readonly fastWrites: FastWriteGuard | undefined;
  private seq = 0;
  private used = 0;

  constructor(
    private readonly server: Server,
    private readonly options: FakeGitHubOptions
  ) {
    this.token = options.token ?? DEFAULT_TOKEN;
    this.state = new GitHubState(options, options.clock ?? Date.now);
    this.actor = this.state.user(options.actor ?? ACTIONS_BOT);
    for (const rule of options.failRoutes ?? []) this.faults.push({ rule, remaining: Infinity });
    this.routes = this.buildRoutes();
    this.fastWrites =
      options.secondaryLimitOnFastWrites &&
      new FastWriteGuard(options.secondaryLimitOnFastWrites, options.clock ?? Date.now);
    this.resolveForbidden = options.forbidResolvingThreads ?? false;
    const self = (): FakeGitHubServer => this;
    this.reviewRoutes = new FakeReviewRoutes({
      state: this.state,
      actor: this.actor,
      // Read when answering: the port is known only once listening.
      get url() {
        return self().url;
      },
      allowActionsToApprove: options.allowActionsToCreatePullRequests !== false
    });
    this.graph = new ReviewGraph(this.state, {
      actor: this.actor,
      forbidResolve: () => this.resolveForbidden
    });
    this.workflowRuns = new FakeWorkflowRunRoutes(() => this.state.repo, options.clock ?? Date.now);
    this.dispatchRoutes = new FakeWorkflowDispatchRoutes(
      () => ({
        fullName: `${this.state.repo.owner.login}/${this.state.repo.name}`,
        hasRef: (ref) => ref === this.state.repo.default_branch || (this.state.branches?.has(ref) ?? false)
      }),
      (id, path) => this.workflowRuns.set(id, { status: 'queued', event: 'workflow_dispatch', path })
    );
    this.ciJobs = new FakeCiJobRoutes(
      () => ({ owner: this.state.repo.owner.login, name: this.state.repo.name }),
      options.clock ?? Date.now
    );
    this.artifactRoutes = new FakeArtifactRoutes(
      { id: this.state.repo.id, owner: this.state.repo.owner.login, name: this.state.repo.name },
      options.clock ?? Date.now
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((e: unknown) => {
        const message = `fake GitHub bug: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
        if (!res.headersSent) this.send(res, undefined, { status: 500, body: { message } });
        else res.destroy();
      });
    });
  }

  async listen(): Promise<void> {
    this.address = await listenOnLoopback(this.server, this.options.port);
  }

  get port(): number {
    if (!this.address) throw new Error('fake GitHub is not listening');
    return this.address.port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get repo(): FakeGitHub['repo'] {
    const r = this.state.repo;
    return {
      owner: r.owner.login,
      name: r.name,
      full_name: this.state.fullName,
      id: r.id,
      default_branch: r.default_branch
    };
  }

  get contractViolations(): readonly ContractViolation[] {
    return this.violations;
  }

  get requests(): readonly RecordedGitHubRequest[] {
    return this.records;
  }

  requestsTo(method: string, path: RegExp | string): RecordedGitHubRequest[] {
    return this.records.filter(
      (r) =>
        r.method === method.toUpperCase() && (typeof path === 'string' ? r.path === path : path.test(r.path))
    );
  }

  comments(issueNumber: number): FakeComment[] {
    return this.state.commentsOn(issueNumber);
  }

  comment(id: number): FakeComment | undefined {
    return this.state.comments.get(id);
  }

  get createdComments(): readonly FakeComment[] {
    return this.createdCommentList;
  }

  issue(number: number): FakeIssue | undefined {
    return this.state.issues.get(number);
  }

  pull(number: number): FakePull | undefined {
    return this.state.pulls.get(number);
  }

  get createdPulls(): readonly FakePull[] {
    return this.created;
  }

  get reactions(): readonly FakeReaction[] {
    return this.state.reactions;
  }

  reactionsOn(subject: ReactionSubject): FakeReaction[] {
    return this.state.reactions.filter((r) => sameSubject(r.subject, subject));
  }

  permission(login: string): Permission {
    return this.state.permission(login);
  }

  setPermission(login: string, role: Permission): void {
    this.state.setPermission(login, role);
  }

  addIssue(seed: IssueSeed): FakeIssue {
    return this.state.addIssue(seed);
  }

  addPull(seed: PullSeed): FakePull {
    return this.state.addPull(seed);
  }

  addComment(issueNumber: number, seed: CommentSeed): FakeComment {
    return this.state.addComment(issueNumber, seed);
  }

  addReviewComment(pullNumber: number, seed: ReviewCommentSeed): FakeReviewComment {
    return this.state.addReviewComment(pullNumber, seed);
  }

  reviews(pullNumber: number): FakeReview[] {
    return this.state.reviewsOn(pullNumber);
  }

  reviewComments(pullNumber: number): FakeReviewComment[] {
    return this.state.reviewCommentsOn(pullNumber);
  }

  threads(pullNumber: number): FakeReviewThread[] {
    return this.state.threadsOn(pullNumber);
  }

  pushHead(pullNumber: number, push: HeadPush): void {
    this.state.pushHead(pullNumber, push);
  }

  forbidResolvingThreads(forbidden = true): void {
    this.resolveForbidden = forbidden;
  }

  addBranch(name: string): void {
    this.state.branches?.add(name);
  }

  addArtifact(seed: ArtifactSeed): void {
    this.artifactRoutes.add(seed);
  }

  linkArtifacts(store: ArtifactStore, runOf: (artifact: { id: number; name: string }) => number): void {
    this.artifactRoutes.link(store, runOf);
  }

  artifactFault(id: number, kind: ArtifactFaultKind): void {
    this.artifactRoutes.fault(id, kind);
  }

  setWorkflowRun(
    id: number,
    update: {
      attempt?: number;
      status: FakeRunStatus;
      conclusion?: 'success' | 'failure' | 'cancelled';
      path?: string;
      event?: string;
    }
  ): void {
    this.workflowRuns.set(id, update);
  }

  setRunJobs(runId: number, attempt: number, jobs: readonly FakeJobSeed[]): void {
    this.ciJobs.set(runId, attempt, jobs);
  }

  get reruns(): readonly number[] {
    return this.ciJobs.reruns;
  }

  defineDispatchWorkflow(workflow: FakeDispatchWorkflow): void {
    this.dispatchRoutes.define(workflow);
  }

  get dispatches(): readonly RecordedDispatch[] {
    return this.dispatchRoutes.dispatches;
  }

  finishedRun(id: number): void {
    if (this.workflowRuns.get(id) === undefined || this.runsStartedHere.delete(id))
      this.workflowRuns.set(id, { status: 'completed' });
  }

  startedRun(id: number): void {
    if (this.workflowRuns.get(id) !== undefined) return;
    this.workflowRuns.set(id, { status: 'in_progress' });
    this.runsStartedHere.add(id);
  }

  /** Runs startedRun registered: finishedRun completes them (a test's own registrations it leaves). */
  private readonly runsStartedHere = new Set<number>();

  followBranches(has: (name: string) => boolean): void {
    this.state.branches = new FollowedBranches(has);
  }

  grantToken(token: string, permissions: TokenPermissions): void {
    this.grants.add(token, permissions);
  }

  protectBranch(name: string): void {
    this.protectedBranches.add(name);
  }

  failNext(rule: FaultRule): void {
    this.faults.push({ rule, remaining: rule.times ?? 1 });
  }

  failAlways(rule: FaultRule): () => void {
    const fault: ActiveFault = { rule, remaining: Infinity };
    this.faults.push(fault);
    return () => {
      const index = this.faults.indexOf(fault);
      if (index >= 0) this.faults.splice(index, 1);
    };
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  async close(): Promise<void> {
    await closeLoopback(this.server);
  }

  // -------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const record: RecordedGitHubRequest = {
      seq: this.seq++,
      arrivedAt: Date.now(),
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req.headers),
      body: undefined,
      rawBody: '',
      status: 0,
      response: undefined,
      faulted: false
    };
    this.records.push(record);
    const raw = await readBody(req);
    if (raw === undefined) return;
    record.rawBody = raw;

    // The signed blob URL a download redirects to: storage, not the API (no token, no User-Agent rule).
    const blob = this.artifactRoutes.blob(url.pathname, url.searchParams, req.headers.authorization);
    if (blob) return this.send(res, record, blob);
    const log = this.ciJobs.blob(
      url.pathname,
      url.searchParams,
      req.headers.authorization,
      req.headers.range
    );
    if (log) return this.send(res, record, log);

    if (!req.headers['user-agent']) {
      // github.com refuses requests without a User-Agent, with a plain-text 403.
      record.status = 403;
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(
        'Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://githubstatus.com for possible causes.\n'
      );
      return;
    }

    const auth = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!auth) {
      const message = req.headers.authorization ? 'Bad credentials' : 'Requires authentication';
      return this.send(res, record, error(401, message));
    }
    const token = auth[1] ?? '';
    if (token !== this.token && !this.grants.has(token))
      return this.send(res, record, error(401, 'Bad credentials'));
    record.token = token;

    if (raw.trim() !== '' && method !== 'GET' && method !== 'HEAD') {
      try {
        record.body = JSON.parse(raw);
      } catch {
        return this.send(res, record, error(400, 'Problems parsing JSON'));
      }
    }

    const refused = this.checkRequestContract(record);
    if (refused) return this.send(res, record, refused);

    const denied = this.permissionRefusal(token, method, url.pathname, record.body);
    if (denied) {
      record.refusedBy = 'permissions';
      return this.send(res, record, error(403, denied, PERMISSIONS_DOC));
    }

    const fault = this.takeFault(method, url.pathname) ?? this.fastWrites?.refuse(method, url.pathname);
    if (fault) {
      record.faulted = true;
      const body = fault.body ?? {
        message: fault.message ?? DEFAULT_MESSAGES[fault.status] ?? `Error ${fault.status}`,
        documentation_url: DOCS,
        status: String(fault.status)
      };
      return this.send(res, record, { status: fault.status, body, headers: fault.headers ?? {} });
    }

    // GraphQL lives at the API root only (GitHub: POST /graphql), never under /repos/....
    if (url.pathname === '/graphql') {
      if (method !== 'POST') return this.send(res, record, notFound(GRAPHQL_DOC));
      return this.send(res, record, { status: 200, body: this.graph.answer(record.body) });
    }

    const rest = this.repoRelative(url.pathname);
    if (rest === undefined) return this.send(res, record, notFound());
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(rest);
      if (!match) continue;
      const answer = route.handler({ method, rest, query: url.searchParams, body: record.body, record }, [
        ...match.slice(1)
      ]);
      return this.send(res, record, answer);
    }
    return this.send(res, record, notFound());
  }

  /** Why a granted token may not make this request (GraphQL: a mutation needs pull-requests: write). */
  private permissionRefusal(
    token: string,
    method: string,
    pathname: string,
    body: unknown
  ): string | undefined {
    if (pathname === '/graphql') {
      const query = isObject(body) && typeof body.query === 'string' ? body.query : '';
      return this.grants.refusal(token, /^\s*mutation\b/.test(query) ? 'POST' : 'GET', '/pulls');
    }
    return this.grants.refusal(token, method, this.repoRelative(pathname) ?? '');
  }

  /** The path after `/repos/{owner}/{repo}` or `/repositories/{id}` for this repository. */
  private repoRelative(pathname: string): string | undefined {
    const repo = this.state.repo;
    const byName = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(pathname);
    if (byName) {
      const owner = decodeURIComponent(byName[1] ?? '');
      const name = decodeURIComponent(byName[2] ?? '');
      if (
        owner.toLowerCase() !== repo.owner.login.toLowerCase() ||
        name.toLowerCase() !== repo.name.toLowerCase()
      )
        return undefined;
      return byName[3] ?? '';
    }
    const byId = /^\/repositories\/(\d+)(\/.*)?$/.exec(pathname);
    if (byId && Number(byId[1]) === repo.id) return byId[2] ?? '';
    return undefined;
  }

  /**
   * The request against GitHub's description: a route it does not list is recorded (the fake then
   * answers as it would, usually 404); parameters or a body that break it are recorded and answered
   * with GitHub's 422, since github.com would refuse them too. GraphQL is not in the REST description.
   */
  private checkRequestContract(record: RecordedGitHubRequest): Answer | undefined {
    if (this.options.checkContract === false || record.path === '/graphql') return undefined;
    const path = canonicalPath(record.path, {
      owner: this.state.repo.owner.login,
      name: this.state.repo.name,
      id: this.state.repo.id
    });
    const op = findOperation(record.method, path);
    const base = { direction: 'request', method: record.method, path: record.path } as const;
    if (!op) {
      this.violations.push({
        ...base,
        operationId: undefined,
        errors: [
          {
            in: 'path',
            instancePath: '',
            keyword: 'route',
            message: 'no such route in the description',
            params: {}
          }
        ]
      });
      return undefined;
    }
    this.operations.set(record, op);
    const errors = checkRequest(op, record.query, record.body);
    if (errors.length === 0) return undefined;
    this.violations.push({ ...base, operationId: op.operationId, errors });
    const doc = op.definition.externalDocs as { url?: unknown } | undefined;
    return error(
      422,
      invalidRequestMessage(errors, record.body),
      typeof doc?.url === 'string' ? doc.url : DOCS
    );
  }

  private takeFault(method: string, path: string): FaultRule | undefined {
    for (const fault of this.faults) {
      if (fault.remaining <= 0) continue;
      if (fault.rule.method !== undefined && fault.rule.method.toUpperCase() !== method) continue;
      fault.rule.path.lastIndex = 0;
      if (!fault.rule.path.test(path)) continue;
      fault.remaining--;
      return fault.rule;
    }
    return undefined;
  }

  private send(res: ServerResponse, record: RecordedGitHubRequest | undefined, answer: Answer): void {
    this.used++;
    const payload = answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    if (record) {
      record.status = answer.status;
      record.response = answer.body;
      const op = this.operations.get(record);
      const errors = op && !answer.raw ? checkResponse(op, answer.status, answer.body) : [];
      if (op && errors.length > 0) {
        this.violations.push({
          direction: 'response',
          method: record.method,
          path: record.path,
          operationId: op.operationId,
          status: answer.status,
          errors
        });
      }
    }
    res.writeHead(answer.status, {
      ...(payload.length > 0 && !answer.raw ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      'content-length': String(Buffer.byteLength(payload)),
      'x-github-api-version-selected': '2022-11-28',
      'x-github-media-type': 'github.v3; format=json',
      'x-github-request-id': requestId(),
      'x-ratelimit-limit': String(RATE_LIMIT),
      'x-ratelimit-remaining': String(Math.max(0, RATE_LIMIT - this.used)),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-used': String(Math.min(this.used, RATE_LIMIT)),
      'x-ratelimit-resource': 'core',
      ...answer.headers
    });
    res.end(payload);
  }

  /** One page of `items` with GitHub's `link` header (links use /repositories/{id}/..., like github.com). */
  private page<T>(ctx: Ctx, items: T[]): Answer {
    const perPageRaw = Number(ctx.query.get('per_page') ?? 30);
    const perPage = Number.isInteger(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, 100) : 30;
    const pageRaw = Number(ctx.query.get('page') ?? 1);
    const page = Number.isInteger(pageRaw) && pageRaw > 0 ? pageRaw : 1;
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const body = items.slice((page - 1) * perPage, page * perPage);
    const link = (p: number): string => {
      const query = new URLSearchParams(ctx.query);
      query.set('page', String(p));
      return `<${this.url}/repositories/${this.state.repo.id}${ctx.rest}?${query.toString()}>`;
    };
    const links: string[] = [];
    if (page > 1) links.push(`${link(Math.min(page - 1, last))}; rel="prev"`);
    if (page < last) links.push(`${link(page + 1)}; rel="next"`, `${link(last)}; rel="last"`);
    if (page > 1) links.push(`${link(1)}; rel="first"`);
    return { status: 200, body, headers: links.length > 0 ? { link: links.join(', ') } : {} };
  }

  private renderComment(comment: FakeComment): unknown {
    const issue = this.state.issues.get(comment.issueNumber);
    return commentJson(
      this.url,
      this.state.repo,
      comment,
      issue?.isPullRequest ?? false,
      this.state.reactionCounts({ kind: 'issue_comment', id: comment.id })
    );
  }

  private renderIssue(issue: FakeIssue): unknown {
    return issueJson(
      this.url,
      this.state.repo,
      issue,
      this.state.commentsOn(issue.number).length,
      this.state.reactionCounts({ kind: 'issue', number: issue.number }),
      this.state.pulls.get(issue.number)
    );
  }

  private renderPull(pull: FakePull): unknown {
    const issue = this.state.issues.get(pull.number);
    const reviewComments = [...this.state.reviewComments.values()].filter(
      (c) => c.pullNumber === pull.number
    );
    return pullJson(
      this.url,
      this.state.repo,
      pull,
      issue?.labels ?? [],
      this.state.commentsOn(pull.number).length,
      reviewComments.length
    );
  }

  private react(ctx: Ctx, subject: ReactionSubject, doc: string): Answer {
    if (!isObject(ctx.body)) return invalidRequest(doc, `"content" wasn't supplied.`);
    const content = ctx.body.content;
    if (content === undefined) return invalidRequest(doc, `"content" wasn't supplied.`);
    if (typeof content !== 'string' || !REACTION_CONTENTS.includes(content as ReactionContent)) {
      return invalidRequest(
        doc,
        `For 'properties/content', ${showValue(content)} is not one of [${REACTION_CONTENTS.map((c) => `"${c}"`).join(', ')}].`
      );
    }
    const { reaction, created } = this.state.react(subject, this.actor, content as ReactionContent);
    return { status: created ? 201 : 200, body: reactionJson(this.url, reaction) };
  }

  private buildRoutes(): Route[] {
    const s = this.state;
    const n = (text: string | undefined): number => Number(text);
    const issueOr404 = (text: string | undefined): FakeIssue | undefined => s.issues.get(n(text));
    const pullOr404 = (text: string | undefined): FakePull | undefined => s.pulls.get(n(text));
    const commentOr404 = (text: string | undefined): FakeComment | undefined => s.comments.get(n(text));

    return [
      ...issueRoutes({
        state: s,
        actor: this.actor,
        renderIssue: (issue) => this.renderIssue(issue),
        page: (ctx, items) => this.page(ctx as Ctx, items),
        maxBodyChars: MAX_BODY_CHARS,
        maxTitleChars: MAX_TITLE_CHARS
      }),
      ...repositoryListRoutes({
        comments: () => s.comments.values(),
        renderComment: (comment) => this.renderComment(comment),
        page: (ctx, items) => this.page(ctx as Ctx, items),
        artifacts: (name) => this.artifactRoutes.all(this.url, name)
      }),
      {
        method: 'GET',
        pattern: /^$/,
        handler: () => ({
          status: 200,
          body: repoJson(this.url, s.repo, [...s.issues.values()].filter((i) => i.state === 'open').length)
        })
      },
      {
        method: 'GET',
        pattern: /^\/actions\/runs\/(\d+)\/attempts\/(\d+)$/,
        handler: (_ctx, [id, attempt]) => this.workflowRuns.attempt(this.url, n(id), n(attempt))
      },
      ...ciJobRoutes(
        () => this.ciJobs,
        () => this.url
      ),
      {
        method: 'GET',
        pattern: /^\/actions\/runs\/(\d+)$/,
        handler: (_ctx, [id]) => this.workflowRuns.run(this.url, n(id))
      },
      {
        method: 'GET',
        pattern: /^\/actions\/workflows\/([^/]+)\/runs$/,
        handler: (ctx, [workflowId]) => {
          const runs = this.workflowRuns.ofWorkflow(this.url, decodeURIComponent(workflowId!));
          if (runs === null) return { status: 404, body: { message: 'Not Found', status: '404' } };
          const page = this.page(ctx, runs);
          return { ...page, body: { total_count: runs.length, workflow_runs: page.body } };
        }
      },
      {
        method: 'POST',
        pattern: /^\/actions\/workflows\/([^/]+)\/dispatches$/,
        handler: (ctx, [workflowId]) =>
          this.dispatchRoutes.dispatch(this.url, decodeURIComponent(workflowId!), ctx.body)
      },
      {
        method: 'GET',
        pattern: /^\/actions\/runs\/(\d+)\/artifacts$/,
        handler: (ctx, [id]) => this.artifactRoutes.listForRun(this.url, n(id), ctx.query.get('name'))
      },
      {
        method: 'GET',
        pattern: /^\/branches\/([^/]+)$/,
        handler: (_ctx, [name]) =>
          branchAnswer(this.url, s.repo, decodeURIComponent(name ?? ''), s.branches, this.protectedBranches)
      },
      {
        method: 'GET',
        pattern: /^\/actions\/artifacts\/(\d+)$/,
        handler: (_ctx, [id]) => this.artifactRoutes.get(this.url, n(id))
      },
      {
        method: 'GET',
        pattern: /^\/actions\/artifacts\/(\d+)\/([^/]+)$/,
        handler: (_ctx, [id, format]) =>
          this.artifactRoutes.download(this.url, n(id), decodeURIComponent(format ?? ''))
      },
      {
        method: 'GET',
        pattern: /^\/collaborators\/([^/]+)\/permission$/,
        handler: (_ctx, [login]) => {
          const name = decodeURIComponent(login ?? '');
          return { status: 200, body: permissionJson(this.url, s.user(name), s.permission(name)) };
        }
      },
      {
        method: 'GET',
        pattern: /^\/issues\/(\d+)$/,
        handler: (_ctx, [num]) => {
          const issue = issueOr404(num);
          return issue ? { status: 200, body: this.renderIssue(issue) } : notFound(DOC.getIssue);
        }
      },
      {
        method: 'GET',
        pattern: /^\/issues\/(\d+)\/comments$/,
        handler: (ctx, [num]) => {
          const issue = issueOr404(num);
          if (!issue) return notFound(DOC.listComments);
          const since = ctx.query.get('since');
          const comments = s
            .commentsOn(issue.number)
            .filter((c) => since === null || c.updated_at >= since)
            .map((c) => this.renderComment(c));
          return this.page(ctx, comments);
        }
      },
      {
        method: 'POST',
        pattern: /^\/issues\/(\d+)\/comments$/,
        handler: (ctx, [num]) => {
          const issue = issueOr404(num);
          if (!issue) return notFound(DOC.createComment);
          const body = isObject(ctx.body) ? ctx.body : {};
          const bad = requireString(body, 'body', DOC.createComment);
          if (bad) return bad;
          const text = body.body as string;
          if (text.trim() === '') {
            return validationFailed(DOC.createComment, {
              resource: 'IssueComment',
              code: 'missing_field',
              field: 'body'
            });
          }
          if (charLength(text) > MAX_BODY_CHARS) return bodyTooLong('IssueComment', DOC.createComment);
          const comment = s.addComment(issue.number, { user: this.actor, body: text });
          issue.updated_at = comment.created_at;
          this.createdCommentList.push(comment);
          const json = this.renderComment(comment);
          return { status: 201, body: json, headers: { location: (json as { url: string }).url } };
        }
      },
      {
        method: 'GET',
        pattern: /^\/issues\/comments\/(\d+)$/,
        handler: (_ctx, [id]) => {
          const comment = commentOr404(id);
          return comment ? { status: 200, body: this.renderComment(comment) } : notFound(DOC.getComment);
        }
      },
      {
        method: 'PATCH',
        pattern: /^\/issues\/comments\/(\d+)$/,
        handler: (ctx, [id]) => {
          const comment = commentOr404(id);
          if (!comment) return notFound(DOC.updateComment);
          const body = isObject(ctx.body) ? ctx.body : {};
          const bad = requireString(body, 'body', DOC.updateComment);
          if (bad) return bad;
          const text = body.body as string;
          if (text.trim() === '') {
            return validationFailed(DOC.updateComment, {
              resource: 'IssueComment',
              code: 'missing_field',
              field: 'body'
            });
          }
          if (charLength(text) > MAX_BODY_CHARS) return bodyTooLong('IssueComment', DOC.updateComment);
          comment.history.push(comment.body);
          comment.body = text;
          comment.updated_at = s.now();
          return { status: 200, body: this.renderComment(comment) };
        }
      },
      {
        method: 'GET',
        pattern: /^\/issues\/comments\/(\d+)\/reactions$/,
        handler: (ctx, [id]) => {
          const comment = commentOr404(id);
          if (!comment) return notFound(DOC.listCommentReactions);
          const content = ctx.query.get('content');
          const list = this.reactionsOn({ kind: 'issue_comment', id: comment.id })
            .filter((r) => content === null || r.content === content)
            .map((r) => reactionJson(this.url, r));
          return this.page(ctx, list);
        }
      },
      {
        method: 'POST',
        pattern: /^\/issues\/comments\/(\d+)\/reactions$/,
        handler: (ctx, [id]) => {
          const comment = commentOr404(id);
          if (!comment) return notFound(DOC.reactComment);
          return this.react(ctx, { kind: 'issue_comment', id: comment.id }, DOC.reactComment);
        }
      },
      {
        method: 'POST',
        pattern: /^\/issues\/(\d+)\/reactions$/,
        handler: (ctx, [num]) => {
          const issue = issueOr404(num);
          if (!issue) return notFound(DOC.reactIssue);
          return this.react(ctx, { kind: 'issue', number: issue.number }, DOC.reactIssue);
        }
      },
      {
        method: 'GET',
        pattern: /^\/pulls\/comments\/(\d+)$/,
        handler: (_ctx, [id]) => {
          const comment = s.reviewComments.get(n(id));
          if (!comment) return notFound(DOC.getReviewComment);
          return { status: 200, body: this.reviewRoutes.renderComment(comment) };
        }
      },
      {
        method: 'POST',
        pattern: /^\/pulls\/comments\/(\d+)\/reactions$/,
        handler: (ctx, [id]) => {
          const comment = s.reviewComments.get(n(id));
          if (!comment) return notFound(DOC.reactReviewComment);
          return this.react(
            ctx,
            { kind: 'pull_request_review_comment', id: comment.id },
            DOC.reactReviewComment
          );
        }
      },
      {
        method: 'GET',
        pattern: /^\/pulls\/(\d+)$/,
        handler: (_ctx, [num]) => {
          const pull = pullOr404(num);
          return pull ? { status: 200, body: this.renderPull(pull) } : notFound(DOC.getPull);
        }
      },
      {
        method: 'GET',
        pattern: /^\/pulls\/(\d+)\/files$/,
        handler: (ctx, [num]) => {
          const pull = pullOr404(num);
          if (!pull) return notFound(DOC.listFiles);
          // GitHub lists at most 3000 files of a pull request.
          const files = pull.files.slice(0, 3000).map((f) => pullFileJson(this.url, s.repo, pull, f));
          return this.page(ctx, files);
        }
      },
      {
        method: 'GET',
        pattern: /^\/pulls$/,
        handler: (ctx) => {
          const state = ctx.query.get('state') ?? 'open';
          const head = ctx.query.get('head');
          const base = ctx.query.get('base');
          const pulls = [...s.pulls.values()]
            .filter((p) => state === 'all' || p.state === state)
            .filter((p) => head === null || this.headLabel(p).toLowerCase() === head.toLowerCase())
            .filter((p) => base === null || p.base.ref === base)
            .sort((a, b) => b.number - a.number)
            .map((p) => this.renderPull(p));
          return this.page(ctx, pulls);
        }
      },
      { method: 'POST', pattern: /^\/pulls$/, handler: (ctx) => this.createPull(ctx) },
      {
        method: 'GET',
        pattern: /^\/pulls\/(\d+)\/comments$/,
        handler: (ctx, [num]) =>
          this.reviewRoutes.listComments(n(num), ctx.query, (items) => this.page(ctx, items))
      },
      {
        method: 'POST',
        pattern: /^\/pulls\/(\d+)\/comments\/(\d+)\/replies$/,
        handler: (ctx, [num, id]) => this.reviewRoutes.reply(n(num), n(id), ctx.body)
      },
      {
        method: 'GET',
        pattern: /^\/pulls\/(\d+)\/reviews$/,
        handler: (ctx, [num]) => this.reviewRoutes.listReviews(n(num), (items) => this.page(ctx, items))
      },
      {
        method: 'POST',
        pattern: /^\/pulls\/(\d+)\/reviews$/,
        handler: (ctx, [num]) => this.reviewRoutes.createReview(n(num), ctx.body)
      },
      {
        method: 'PATCH',
        pattern: /^\/pulls\/(\d+)$/,
        handler: (ctx, [num]) => {
          const pull = pullOr404(num);
          if (!pull) return notFound(DOC.updatePull);
          const body = isObject(ctx.body) ? ctx.body : {};
          const bad =
            optionalType(body, 'title', 'string', DOC.updatePull) ??
            optionalType(body, 'body', 'string', DOC.updatePull, true) ??
            optionalType(body, 'state', 'string', DOC.updatePull);
          if (bad) return bad;
          if (body.state !== undefined && body.state !== 'open' && body.state !== 'closed') {
            return validationFailed(DOC.updatePull, {
              resource: 'PullRequest',
              code: 'invalid',
              field: 'state'
            });
          }
          const text = body.body as string | null | undefined;
          if (typeof text === 'string' && charLength(text) > MAX_BODY_CHARS)
            return bodyTooLong('PullRequest', DOC.updatePull);
          if (typeof body.title === 'string') pull.title = body.title;
          if (text !== undefined) pull.body = text;
          if (body.state === 'open' || body.state === 'closed') pull.state = body.state;
          pull.updated_at = s.now();
          return { status: 200, body: this.renderPull(pull) };
        }
      }
    ];
  }

  private headLabel(pull: FakePull): string {
    const owner = pull.head.repoFullName?.split('/')[0] ?? pull.user.login;
    return `${owner}:${pull.head.ref}`;
  }

  private createPull(ctx: Ctx): Answer {
    const doc = DOC.createPull;
    const s = this.state;
    const body = isObject(ctx.body) ? ctx.body : {};
    for (const field of ['head', 'base']) {
      const bad = requireString(body, field, doc);
      if (bad) return bad;
    }
    if (body.issue === undefined) {
      const bad = requireString(body, 'title', doc);
      if (bad) return bad;
    }
    const bad =
      optionalType(body, 'body', 'string', doc, true) ??
      optionalType(body, 'draft', 'boolean', doc) ??
      optionalType(body, 'maintainer_can_modify', 'boolean', doc) ??
      optionalType(body, 'head_repo', 'string', doc) ??
      optionalType(body, 'issue', 'integer', doc);
    if (bad) return bad;
    if (body.issue !== undefined) {
      return validationFailed(doc, {
        resource: 'PullRequest',
        code: 'custom',
        message: 'the fake GitHub does not support turning an issue into a pull request'
      });
    }

    if (this.actor.id === ACTIONS_BOT.id && this.options.allowActionsToCreatePullRequests === false) {
      return error(403, 'GitHub Actions is not permitted to create or approve pull requests.', doc);
    }

    const title = body.title as string;
    const head = body.head as string;
    const base = body.base as string;
    const text = (body.body as string | null | undefined) ?? null;
    if (title.trim() === '') {
      return validationFailed(doc, { resource: 'PullRequest', code: 'missing_field', field: 'title' });
    }
    if (charLength(title) > MAX_TITLE_CHARS) {
      return validationFailed(doc, {
        resource: 'Issue',
        code: 'custom',
        field: 'title',
        message: `title is too long (maximum is ${MAX_TITLE_CHARS} characters)`
      });
    }
    if (text !== null && charLength(text) > MAX_BODY_CHARS) return bodyTooLong('PullRequest', doc);

    const ownerLogin = s.repo.owner.login;
    const [headOwner, headRef] = head.includes(':')
      ? [head.slice(0, head.indexOf(':')), head.slice(head.indexOf(':') + 1)]
      : [ownerLogin, head];
    const sameRepo = headOwner.toLowerCase() === ownerLogin.toLowerCase();
    const branches = s.branches;
    if (branches && sameRepo && !branches.has(headRef)) {
      return validationFailed(doc, { resource: 'PullRequest', field: 'head', code: 'invalid' });
    }
    if (branches && !branches.has(base)) {
      return validationFailed(doc, { resource: 'PullRequest', field: 'base', code: 'invalid' });
    }
    if (sameRepo && headRef === base) {
      return validationFailed(doc, {
        resource: 'PullRequest',
        code: 'custom',
        message: `No commits between ${base} and ${headRef}`
      });
    }
    const label = `${sameRepo ? ownerLogin : headOwner}:${headRef}`;
    const duplicate = [...s.pulls.values()].find(
      (p) =>
        p.state === 'open' && p.base.ref === base && this.headLabel(p).toLowerCase() === label.toLowerCase()
    );
    if (duplicate) {
      return validationFailed(doc, {
        resource: 'PullRequest',
        code: 'custom',
        message: `A pull request already exists for ${label}.`
      });
    }

    const pull = s.addPull(
      {
        number: s.nextNumber(),
        title,
        body: text,
        user: this.actor,
        head: {
          ref: headRef,
          sha: fakeSha(`head:${label}:${s.now()}`),
          repo: { full_name: sameRepo ? s.fullName : `${headOwner}/${s.repo.name}` }
        },
        base: { ref: base },
        draft: body.draft === true,
        author_association: 'NONE'
      },
      true
    );
    pull.maintainer_can_modify = body.maintainer_can_modify === true;
    this.created.push(pull);
    const json = this.renderPull(pull);
    return { status: 201, body: json, headers: { location: (json as { url: string }).url } };
  }
}

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const fake = new FakeGitHubServer(createServer(), options);
  await fake.listen();
  return fake;
}
