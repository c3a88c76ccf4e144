import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import type { RepositoryRef } from './event.js';
import type {
  ChangedFile,
  GitHubApi,
  PullRequestDetails,
  ReactionTarget,
  ThreadComment
} from './github-api.js';
import {
  DEFAULT_RESILIENCE,
  RESILIENCE_PLUGINS,
  explainFinalFailure,
  resilienceOptions,
  type GitHubApiLogger,
  type ResilienceSettings
} from './octokit-resilience.js';

type Octokit = ReturnType<typeof getOctokit>;

export interface OctokitGitHubApiOptions {
  /** Rate-limit waits and give-ups are reported here. Default: the job log's warnings. */
  readonly logger?: GitHubApiLogger;
  /** Tests shorten the waits; production keeps the defaults. */
  readonly resilience?: Partial<ResilienceSettings>;
}

const STANDARD_ROLES = new Set(['admin', 'maintain', 'write', 'triage', 'read']);

/**
 * GitHubApi over Octokit. The base URL comes from GITHUB_API_URL (GHES, and our fakes). Octokit's
 * retry and throttling plugins retry 5xx answers and network errors with backoff, and wait out
 * primary and secondary rate limits as GitHub's headers ask, a bounded number of times.
 */
export class OctokitGitHubApi implements GitHubApi {
  private readonly octokit: Octokit;
  private readonly repo: { owner: string; repo: string };

  constructor(
    token: string,
    readonly repository: Pick<RepositoryRef, 'owner' | 'name'>,
    baseUrl: string | undefined,
    options: OctokitGitHubApiOptions = {}
  ) {
    const logger = options.logger ?? { warning: (message: string) => core.warning(message) };
    const settings = { ...DEFAULT_RESILIENCE, ...options.resilience };
    this.octokit = getOctokit(
      token,
      { ...(baseUrl ? { baseUrl } : {}), ...resilienceOptions(logger, settings) },
      ...RESILIENCE_PLUGINS
    );
    // Outermost, so it sees only what the plugins gave up on.
    this.octokit.hook.wrap('request', async (request, requestOptions) => {
      try {
        return await request(requestOptions);
      } catch (error) {
        throw explainFinalFailure(error, requestOptions, settings);
      }
    });
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
      userType: comment.user?.type ?? 'User',
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
      author: data.user.login
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
}
