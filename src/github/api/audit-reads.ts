/**
 * The GitHub reads of an audit of many runs: the repository's issue comments (where the action's
 * reports are), its transcript artifacts, a run, and an artifact's zip. Every list is paginated
 * (100 a page, the most GitHub gives); every call goes through the project's Octokit with retry and
 * throttling (octokit-resilience.ts), so a rate limit is waited out and never skipped silently.
 *
 * Routes (GitHub Docs, read 2026-11-28, and @octokit/openapi's description, which the fake checks):
 * - "List issue comments for a repository", GET /repos/{owner}/{repo}/issues/comments with `sort`,
 *   `direction`, `since` (comments updated at or after it)
 *   (https://docs.github.com/en/rest/issues/comments#list-issue-comments-for-a-repository);
 * - "List artifacts for a repository", GET /repos/{owner}/{repo}/actions/artifacts (needs
 *   `actions: read`) (https://docs.github.com/en/rest/actions/artifacts#list-artifacts-for-a-repository);
 * - "List workflow run artifacts", "Get a workflow run" and "Get a repository".
 */
import {
  accountType,
  OctokitGitHubApi,
  RepositoryClient,
  type OctokitGitHubApiOptions
} from './octokit-api.js';
import type { AccountType, WorkflowArtifact } from './github-api.js';
import { GitHubAccessError } from './github-access-error.js';
import type { RepositoryName } from './github-location.js';
import { OctokitWorkflowRunReads, type WorkflowRunIdPage, type WorkflowRunReads } from './workflow-runs.js';

/** An issue or pull-request comment, with where it is. */
export interface RepositoryComment {
  readonly id: number;
  readonly body: string;
  readonly login: string;
  readonly userType: AccountType;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly url: string;
  /** The issue or pull request it is on. */
  readonly issueNumber: number | undefined;
}

/** A workflow artifact as the lists give it, with the run that uploaded it. */
export interface ListedArtifact {
  readonly id: number;
  readonly name: string;
  readonly sizeInBytes: number;
  readonly expired: boolean;
  readonly createdAt: string | undefined;
  /** The workflow run that uploaded it (`workflow_run.id`): the artifact's name is the uploader's choice, this is GitHub's. */
  readonly runId: number | undefined;
  readonly repositoryId: number | undefined;
  /** The repository of the run's head: another's for a fork's pull-request run. */
  readonly headRepositoryId: number | undefined;
}

export interface WorkflowRunSummary {
  readonly id: number;
  readonly url: string;
  readonly createdAt: string;
  readonly path: string;
}

const PAGE = 100;

/** The reads of an audit; built by gitHubClients (clients.ts), like every client of the repository. */
export class OctokitAuditReads extends RepositoryClient implements WorkflowRunReads {
  private readonly artifacts: OctokitGitHubApi;
  private readonly runs: OctokitWorkflowRunReads;

  constructor(
    token: string,
    readonly repository: RepositoryName,
    apiUrl: string | undefined,
    options: OctokitGitHubApiOptions = {}
  ) {
    super(token, repository, apiUrl, options);
    this.artifacts = new OctokitGitHubApi(token, repository, apiUrl, options);
    this.runs = new OctokitWorkflowRunReads(token, repository, apiUrl, options);
  }

  /** The repository's id (an artifact's run must be of it), or why it cannot be read. */
  async repositoryId(): Promise<number> {
    const { data } = await this.guard('the repository', () => this.octokit.rest.repos.get(this.repo));
    return data.id;
  }

  /** Every issue and pull-request comment updated since `since`, oldest first, a page at a time. */
  async *comments(since: string | undefined): AsyncGenerator<RepositoryComment[]> {
    const pages = this.octokit.paginate.iterator(this.octokit.rest.issues.listCommentsForRepo, {
      ...this.repo,
      sort: 'created',
      direction: 'asc',
      per_page: PAGE,
      ...(since ? { since } : {})
    });
    for await (const page of this.guardPages('the issue comments', pages)) {
      yield page.data.map((comment) => ({
        id: comment.id,
        body: comment.body ?? '',
        login: comment.user?.login ?? 'ghost',
        userType: accountType(comment.user?.type),
        createdAt: comment.created_at,
        updatedAt: comment.updated_at,
        url: comment.html_url,
        issueNumber: issueNumberOf(comment.issue_url)
      }));
    }
  }

