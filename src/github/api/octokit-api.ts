import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import type { RepositoryRef } from '../events/event.js';
import {
  type AccountType,
  ArtifactExpiredError,
  ArtifactTooLargeError,
  type ChangedFile,
  type GitHubApi,
  type PullRequestDetails,
  type ReactionTarget,
  type ThreadComment,
  type WorkflowArtifact,
  type WorkflowArtifacts
} from './github-api.js';
import {
  DEFAULT_RESILIENCE,
  RESILIENCE_PLUGINS,
  explainFinalFailure,
  resilienceOptions,
  type GitHubApiLogger,
  type ResilienceSettings
} from './octokit-resilience.js';
import { spacesWrites } from '../../config/test-switches.js';
import type { WritePacer } from './paced-writes.js';
import { isWriteMethod } from './write-method.js';

export type Octokit = ReturnType<typeof getOctokit>;

export interface OctokitGitHubApiOptions {
  /** Rate-limit waits and give-ups are reported here. Default: the job log's warnings. */
  readonly logger?: GitHubApiLogger;
  /** Tests shorten the waits; production keeps the defaults. */
  readonly resilience?: Partial<ResilienceSettings>;
  /** Where the test runner's request for unspaced writes is read (see spacesWrites). Default: process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Paces this client's writes with the run's other clients' (the land role of a fan-out: see
   * paced-writes.ts); its rate-limit waits replace the throttling plugin's for writes.
   */
  readonly writePacer?: WritePacer;
}

/**
 * The Octokit every GitHub boundary uses: base URL (GHES, our fakes), the retry and throttling
 * plugins, and, outermost, a wrapper so a request that still fails on GitHub's side says so in words.
 */
export function resilientOctokit(
  token: string,
  baseUrl: string | undefined,
  options: OctokitGitHubApiOptions = {}
): Octokit {
  const logger = options.logger ?? { warning: (message: string) => core.warning(message) };
  const settings = { ...DEFAULT_RESILIENCE, ...options.resilience };
  const octokit = getOctokit(
    token,
    {
      ...(baseUrl ? { baseUrl } : {}),
      ...resilienceOptions(logger, settings, spacesWrites(baseUrl, options.env ?? process.env), {
        writesPaced: options.writePacer !== undefined
      })
    },
    ...RESILIENCE_PLUGINS
  );
  // Outside the plugins, which then leave write rate limits to the pacer: a write waits its turn once,
  // and a limit on it is waited out once, for every client of the run.
  const pacer = options.writePacer;
  if (pacer)
    octokit.hook.wrap('request', (request, requestOptions) =>
      isWriteMethod(requestOptions.method)
        ? pacer.pace(`${requestOptions.method} ${requestOptions.url}`, async () => request(requestOptions))
        : request(requestOptions)
    );
  // Outermost, so it sees only what the plugins gave up on.
  octokit.hook.wrap('request', async (request, requestOptions) => {
    try {
      return await request(requestOptions);
    } catch (error) {
      throw explainFinalFailure(error, requestOptions, settings);
    }
  });
  return octokit;
}

const STANDARD_ROLES = new Set(['admin', 'maintain', 'write', 'triage', 'read']);

/**
 * GitHubApi over Octokit. The base URL comes from GITHUB_API_URL (GHES, and our fakes). Octokit's
 * retry and throttling plugins retry 5xx answers and network errors with backoff, and wait out
 * primary and secondary rate limits as GitHub's headers ask, a bounded number of times.
 */
export class OctokitGitHubApi implements GitHubApi, WorkflowArtifacts {
  private readonly octokit: Octokit;
  private readonly repo: { owner: string; repo: string };

  constructor(
    token: string,
    readonly repository: Pick<RepositoryRef, 'owner' | 'name'>,
    baseUrl: string | undefined,
    options: OctokitGitHubApiOptions = {}
  ) {
    this.octokit = resilientOctokit(token, baseUrl, options);
    this.repo = { owner: repository.owner, repo: repository.name };
  }

  /**
   * The role, not the legacy `permission` field (which reports maintain as write and triage as
   * read). A custom role falls back to the legacy field, which reflects the role's base.
   */
  async permission(login: string): Promise<string> {
    const { data } = await this.octokit.rest.repos.getCollaboratorPermissionLevel({
      ...this.repo,
      username: login
    });
    return STANDARD_ROLES.has(data.role_name) ? data.role_name : data.permission;
  }

  async addReaction(target: ReactionTarget, content: 'eyes' | 'rocket' | 'confused'): Promise<void> {
    if (target.kind === 'issue_comment') {
      await this.octokit.rest.reactions.createForIssueComment({
        ...this.repo,
        comment_id: target.id,
        content
      });
    } else {
      await this.octokit.rest.reactions.createForPullRequestReviewComment({
        ...this.repo,
        comment_id: target.id,
        content
      });
    }
  }

  async createComment(issueNumber: number, body: string): Promise<{ id: number; url: string }> {
    const { data } = await this.octokit.rest.issues.createComment({
      ...this.repo,
      issue_number: issueNumber,
      body
    });
    return { id: data.id, url: data.html_url };
  }

  async updateComment(commentId: number, body: string): Promise<void> {
    await this.octokit.rest.issues.updateComment({ ...this.repo, comment_id: commentId, body });
  }

