/**
 * The fake's `POST /graphql`: the pull-request review threads of this repository and the
 * `resolveReviewThread` / `unresolveReviewThread` mutations, answered the way GitHub's GraphQL API
 * does (docs.github.com/graphql/reference/objects#pullrequestreviewthread and
 * .../mutations#resolvereviewthread, read 2026-11-25): HTTP 200 with `data` and, on a failure,
 * `errors` of `{type, path, locations, message}` (a field that failed is null in `data`); an unknown
 * field fails the whole request with no `data`. Connections need `first` (at most 100), as on GitHub.
 * A forbidden resolve answers what a workflow token without the right gets: FORBIDDEN "Resource not
 * accessible by integration" (seen in github-community-projects/contributors#492, 2026-06-01).
 */
import { argValue, GqlSyntaxError, parseOperation, type GqlField } from './graphql-query.js';
import type { GitHubState } from './state.js';
import type { FakeReviewComment, FakeReviewThread, FakeUser } from './types.js';

const MISSING = Symbol('missing field');

type Resolved = null | string | number | boolean | GqlObject | readonly Resolved[];

interface GqlObject {
  readonly typename: string;
  field(name: string, args: Record<string, unknown>): Resolved | typeof MISSING;
}

/** A field error: the field becomes null and the error is listed. */
class FieldError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly extensions?: Record<string, unknown>
  ) {
    super(message);
  }
}

export interface GraphQLError {
  type?: string;
  path?: Array<string | number>;
  locations: Array<{ line: number; column: number }>;
  message: string;
  extensions?: Record<string, unknown>;
}

export interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: GraphQLError[];
}

export interface ReviewGraphOptions {
  /** resolveReviewThread / unresolveReviewThread answer FORBIDDEN, as for a token that may not. */
  forbidResolve: () => boolean;
  actor: FakeUser;
}

function object(
  typename: string,
  fields: Record<string, (args: Record<string, unknown>) => Resolved>
): GqlObject {
  return {
    typename,
    field: (name, args) => {
      const resolve = fields[name];
      return resolve ? resolve(args) : MISSING;
    }
  };
}

function cursor(index: number): string {
  return Buffer.from(`cursor:v2:${index}`).toString('base64');
}

function fromCursor(text: unknown): number {
  if (text === undefined || text === null) return -1;
  const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(String(text), 'base64').toString('utf8'));
  if (!match)
    throw new FieldError(
      'INVALID_CURSOR_ARGUMENTS',
      `\`${String(text)}\` does not appear to be a valid cursor.`
    );
  return Number(match[1]);
}

/** A connection page: `first` is required and at most 100, `after` a cursor from `pageInfo`. */
function connection<T>(
  typename: string,
  field: string,
  items: readonly T[],
  args: Record<string, unknown>,
  render: (item: T) => GqlObject
): GqlObject {
  const first = args.first;
  if (typeof first !== 'number') {
    throw new FieldError(
      'MISSING_PAGINATION_BOUNDARIES',
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${field}\` connection.`
    );
  }
  if (first > 100) {
    throw new FieldError(
      'EXCESSIVE_PAGINATION',
      `Requesting ${first} records on the \`${field}\` connection exceeds the \`first\` limit of 100 records.`
    );
  }
  const start = fromCursor(args.after) + 1;
  const page = items.slice(start, start + first);
  const end = start + page.length - 1;
  return object(typename, {
    totalCount: () => items.length,
    nodes: () => page.map(render),
    pageInfo: () =>
      object('PageInfo', {
        hasNextPage: () => end + 1 < items.length,
        hasPreviousPage: () => start > 0,
        endCursor: () => (page.length > 0 ? cursor(end) : null),
        startCursor: () => (page.length > 0 ? cursor(start) : null)
      })
  });
}

function actor(user: FakeUser): GqlObject {
  return object(user.type === 'Bot' ? 'Bot' : 'User', {
    login: () => user.login,
    url: () => `https://github.com/${user.login}`
  });
}

export class ReviewGraph {
  constructor(
    private readonly state: GitHubState,
    private readonly options: ReviewGraphOptions
  ) {}

  /** Answers one GraphQL request body (`{query, variables}`). */
  answer(body: unknown): GraphQLAnswer {
    const request = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    if (typeof request.query !== 'string')
      return {
        errors: [{ message: 'A query attribute must be specified and must be a string.', locations: [] }]
      };
    const variables =
      typeof request.variables === 'object' && request.variables !== null
        ? (request.variables as Record<string, unknown>)
        : {};
    let operation;
    try {
      operation = parseOperation(request.query);
    } catch (error) {
      if (!(error instanceof GqlSyntaxError)) throw error;
      return { errors: [{ message: error.message, locations: [] }] };
    }
    const root = operation.kind === 'mutation' ? this.mutation() : this.query();
    const errors: GraphQLError[] = [];
    const undefinedFields: GraphQLError[] = [];
    const data = this.select(root, operation.selection, variables, [], errors, undefinedFields);
    if (undefinedFields.length > 0) return { errors: undefinedFields };
    return errors.length > 0 ? { data, errors } : { data };
  }

