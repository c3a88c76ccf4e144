/**
 * The issue routes a fan-out's land role needs of the fake GitHub, to open and keep a tracking issue:
 * - "List repository issues", GET /repos/{owner}/{repo}/issues, with `state` (open | closed | all,
 *   default open), `sort` (created | updated) and `direction` (asc | desc, default desc); pull requests
 *   are listed too, as on GitHub (they carry `pull_request`);
 * - "Create an issue", POST /repos/{owner}/{repo}/issues (`title` required, `body`), 201;
 * - "Update an issue", PATCH /repos/{owner}/{repo}/issues/{issue_number} (`title`, `body`, `state`).
 * (https://docs.github.com/en/rest/issues/issues, read 2026-11-28.) Bodies over 65,536 characters
 * are refused with GitHub's 422, titles over 256 too. Registered by server.ts's route list.
 */
import type { GitHubState } from './state.js';
import type { FakeIssue, FakeUser } from './types.js';

const DOC = 'https://docs.github.com/rest/issues/issues';

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface IssueCtx {
  readonly query: URLSearchParams;
  readonly body: unknown;
}

export interface IssueRouteSource {
  readonly state: GitHubState;
  readonly actor: FakeUser;
  renderIssue(issue: FakeIssue): unknown;
  page(ctx: IssueCtx, items: unknown[]): Answer;
  readonly maxBodyChars: number;
  readonly maxTitleChars: number;
}

export interface IssueRoute {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly pattern: RegExp;
  readonly handler: (ctx: IssueCtx, params: string[]) => Answer;
}

function failed(status: number, message: string, errors?: unknown[]): Answer {
  return {
    status,
    body: { message, ...(errors ? { errors } : {}), documentation_url: DOC, status: String(status) }
  };
}

function tooLong(source: IssueRouteSource, body: Record<string, unknown>): Answer | undefined {
  if (typeof body.body === 'string' && [...body.body].length > source.maxBodyChars)
    return failed(422, 'Validation Failed', [
      {
        resource: 'Issue',
        code: 'custom',
        field: 'body',
        message: `body is too long (maximum is ${source.maxBodyChars} characters)`
      }
    ]);
  if (typeof body.title === 'string' && [...body.title].length > source.maxTitleChars)
    return failed(422, 'Validation Failed', [
      {
        resource: 'Issue',
        code: 'custom',
        field: 'title',
        message: `title is too long (maximum is ${source.maxTitleChars} characters)`
      }
    ]);
  return undefined;
}

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

export function issueRoutes(source: IssueRouteSource): IssueRoute[] {
  const { state } = source;
  return [
    {
      method: 'GET',
      pattern: /^\/issues$/,
      handler: (ctx) => {
        const wanted = ctx.query.get('state') ?? 'open';
        const sort = ctx.query.get('sort') === 'updated' ? 'updated_at' : 'created_at';
        const issues = [...state.issues.values()]
          .filter((issue) => wanted === 'all' || issue.state === wanted)
          .sort((a, b) => a[sort].localeCompare(b[sort]) || a.number - b.number);
        if (ctx.query.get('direction') !== 'asc') issues.reverse();
        return source.page(
          ctx,
          issues.map((issue) => source.renderIssue(issue))
        );
      }
    },
    {
      method: 'POST',
      pattern: /^\/issues$/,
      handler: (ctx) => {
        const body = asObject(ctx.body);
        if (typeof body.title !== 'string' || body.title.trim() === '')
          return failed(422, 'Validation Failed', [
            { resource: 'Issue', code: 'missing_field', field: 'title' }
          ]);
        const refused = tooLong(source, body);
        if (refused) return refused;
        const issue = state.addIssue({
          number: state.nextNumber(),
          title: body.title,
          body: typeof body.body === 'string' ? body.body : null,
          user: source.actor
        });
        return { status: 201, body: source.renderIssue(issue) };
      }
    },
    {
      method: 'PATCH',
      pattern: /^\/issues\/(\d+)$/,
      handler: (ctx, [number]) => {
        const issue = state.issues.get(Number(number));
        if (!issue) return failed(404, 'Not Found');
        const body = asObject(ctx.body);
        const refused = tooLong(source, body);
        if (refused) return refused;
        if (typeof body.title === 'string') issue.title = body.title;
        if (typeof body.body === 'string' || body.body === null) issue.body = body.body;
        if (body.state === 'open' || body.state === 'closed') issue.state = body.state;
        issue.updated_at = state.now();
        return { status: 200, body: source.renderIssue(issue) };
      }
    }
  ];
}