  /** Every artifact of the repository, expired ones included (GitHub lists them), a page at a time. */
  async *repositoryArtifacts(): AsyncGenerator<ListedArtifact[]> {
    const pages = this.octokit.paginate.iterator(this.octokit.rest.actions.listArtifactsForRepo, {
      ...this.repo,
      per_page: PAGE
    });
    for await (const page of this.guardPages('the Actions artifacts', pages)) {
      yield page.data.map(listedArtifact);
    }
  }

  /** The artifacts one run uploaded (of that name, when given). */
  async runArtifacts(runId: number, name?: string): Promise<ListedArtifact[]> {
    const all = await this.guard('the run\u2019s artifacts', () =>
      this.octokit.paginate(this.octokit.rest.actions.listWorkflowRunArtifacts, {
        ...this.repo,
        run_id: runId,
        per_page: PAGE,
        ...(name === undefined ? {} : { name })
      })
    );
    return all.map(listedArtifact);
  }

  /** The run, or undefined when the repository has none of that id. */
  async workflowRun(runId: number): Promise<WorkflowRunSummary | undefined> {
    try {
      const { data } = await this.guard('the workflow run', () =>
        this.octokit.rest.actions.getWorkflowRun({ ...this.repo, run_id: runId, exclude_pull_requests: true })
      );
      return { id: data.id, url: data.html_url, createdAt: data.created_at, path: data.path };
    } catch (error) {
      if (error instanceof GitHubAccessError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** A page of a workflow file's run ids, newest first (the trust check of workflow-origin.ts lists them). */
  workflowRunIds(workflowFileName: string, page: number): Promise<WorkflowRunIdPage | undefined> {
    return this.runs.workflowRunIds(workflowFileName, page);
  }

  getArtifact(id: number): Promise<WorkflowArtifact> {
    return this.artifacts.getArtifact(id);
  }

  /** The zip, read up to `maxBytes` (ArtifactTooLargeError past it, ArtifactExpiredError on 410). */
  downloadArtifactZip(id: number, maxBytes: number): Promise<Buffer> {
    return this.artifacts.downloadArtifactZip(id, maxBytes);
  }

  private async guard<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.explain(what, error);
    }
  }

  private async *guardPages<T>(what: string, pages: AsyncIterable<T>): AsyncGenerator<T> {
    try {
      yield* pages;
    } catch (error) {
      throw this.explain(what, error);
    }
  }

  /** A refusal in words: a bad token, a token without the permission, a repository it cannot see. */
  private explain(what: string, error: unknown): unknown {
    const status = (error as { status?: unknown }).status;
    const full = `${this.repo.owner}/${this.repo.repo}`;
    if (status === 401)
      return new GitHubAccessError(
        `GitHub refused the token (401 Bad credentials) when reading ${what} of ${full}. Set GITHUB_TOKEN or GH_TOKEN to a valid token.`,
        401
      );
    if (status === 403 && !/rate limit/i.test((error as Error).message))
      return new GitHubAccessError(
        `GitHub refused to show ${what} of ${full} to this token (403: ${firstLine(error)}). The token needs ` +
          'read access to the repository with "Actions: read" and "Issues: read" (fine-grained), or the repo scope (classic); ' +
          'in a workflow, give the job `permissions: { actions: read, issues: read, pull-requests: read }`.',
        403
      );
    if (status === 404)
      return new GitHubAccessError(
        `GitHub answered 404 for ${what} of ${full}: it does not exist, or this token cannot see it (a private repository needs a token with access to it).`,
        404
      );
    return error;
  }
}

function listedArtifact(artifact: {
  id: number;
  name: string;
  size_in_bytes: number;
  expired: boolean;
  created_at: string | null;
  workflow_run?: { id?: number; repository_id?: number; head_repository_id?: number } | null;
}): ListedArtifact {
  return {
    id: artifact.id,
    name: artifact.name,
    sizeInBytes: artifact.size_in_bytes,
    expired: artifact.expired,
    createdAt: artifact.created_at ?? undefined,
    runId: artifact.workflow_run?.id,
    repositoryId: artifact.workflow_run?.repository_id,
    headRepositoryId: artifact.workflow_run?.head_repository_id
  };
}

function issueNumberOf(issueUrl: string): number | undefined {
  const number = /\/issues\/(\d+)$/.exec(issueUrl)?.[1];
  return number === undefined ? undefined : Number(number);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
