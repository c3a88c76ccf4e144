import { accountType, RepositoryClient } from './octokit-api.js';
import type { PullRequestAuthor } from './github-api.js';

/** A pull request whose head is one of this repository's branches, as landing needs to know it. */
export interface HeadPullRequest {
  readonly number: number;
  readonly url: string;
  readonly title: string;
  readonly body: string;
  readonly baseRef: string;
  readonly state: 'open' | 'closed';
  readonly merged: boolean;
  readonly author: PullRequestAuthor;
}

/** The pull requests of a branch, and opening or editing one (a fan-out's land role). */
export interface HeadPullRequests {
  /** Every pull request, open or closed, from `branch` of this repository (not a fork's of the same name), newest first. */
  forHead(branch: string): Promise<HeadPullRequest[]>;
  create(request: {
    title: string;
    head: string;
    base: string;
    body: string;
    draft: boolean;
  }): Promise<{ number: number; url: string }>;
  update(number: number, update: { title: string; body: string }): Promise<{ number: number; url: string }>;
}

/**
 * "List pull requests", GET /repos/{owner}/{repo}/pulls with `head` as `user:ref-name` and `state=all`
 * (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests, read 2026-11-28): the head filter
 * takes the owner of the head repository, so a fork's branch of the same name is not listed; a list
 * item says whether it was merged by `merged_at`. "Create a pull request" and "Update a pull request"
 * (same page) open one and change its title and body.
 */
export class OctokitHeadPullRequests extends RepositoryClient implements HeadPullRequests {
  async forHead(branch: string): Promise<HeadPullRequest[]> {
    const pulls = await this.octokit.paginate(this.octokit.rest.pulls.list, {
      ...this.repo,
      head: `${this.repo.owner}:${branch}`,
      state: 'all',
      sort: 'created',
      direction: 'desc',
      per_page: 100
    });
    const fullName = `${this.repo.owner}/${this.repo.repo}`.toLowerCase();
    return pulls
      .filter((pull) => pull.head.ref === branch && pull.head.repo?.full_name.toLowerCase() === fullName)
      .map((pull) => ({
        number: pull.number,
        url: pull.html_url,
        title: pull.title,
        body: pull.body ?? '',
        baseRef: pull.base.ref,
        state: pull.state === 'open' ? 'open' : 'closed',
        merged: pull.merged_at !== null && pull.merged_at !== undefined,
        author: {
          login: pull.user?.login ?? 'ghost',
          type: accountType(pull.user?.type),
          id: pull.user && Number.isSafeInteger(pull.user.id) ? pull.user.id : undefined
        }
      }));
  }

  async create(request: {
    title: string;
    head: string;
    base: string;
    body: string;
    draft: boolean;
  }): Promise<{ number: number; url: string }> {
    const { data } = await this.octokit.rest.pulls.create({ ...this.repo, ...request });
    return { number: data.number, url: data.html_url };
  }

  async update(
    number: number,
    update: { title: string; body: string }
  ): Promise<{ number: number; url: string }> {
    const { data } = await this.octokit.rest.pulls.update({ ...this.repo, pull_number: number, ...update });
    return { number: data.number, url: data.html_url };
  }
}
