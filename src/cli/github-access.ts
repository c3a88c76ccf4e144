import type { OctokitAuditReads } from '../github/api/audit-reads.js';
import { GitHubAccessError } from '../github/api/github-access-error.js';
import { gitHubClients } from '../github/api/clients.js';
import {
  GitHubTargetError,
  githubEndpoint,
  githubToken,
  type GitHubEndpoint,
  type RepositoryName
} from '../github/api/github-location.js';
import type { CliIo } from './command.js';
import { CliError, EXIT, fileError, usageError } from './exit-codes.js';

/**
 * An audit waits out rate limits longer than a workflow step would: it is a person's command that
 * may read thousands of runs, so it slows down (saying so on stderr) rather than giving up. A wait
 * over 15 minutes, or an 11th refusal in a row, still fails, in words.
 */
const AUDIT_RESILIENCE = { rateLimitRetries: 10, maxRateLimitWaitSeconds: 900 } as const;

/** The GitHub host, API and token the CLI reads with, from the environment; bad ones are usage errors. */
export function cliEndpoint(env: NodeJS.ProcessEnv): GitHubEndpoint {
  return asUsage(() => githubEndpoint(env));
}

/** GitHub reads for one repository, with rate-limit waits reported on stderr. */
export function cliAuditReads(
  repository: RepositoryName,
  endpoint: GitHubEndpoint,
  io: Pick<CliIo, 'stderr' | 'env'>
): OctokitAuditReads {
  const token = asUsage(() => githubToken(io.env, endpoint));
  return gitHubClients({
    token,
    repository,
    apiUrl: endpoint.apiUrl,
    options: {
      logger: { warning: (message) => io.stderr(message) },
      resilience: AUDIT_RESILIENCE,
      env: io.env
    }
  }).auditReads();
}

/** A bad URL, name or missing token: usage (exit 2), without a stack trace. */
export function asUsage<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof GitHubTargetError) throw usageError(error.message);
    throw error;
  }
}

/**
 * What GitHub refused, as a CliError: a bad token, one without the permission, a repository it
 * cannot see, a rate limit never lifted, GitHub unreachable: nothing could be read (exit 3).
 */
export function githubFailure(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof GitHubAccessError) return fileError(error.message);
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  if (typeof status === 'number' || (error instanceof Error && error.name === 'GitHubUnavailableError'))
    return new CliError(`GitHub could not be read: ${message}`, EXIT.fileProblem);
  if (error instanceof TypeError && /fetch failed/i.test(message ?? ''))
    return new CliError(
      `GitHub could not be reached (${message}). Check the network, and GITHUB_API_URL if you set it.`,
      EXIT.fileProblem
    );
  throw error;
}
