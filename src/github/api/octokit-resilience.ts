import { retry } from '@octokit/plugin-retry';
import { throttling, type ThrottlingOptions } from '@octokit/plugin-throttling';
import type { RetryOptions } from '@octokit/plugin-retry';
import Bottleneck from 'bottleneck';
import { isWriteMethod } from './write-method.js';

/** Where the Octokit boundary reports waits and give-ups (the action passes `core.warning`). */
export interface GitHubApiLogger {
  warning(message: string): void;
}

/** How hard the GitHub client tries before it gives up. Tests shrink the clock, not the rules. */
export interface ResilienceSettings {
  /** Retries of a 5xx answer or a network error (backoff 1, 4, 9… units). */
  readonly serverErrorRetries: number;
  /** Retries after a primary or secondary rate limit, each after the wait GitHub asks for. */
  readonly rateLimitRetries: number;
  /** A rate-limit wait longer than this is not waited out: the call fails instead. */
  readonly maxRateLimitWaitSeconds: number;
  /** Milliseconds per "second" of backoff or of `retry-after`; 1000 in production. */
  readonly millisecondsPerSecond: number;
}

export const DEFAULT_RESILIENCE: ResilienceSettings = {
  serverErrorRetries: 3,
  rateLimitRetries: 2,
  maxRateLimitWaitSeconds: 300,
  millisecondsPerSecond: 1000
};

/**
 * Statuses the retry plugin leaves alone: every 4xx. A retry cannot fix a client error, and 403/429
 * rate limits belong to the throttling plugin (it tells a rate limit from a refusal by its headers
 * and body). The plugin's own list leaves 405, 409, 429 and others to be retried.
 */
const NOT_RETRIED = Array.from({ length: 100 }, (_, offset) => 400 + offset);

/** The official plugins, in order: retry wraps the request, throttling wraps retry. */
export const RESILIENCE_PLUGINS = [retry, throttling];

/**
 * Write, notification and search queues that keep the plugin's one-at-a-time order but not its
 * pauses. Made once: a Bottleneck group runs a cleanup timer for its lifetime.
 */
let unspacedQueues: Pick<ThrottlingOptions, 'write' | 'notifications' | 'search'> | undefined;
function unspacedWriteQueues(): Pick<ThrottlingOptions, 'write' | 'notifications' | 'search'> {
  unspacedQueues ??= {
    write: new Bottleneck.Group({ maxConcurrent: 1 }),
    notifications: new Bottleneck.Group({ maxConcurrent: 1 }),
    search: new Bottleneck.Group({ maxConcurrent: 1 })
  };
  return unspacedQueues;
}

type LimitKind = 'primary' | 'secondary';

interface LimitedRequest {
  method: string;
  url: string;
}

/**
 * The `retry` and `throttle` Octokit options that bound both plugins and report through `logger`;
 * `spaceWrites` false (see spacesWrites) keeps the rate-limit handling and drops only the spacing.
 * `writesPaced`: a WritePacer (paced-writes.ts) waits out the rate limits of writes, so the plugin
 * hands them on at once rather than waiting a second time.
 */
export function resilienceOptions(
  logger: GitHubApiLogger,
  settings: ResilienceSettings,
  spaceWrites = true,
  { writesPaced = false }: { readonly writesPaced?: boolean } = {}
): { retry: RetryOptions; throttle: ThrottlingOptions } {
  const onLimit =
    (kind: LimitKind) =>
    (retryAfter: number, request: LimitedRequest, _octokit: unknown, retryCount: number): boolean => {
      if (writesPaced && isWriteMethod(request.method)) return false;
      const what = `${request.method} ${request.url}`;
      const limit = kind === 'primary' ? 'rate limit' : 'secondary rate limit';
      if (retryCount >= settings.rateLimitRetries) {
        logger.warning(
          `GitHub's ${limit} refused ${what} again after ${retryCount} waits; giving up. ` +
            `Other workflows may be using the same token heavily; re-run the job later.`
        );
        return false;
      }
      if (retryAfter > settings.maxRateLimitWaitSeconds) {
        logger.warning(
          `GitHub's ${limit} refused ${what} and asks to wait ${retryAfter} s, longer than the ` +
            `${settings.maxRateLimitWaitSeconds} s this action waits; giving up. Re-run the job after the limit resets.`
        );
        return false;
      }
      logger.warning(
        `GitHub's ${limit} refused ${what}; waiting ${retryAfter} s as GitHub asks, then retrying ` +
          `(${retryCount + 1} of ${settings.rateLimitRetries}).`
      );
      return true;
    };
  return {
    retry: {
      retries: settings.serverErrorRetries,
      doNotRetry: NOT_RETRIED,
      retryAfterBaseValue: settings.millisecondsPerSecond
    },
    throttle: {
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
      retryAfterBaseValue: settings.millisecondsPerSecond,
      ...(spaceWrites ? {} : unspacedWriteQueues())
    }
  };
}

/** A GitHub call that still failed on the server side (5xx or no answer) after every retry. */
export class GitHubUnavailableError extends Error {
  override readonly name = 'GitHubUnavailableError';
  constructor(
    message: string,
    readonly status: number,
    options: { cause: unknown }
  ) {
    super(message, options);
  }
}

interface FailedRequest {
  status: number;
  message: string;
  answered: boolean;
}

function failedRequest(error: unknown): FailedRequest | undefined {
  if (!(error instanceof Error) || !('status' in error) || typeof error.status !== 'number') return undefined;
  const answered = 'response' in error && error.response !== undefined;
  return { status: error.status, message: error.message, answered };
}

/**
 * The error to throw once the retries are spent: a 5xx or a network failure becomes one paragraph
 * that says what was tried and what to do; anything else (a 404, a 422, a rate limit) is unchanged,
 * since callers and GitHub's own message already say what is wrong.
 */
export function explainFinalFailure(
  error: unknown,
  request: LimitedRequest,
  settings: ResilienceSettings
): unknown {
  const failed = failedRequest(error);
  if (failed === undefined || failed.status < 500) return error;
  const attempts = settings.serverErrorRetries + 1;
  const what = `${request.method} ${request.url}`;
  const message = failed.answered
    ? `GitHub answered ${failed.status} (${failed.message}) to ${what} on all ${attempts} attempts, ` +
      `retried with growing pauses. GitHub may be having an incident (https://www.githubstatus.com); ` +
      `re-run the job once it has passed.`
    : `Could not reach GitHub for ${what} in ${attempts} attempts (${failed.message}). Check that ` +
      `GITHUB_API_URL points at a reachable GitHub API and that the runner has network access, then re-run the job.`;
  return new GitHubUnavailableError(message, failed.status, { cause: error });
}
