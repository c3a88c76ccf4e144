/**
 * Repository-wide lists of the fake GitHub, what an audit of many runs reads:
 * - "List issue comments for a repository", GET /repos/{owner}/{repo}/issues/comments, with `sort`
 *   (created | updated), `direction` (asc | desc) and `since` (updated at or after)
 *   (https://docs.github.com/en/rest/issues/comments#list-issue-comments-for-a-repository, read 2026-11-28);
 * - "List artifacts for a repository", GET /repos/{owner}/{repo}/actions/artifacts, optionally `name`,
 *   answering `{ total_count, artifacts }` with expired artifacts included
 *   (https://docs.github.com/en/rest/actions/artifacts#list-artifacts-for-a-repository, read 2026-11-28).
 * Both page through the server's `link` pagination. Registered by server.ts's route list.
 */
import type { FakeComment } from './types.js';

export interface ListAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface ListCtx {
  readonly query: URLSearchParams;
}

/** What the routes need of the server: its comments, how it renders and pages them, and the artifacts. */
export interface RepositoryListSource {
  comments(): Iterable<FakeComment>;
  renderComment(comment: FakeComment): unknown;
  page(ctx: ListCtx, items: unknown[]): ListAnswer;
  /** Every artifact the server serves, rendered, oldest first. */
  artifacts(name: string | null): unknown[];
}

export interface RepositoryListRoute {
  readonly method: 'GET';
  readonly pattern: RegExp;
  readonly handler: (ctx: ListCtx, params: string[]) => ListAnswer;
}

export function repositoryListRoutes(source: RepositoryListSource): RepositoryListRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/issues\/comments$/,
      handler: (ctx) => {
        const sort = ctx.query.get('sort') === 'updated' ? 'updated_at' : 'created_at';
        const descending = ctx.query.get('direction') === 'desc';
        const since = ctx.query.get('since');
        const comments = [...source.comments()]
          .filter((comment) => since === null || comment.updated_at >= since)
          .sort((a, b) => a[sort].localeCompare(b[sort]) || a.id - b.id);
        if (descending) comments.reverse();
        return source.page(
          ctx,
          comments.map((comment) => source.renderComment(comment))
        );
      }
    },
    {
      method: 'GET',
      pattern: /^\/actions\/artifacts$/,
      handler: (ctx) => {
        const artifacts = source.artifacts(ctx.query.get('name'));
        const page = source.page(ctx, artifacts);
        return { ...page, body: { total_count: artifacts.length, artifacts: page.body } };
      }
    }
  ];
}