  async listComments(issueNumber: number): Promise<ThreadComment[]> {
    const comments = await this.octokit.paginate(this.octokit.rest.issues.listComments, {
      ...this.repo,
      issue_number: issueNumber,
      per_page: 100
    });
    return comments.map((comment) => ({
      id: comment.id,
      body: comment.body ?? '',
      login: comment.user?.login ?? 'ghost',
      userType: accountType(comment.user?.type),
      createdAt: comment.created_at
    }));
  }

  async getPullRequest(number: number): Promise<PullRequestDetails> {
    const { data } = await this.octokit.rest.pulls.get({ ...this.repo, pull_number: number });
    return {
      number: data.number,
      title: data.title,
      body: data.body ?? '',
      headRef: data.head.ref,
      headRepoFullName: data.head.repo?.full_name,
      baseRef: data.base.ref,
      state: data.state === 'closed' ? 'closed' : 'open',
      merged: data.merged === true,
      author: {
        login: data.user.login,
        type: accountType(data.user.type),
        id: Number.isSafeInteger(data.user.id) ? data.user.id : undefined
      }
    };
  }

  async listPullRequestFiles(number: number): Promise<ChangedFile[]> {
    const files = await this.octokit.paginate(this.octokit.rest.pulls.listFiles, {
      ...this.repo,
      pull_number: number,
      per_page: 100
    });
    return files.map((file) => ({
      filename: file.filename,
      status: file.status,
      additions: file.additions,
      deletions: file.deletions
    }));
  }

  async createPullRequest(request: {
    title: string;
    head: string;
    base: string;
    body: string;
    draft: boolean;
  }): Promise<{ number: number; url: string }> {
    const { data } = await this.octokit.rest.pulls.create({ ...this.repo, ...request });
    return { number: data.number, url: data.html_url };
  }

  async updatePullRequest(
    number: number,
    update: { body: string }
  ): Promise<{ number: number; url: string }> {
    const { data } = await this.octokit.rest.pulls.update({
      ...this.repo,
      pull_number: number,
      body: update.body
    });
    return { number: data.number, url: data.html_url };
  }

  /**
   * "Get an artifact", GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}
   * (https://docs.github.com/en/rest/actions/artifacts#get-an-artifact, read 2026-11-23): `expired`,
   * and the uploading run as `workflow_run` {id, repository_id, head_repository_id}.
   */
  async getArtifact(artifactId: number): Promise<WorkflowArtifact> {
    const { data } = await this.octokit.rest.actions.getArtifact({ ...this.repo, artifact_id: artifactId });
    const run = data.workflow_run ?? undefined;
    return {
      id: data.id,
      name: data.name,
      sizeInBytes: data.size_in_bytes,
      expired: data.expired,
      workflowRun: run && {
        id: run.id,
        repositoryId: run.repository_id,
        headRepositoryId: run.head_repository_id
      }
    };
  }

  /**
   * "Download an artifact", GET .../actions/artifacts/{artifact_id}/zip
   * (https://docs.github.com/en/rest/actions/artifacts#download-an-artifact, read 2026-11-23): a 302
   * whose Location is a short-lived signed blob URL, or 410 when the artifact has expired. The
   * redirect is not followed by Octokit: the blob is fetched without the token (the signed URL is the
   * credential, and the token must not travel to the storage host), and read only up to `maxBytes`.
   */
  async downloadArtifactZip(artifactId: number, maxBytes: number): Promise<Buffer> {
    let location: string | undefined;
    try {
      const answer = await this.octokit.rest.actions.downloadArtifact({
        ...this.repo,
        artifact_id: artifactId,
        archive_format: 'zip',
        request: { redirect: 'manual' }
      });
      location = (answer.headers as Record<string, string | undefined>).location;
    } catch (error) {
      if ((error as { status?: unknown }).status === 410)
        throw new ArtifactExpiredError(`GitHub answered 410: the artifact ${artifactId} has expired`);
      throw error;
    }
    if (!location) throw new Error(`GitHub gave no download location for the artifact ${artifactId}`);
    const response = await fetch(location, { redirect: 'error' });
    if (!response.ok || !response.body)
      throw new Error(`the artifact's storage answered ${response.status} to the download`);
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await response.body.cancel();
      throw new ArtifactTooLargeError(`the artifact is ${declared} bytes; at most ${maxBytes} are read`);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of response.body) {
      received += (chunk as Uint8Array).length;
      if (received > maxBytes)
        throw new ArtifactTooLargeError(`the artifact is over ${maxBytes} bytes; at most that many are read`);
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  }
}

const KNOWN_ACCOUNT_TYPES = ['Bot', 'User', 'Organization', 'Mannequin'] as const;

/** GitHub's `user.type`, checked as it enters: anything missing or unexpected is `Unknown` (never a bot). */
export function accountType(type: string | undefined): AccountType {
  return KNOWN_ACCOUNT_TYPES.find((known) => known === type) ?? 'Unknown';
}

/**
 * An Octokit bound to one repository: the readers of one API route group (workflow runs, branches)
 * extend it rather than each building its client and `{ owner, repo }`.
 */
export abstract class RepositoryClient {
  protected readonly octokit: Octokit;
  protected readonly repo: { readonly owner: string; readonly repo: string };

  constructor(
    token: string,
    repository: Pick<RepositoryRef, 'owner' | 'name'>,
    baseUrl: string | undefined,
    options: OctokitGitHubApiOptions = {}
  ) {
    this.octokit = resilientOctokit(token, baseUrl, options);
    this.repo = { owner: repository.owner, repo: repository.name };
  }
}
