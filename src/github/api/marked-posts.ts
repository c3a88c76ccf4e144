import type { AccountRef } from '../events/bot-author.js';
import { accountType, RepositoryClient } from './octokit-api.js';

/** An issue or an issue comment: what a hidden marker is looked for in, and who wrote it. */
export interface Post {
  /** The comment's id, or the issue's number. */
  readonly id: number;
  readonly url: string;
  readonly body: string;
  readonly author: AccountRef;
}

/**
 * Posts that keep a running account, found again by a hidden marker and edited: a comment on a given
 * issue, or an issue of their own (a fan-out's roll-up, src/fanout/rollup-target.ts).
 */
export interface MarkedPosts {
  /** Every comment of the issue, oldest first. */
  comments(issueNumber: number): Promise<Post[]>;
  createComment(issueNumber: number, body: string): Promise<Post>;
  updateComment(commentId: number, body: string): Promise<Post>;
  /** The repository's issues (not pull requests), open or closed, newest first, from at most `maxPages` pages of 100. */
  recentIssues(maxPages: number): Promise<Post[]>;
  createIssue(title: string, body: string): Promise<Post>;
  updateIssue(issueNumber: number, body: string): Promise<Post>;
}

type User = { login: string; type?: string; id: number } | null | undefined;

function authorOf(user: User): AccountRef {
  return {
    login: user?.login ?? 'ghost',
    type: accountType(user?.type),
    id: user && Number.isSafeInteger(user.id) ? user.id : undefined
  };
}

/**
 * Over the REST API (https://docs.github.com/en/rest/issues/comments and
 * https://docs.github.com/en/rest/issues/issues, read 2026-11-28): "List issue comments", "Create an
 * issue comment", "Update an issue comment", "List repository issues" (`state=all`, newest first; its
 * list holds pull requests too, told apart by `pull_request`), "Create an issue", "Update an issue".
 * The issues are listed by creation rather than filtered with `creator`, since the bot's login as
 * that filter takes it is not documented; the author is checked on each post instead.
 */
export class OctokitMarkedPosts extends RepositoryClient implements MarkedPosts {
  async comments(issueNumber: number): Promise<Post[]> {
    const comments = await this.octokit.paginate(this.octokit.rest.issues.listComments, {
      ...this.repo,
      issue_number: issueNumber,
      per_page: 100
    });
    return comments.map((comment) => ({
      id: comment.id,
      url: comment.html_url,
      body: comment.body ?? '',
      author: authorOf(comment.user)
    }));
  }

  async createComment(issueNumber: number, body: string): Promise<Post> {
    const { data } = await this.octokit.rest.issues.createComment({
      ...this.repo,
      issue_number: issueNumber,
      body
    });
    return { id: data.id, url: data.html_url, body: data.body ?? '', author: authorOf(data.user) };
  }

  async updateComment(commentId: number, body: string): Promise<Post> {
    const { data } = await this.octokit.rest.issues.updateComment({
      ...this.repo,
      comment_id: commentId,
      body
    });
    return { id: data.id, url: data.html_url, body: data.body ?? '', author: authorOf(data.user) };
  }

  async recentIssues(maxPages: number): Promise<Post[]> {
    const issues: Post[] = [];
    let pages = 0;
    for await (const page of this.octokit.paginate.iterator(this.octokit.rest.issues.listForRepo, {
      ...this.repo,
      state: 'all',
      sort: 'created',
      direction: 'desc',
      per_page: 100
    })) {
      for (const issue of page.data)
        if (!issue.pull_request)
          issues.push({
            id: issue.number,
            url: issue.html_url,
            body: issue.body ?? '',
            author: authorOf(issue.user)
          });
      if (++pages >= maxPages) break;
    }
    return issues;
  }

  async createIssue(title: string, body: string): Promise<Post> {
    const { data } = await this.octokit.rest.issues.create({ ...this.repo, title, body });
    return { id: data.number, url: data.html_url, body: data.body ?? '', author: authorOf(data.user) };
  }

  async updateIssue(issueNumber: number, body: string): Promise<Post> {
    const { data } = await this.octokit.rest.issues.update({ ...this.repo, issue_number: issueNumber, body });
    return { id: data.number, url: data.html_url, body: data.body ?? '', author: authorOf(data.user) };
  }
}
