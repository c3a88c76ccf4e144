/**
 * The runtime token and environment @actions/artifact needs. The client decodes the token (a JWT)
 * to find its `Actions.Results:<runBackendId>:<jobBackendId>` scope and never verifies it, so an
 * unsigned `alg: none` token does.
 */

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A hand-made unsigned JWT whose `scp` claim holds `Actions.Results:<run>:<job>`. */
export function runtimeToken(runBackendId: string, jobBackendId: string, lifetimeSeconds = 6 * 3600): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { typ: 'JWT', alg: 'none' };
  const payload = {
    nameid: 'dddddddd-dddd-dddd-dddd-dddddddddddd',
    scp: `Actions.GenericRead:00000000-0000-0000-0000-000000000000 Actions.Results:${runBackendId}:${jobBackendId}`,
    iss: 'vstoken.actions.githubusercontent.com',
    aud: 'vso:00000000-0000-0000-0000-000000000000',
    nbf: now - 60,
    iat: now - 60,
    exp: now + lifetimeSeconds
  };
  return `${base64url(header)}.${base64url(payload)}.`;
}

export interface TokenScope {
  runBackendId: string;
  jobBackendId: string;
  /** The whole `scp` claim. */
  scp: string;
  /** Seconds since the epoch, when the token has `exp`. */
  exp?: number;
}

/** The Actions.Results scope of a runtime token, or undefined when it is not a JWT with one. */
export function decodeRuntimeToken(token: string): TokenScope | undefined {
  const part = token.split('.')[1];
  if (part === undefined) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof claims !== 'object' || claims === null) return undefined;
  const { scp, exp } = claims as { scp?: unknown; exp?: unknown };
  if (typeof scp !== 'string') return undefined;
  for (const scope of scp.split(' ')) {
    const parts = scope.split(':');
    if (parts[0] !== 'Actions.Results' || parts.length !== 3 || !parts[1] || !parts[2]) continue;
    return {
      runBackendId: parts[1],
      jobBackendId: parts[2],
      scp,
      ...(typeof exp === 'number' ? { exp } : {})
    };
  }
  return undefined;
}

/**
 * The environment a spawned action needs to upload to the fake. GITHUB_SERVER_URL is set to
 * https://github.com because the client refuses any other host (127.0.0.1 included) as GHES.
 */
export function artifactEnv(fake: { url: string; runtimeToken: string }): {
  ACTIONS_RUNTIME_TOKEN: string;
  ACTIONS_RESULTS_URL: string;
  GITHUB_SERVER_URL: string;
} {
  return {
    ACTIONS_RUNTIME_TOKEN: fake.runtimeToken,
    ACTIONS_RESULTS_URL: `${fake.url}/`,
    GITHUB_SERVER_URL: 'https://github.com'
  };
}
