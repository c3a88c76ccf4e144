/**
 * Tokens with a job's permissions, as GitHub issues a GITHUB_TOKEN per job from its `permissions:`
 * block (https://docs.github.com/en/actions/writing-workflows/choosing-what-your-workflow-does/
 * controlling-permissions-for-github_token, read 2026-11-28): a block given names every scope the
 * token has; a scope it leaves out is `none`; `metadata` is always readable. A request beyond the
 * token's scope gets GitHub's 403 "Resource not accessible by integration".
 */

/** The scopes of a `permissions:` block this fake judges. */
export type PermissionScope = 'actions' | 'checks' | 'contents' | 'issues' | 'pull-requests' | 'metadata';
export type AccessLevel = 'none' | 'read' | 'write';
export type TokenPermissions = Readonly<Partial<Record<PermissionScope, AccessLevel>>>;

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Whether a request with this method may change something (GitHub's content-creating verbs). */
export function isWrite(method: string): boolean {
  return WRITES.has(method.toUpperCase());
}

/** The scope a repository-relative REST path needs (`/issues/1/comments` → issues, `` → metadata). */
export function scopeOf(repoRelativePath: string): PermissionScope {
  const first = repoRelativePath.split('/')[1] ?? '';
  if (first === 'issues') return 'issues';
  if (first === 'pulls') return 'pull-requests';
  if (first === 'actions') return 'actions';
  if (first === 'check-runs' || first === 'check-suites') return 'checks';
  if (['git', 'contents', 'branches', 'commits', 'merges', 'compare'].includes(first)) return 'contents';
  return 'metadata';
}

const LEVELS: Record<AccessLevel, number> = { none: 0, read: 1, write: 2 };

/** The tokens a fake accepts beside its own (which may do anything), each with its permissions. */
export class TokenGrants {
  private readonly grants = new Map<string, TokenPermissions>();

  add(token: string, permissions: TokenPermissions): void {
    this.grants.set(token, permissions);
  }

  has(token: string): boolean {
    return this.grants.has(token);
  }

  /**
   * Why `token` may not make this request (GitHub's 403 message), or undefined when it may. Tokens
   * not granted here are the fake's own: they may do anything.
   */
  refusal(token: string, method: string, repoRelativePath: string): string | undefined {
    const permissions = this.grants.get(token);
    if (permissions === undefined) return undefined;
    const scope = scopeOf(repoRelativePath);
    const needed = isWrite(method) ? 'write' : 'read';
    const held = scope === 'metadata' ? 'read' : (permissions[scope] ?? 'none');
    return LEVELS[held] >= LEVELS[needed] ? undefined : 'Resource not accessible by integration';
  }
}