  private select(
    target: GqlObject,
    fields: readonly GqlField[],
    variables: Record<string, unknown>,
    path: Array<string | number>,
    errors: GraphQLError[],
    undefinedFields: GraphQLError[]
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const here = [...path, field.alias];
      const location = [{ line: field.line, column: field.column }];
      if (field.name === '__typename') {
        out[field.alias] = target.typename;
        continue;
      }
      const args = Object.fromEntries(
        Object.entries(field.args).map(([k, v]) => [k, argValue(v, variables)])
      );
      let value: Resolved | typeof MISSING;
      try {
        value = target.field(field.name, args);
      } catch (error) {
        if (!(error instanceof FieldError)) throw error;
        errors.push({
          type: error.type,
          path: here,
          ...(error.extensions ? { extensions: error.extensions } : {}),
          locations: location,
          message: error.message
        });
        out[field.alias] = null;
        continue;
      }
      if (value === MISSING) {
        undefinedFields.push({
          path: ['query', ...here],
          extensions: { code: 'undefinedField', typeName: target.typename, fieldName: field.name },
          locations: location,
          message: `Field '${field.name}' doesn't exist on type '${target.typename}'`
        });
        continue;
      }
      out[field.alias] = this.value(value, field, variables, here, errors, undefinedFields);
    }
    return out;
  }

  private value(
    value: Resolved,
    field: GqlField,
    variables: Record<string, unknown>,
    path: Array<string | number>,
    errors: GraphQLError[],
    undefinedFields: GraphQLError[]
  ): unknown {
    if (Array.isArray(value))
      return value.map((item: Resolved, i) =>
        this.value(item, field, variables, [...path, i], errors, undefinedFields)
      );
    if (value !== null && typeof value === 'object') {
      const objectValue = value as GqlObject;
      if (!field.selection) {
        undefinedFields.push({
          path: ['query', ...path],
          extensions: {
            code: 'selectionMismatch',
            nodeName: `field '${field.name}'`,
            typeName: objectValue.typename
          },
          locations: [{ line: field.line, column: field.column }],
          message: `Field must have selections (field '${field.name}' returns ${objectValue.typename} but has no selections. Did you mean '${field.name} { ... }'?)`
        });
        return null;
      }
      return this.select(objectValue, field.selection, variables, path, errors, undefinedFields);
    }
    return value;
  }

  private query(): GqlObject {
    const s = this.state;
    return object('Query', {
      repository: (args) => {
        const owner = String(args.owner ?? '');
        const name = String(args.name ?? '');
        if (
          owner.toLowerCase() !== s.repo.owner.login.toLowerCase() ||
          name.toLowerCase() !== s.repo.name.toLowerCase()
        )
          throw new FieldError(
            'NOT_FOUND',
            `Could not resolve to a Repository with the name '${owner}/${name}'.`
          );
        return this.repository();
      }
    });
  }

  private repository(): GqlObject {
    const s = this.state;
    return object('Repository', {
      id: () => Buffer.from(`04:Repository${s.repo.id}`).toString('base64'),
      nameWithOwner: () => s.fullName,
      pullRequest: (args) => {
        const pull = s.pulls.get(Number(args.number));
        if (!pull)
          throw new FieldError(
            'NOT_FOUND',
            `Could not resolve to a PullRequest with the number of ${String(args.number)}.`
          );
        return object('PullRequest', {
          number: () => pull.number,
          headRefOid: () => pull.head.sha,
          reviewThreads: (a) =>
            connection(
              'PullRequestReviewThreadConnection',
              'reviewThreads',
              s.threadsOn(pull.number),
              a,
              (t) => this.thread(t)
            )
        });
      }
    });
  }

  private thread(thread: FakeReviewThread): GqlObject {
    const comments = thread.commentIds
      .map((id) => this.state.reviewComments.get(id))
      .filter((c): c is FakeReviewComment => c !== undefined);
    const top = comments[0];
    return object('PullRequestReviewThread', {
      id: () => thread.id,
      isResolved: () => thread.isResolved,
      isOutdated: () => top?.line === null,
      isCollapsed: () => thread.isResolved,
      path: () => top?.path ?? '',
      line: () => top?.line ?? null,
      originalLine: () => top?.originalLine ?? null,
      startLine: () => top?.startLine ?? null,
      diffSide: () => top?.side ?? 'RIGHT',
      viewerCanResolve: () => !this.options.forbidResolve(),
      resolvedBy: () => (thread.resolvedBy ? actor(thread.resolvedBy) : null),
      comments: (a) =>
        connection('PullRequestReviewCommentConnection', 'comments', comments, a, (c) => this.comment(c))
    });
  }

  private comment(comment: FakeReviewComment): GqlObject {
    return object('PullRequestReviewComment', {
      id: () => `PRRC_${Buffer.from(`comment:${comment.id}`).toString('base64url')}`,
      databaseId: () => comment.id,
      body: () => comment.body,
      path: () => comment.path,
      line: () => comment.line,
      originalLine: () => comment.originalLine,
      outdated: () => comment.line === null,
      createdAt: () => comment.created_at,
      author: () => actor(comment.user)
    });
  }

  private mutation(): GqlObject {
    const setResolved =
      (resolved: boolean) =>
      (args: Record<string, unknown>): Resolved => {
        const input = (args.input ?? {}) as Record<string, unknown>;
        if (this.options.forbidResolve())
          throw new FieldError('FORBIDDEN', 'Resource not accessible by integration', {
            saml_failure: false
          });
        const id = String(input.threadId ?? '');
        const thread = this.state.threads.get(id);
        if (!thread)
          throw new FieldError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
        thread.isResolved = resolved;
        thread.resolvedBy = resolved ? this.options.actor : undefined;
        return object(resolved ? 'ResolveReviewThreadPayload' : 'UnresolveReviewThreadPayload', {
          clientMutationId: () =>
            typeof input.clientMutationId === 'string' ? input.clientMutationId : null,
          thread: () => this.thread(thread)
        });
      };
    return object('Mutation', {
      resolveReviewThread: setResolved(true),
      unresolveReviewThread: setResolved(false)
    });
  }
}
