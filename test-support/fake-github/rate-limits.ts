import type { FaultRule } from './types.js';

const RATE_LIMIT_DOCS = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api';

type Target = Pick<FaultRule, 'method' | 'path' | 'times'>;

/**
 * GitHub's answer when the token's hourly quota is spent: 403, `x-ratelimit-remaining: 0`, and
 * `x-ratelimit-reset` (epoch seconds) saying when it refills.
 */
export function primaryRateLimit(target: Target, resetAt: Date): FaultRule {
  return {
    ...target,
    status: 403,
    body: {
      message: 'API rate limit exceeded for installation ID 4242.',
      documentation_url: `${RATE_LIMIT_DOCS}#about-the-primary-rate-limit`
    },
    headers: {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '1000',
      'x-ratelimit-reset': String(Math.ceil(resetAt.getTime() / 1000))
    }
  };
}

/** GitHub's answer to too many requests too fast: 403 with a `retry-after` in seconds. */
export function secondaryRateLimit(target: Target, retryAfterSeconds: number): FaultRule {
  return {
    ...target,
    status: 403,
    body: {
      message:
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:1111:2222:3333.',
      documentation_url: `${RATE_LIMIT_DOCS}#about-secondary-rate-limits`
    },
    headers: { 'retry-after': String(retryAfterSeconds) }
  };
}

/** A secondary limit on writes that come too fast (see FakeGitHubOptions.secondaryLimitOnFastWrites). */
export interface FastWriteLimit {
  /** A write (POST, PATCH, PUT, DELETE) that starts less than this after the last accepted one is refused. */
  readonly minGapMs: number;
  /** The `retry-after` the refusal carries. */
  readonly retryAfterSeconds: number;
  /**
   * At most this many accepted writes in any 60 s (GitHub: "no more than 80 content-generating
   * requests per minute", docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api,
   * read 2026-11-28); the refusal's `retry-after` is when the oldest leaves the minute. Default: no limit.
   */
  readonly perMinute?: number;
}

/**
 * GitHub's secondary limit on writes in a burst, as the fake applies it: a write sooner than
 * `minGapMs` after the last accepted write (by the fake's clock, which a test can make virtual) gets
 * the 403 `secondaryRateLimit` builds; a refused write does not move the mark, so a client that waits
 * the `retry-after` it was given gets through.
 */
export class FastWriteGuard {
  private lastAcceptedAt = -Infinity;
  /** When the writes of the last minute were accepted (only with `perMinute`). */
  private readonly lastMinute: number[] = [];

  constructor(
    private readonly limit: FastWriteLimit,
    private readonly clock: () => number
  ) {}

  /** The refusal for this request, or undefined when it may go on (then it is the new mark). */
  refuse(method: string, path: string): FaultRule | undefined {
    if (['GET', 'HEAD', 'OPTIONS'].includes(method) || path === '/graphql') return undefined;
    const now = this.clock();
    if (now - this.lastAcceptedAt < this.limit.minGapMs)
      return secondaryRateLimit({ path: /./ }, this.limit.retryAfterSeconds);
    if (this.limit.perMinute !== undefined) {
      while (this.lastMinute.length > 0 && this.lastMinute[0]! <= now - 60_000) this.lastMinute.shift();
      if (this.lastMinute.length >= this.limit.perMinute)
        return secondaryRateLimit({ path: /./ }, Math.ceil((this.lastMinute[0]! + 60_000 - now) / 1000));
      this.lastMinute.push(now);
    }
    this.lastAcceptedAt = now;
    return undefined;
  }
}
