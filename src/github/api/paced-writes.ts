import { DEFAULT_RESILIENCE, type GitHubApiLogger } from './octokit-resilience.js';

/**
 * GitHub's numbers for writes, from "Rate limits for the REST API"
 * (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api, "About secondary
 * rate limits", read 2026-11-28): "no more than 80 content-generating requests per minute and no more
 * than 500 content-generating requests per hour"; and from "Best practices for using the REST API"
 * (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api, "Pause
 * between mutative requests", read 2026-11-28): "wait at least one second between each request" for
 * POST, PATCH, PUT and DELETE, made serially. The pacer stays below each: a land run of hundreds of
 * shards otherwise trips the limit that locks the token's writes (the "submitted too quickly" error).
 */
export interface WritePaceLimits {
  /** The least time between the starts of two writes. */
  readonly minGapMs: number;
  /** At most this many writes start in any 60 s. */
  readonly perMinute: number;
  /** At most this many writes start in any hour. */
  readonly perHour: number;
}

export const GITHUB_WRITE_LIMITS: WritePaceLimits = { minGapMs: 1000, perMinute: 79, perHour: 499 };

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Time for the pacer: tests give a virtual one, so nothing waits for real. */
export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const SYSTEM_CLOCK: PacerClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms))
};

export interface WritePacerOptions {
  readonly clock?: PacerClock;
  readonly limits?: WritePaceLimits;
  /** Waits the pacer takes after a rate-limit answer before it gives up (default: the client's rateLimitRetries). */
  readonly rateLimitRetries?: number;
  /** A wait GitHub asks for that is longer than this is not waited out: the write fails instead. */
  readonly maxRateLimitWaitMs?: number;
  readonly logger?: GitHubApiLogger;
}

/** A write GitHub's rate limit kept refusing, or asked to wait for longer than the pacer waits. */
export class WriteRateLimitError extends Error {
  override readonly name = 'WriteRateLimitError';
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
  }
}

/**
 * Runs GitHub writes one at a time, spaced and counted so they stay under GitHub's write limits, and
 * waits out a rate-limit answer as GitHub asks (see rateLimitWait) before trying the same write again,
 * a bounded number of times. Every request that starts counts, retries included. One pacer serves every
 * client of a run (REST writes through resilientOctokit's hook, git pushes through pace()), since the limits
 * are the token's, not a client's.
 */
export class WritePacer {
  private readonly clock: PacerClock;
  private readonly limits: WritePaceLimits;
  private readonly retries: number;
  private readonly maxWaitMs: number;
  /** Start times of the counted writes of the last hour, oldest first. */
  private readonly starts: number[] = [];
  /** When the last write of any kind started: the gap counts from it. */
  private lastStart = -Infinity;
  /**
   * When the last write ended. The gap is kept from there: kept from the start, a write sent 1000 ms
   * after the one before can arrive 999 ms after it (a timer that fires a little early, the earlier
   * request slower on the wire), and the simulated runner's fake GitHub refused such writes.
   */
  private lastEnd = -Infinity;
  /** No write starts before this (a rate-limit answer's wait). */
  private holdUntil = -Infinity;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: WritePacerOptions = {}) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.limits = options.limits ?? GITHUB_WRITE_LIMITS;
    this.retries = options.rateLimitRetries ?? DEFAULT_RESILIENCE.rateLimitRetries;
    this.maxWaitMs = options.maxRateLimitWaitMs ?? DEFAULT_RESILIENCE.maxRateLimitWaitSeconds * 1000;
  }

  /**
   * Runs `write` (described by `what` in messages) once the pace allows, after the writes queued
   * before it. `counted: false` is for a write that is no API request (a git push): it keeps the gap
   * and any hold, but is not one of GitHub's content-generating requests per minute and hour.
   */
  pace<T>(
    what: string,
    write: () => Promise<T>,
    { counted = true }: { readonly counted?: boolean } = {}
  ): Promise<T> {
    const run = this.queue.then(() => this.attempt(what, write, counted));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** How many writes started in the last hour (for the log and the tests). */
  get recentWrites(): number {
    this.forget(this.clock.now());
    return this.starts.length;
  }

  private async attempt<T>(what: string, write: () => Promise<T>, counted: boolean): Promise<T> {
    for (let waits = 0; ; waits++) {
      await this.waitForSlot(counted);
      this.lastStart = this.clock.now();
      if (counted) this.starts.push(this.lastStart);
      try {
        const result = await write();
        this.lastEnd = this.clock.now();
        return result;
      } catch (error) {
        this.lastEnd = this.clock.now();
        const wait = rateLimitWait(error, this.clock.now(), waits);
        if (wait === undefined) throw error;
        const seconds = Math.ceil(wait.ms / 1000);
        if (waits >= this.retries)
          throw new WriteRateLimitError(
            `GitHub's ${wait.limit} refused ${what} again after ${waits} wait(s); giving up. Other workflows ` +
              `may be writing with the same token: re-run this job after ${seconds} s or later.`,
            { cause: error }
          );
        if (wait.ms > this.maxWaitMs)
          throw new WriteRateLimitError(
            `GitHub's ${wait.limit} refused ${what} and asks to wait ${seconds} s, longer than the ` +
              `${Math.round(this.maxWaitMs / 1000)} s this action waits; giving up. Re-run this job after that time.`,
            { cause: error }
          );
        this.options.logger?.warning(
          `GitHub's ${wait.limit} refused ${what}; waiting ${seconds} s as GitHub asks, then trying again ` +
            `(${waits + 1} of ${this.retries}).`
        );
        this.holdUntil = Math.max(this.holdUntil, this.clock.now() + wait.ms);
      }
    }
  }

  /** Sleeps until a write may start: after the gap and the hold, and (counted) with room in the minute and the hour. */
  private async waitForSlot(counted: boolean): Promise<void> {
    const now = this.clock.now();
    this.forget(now);
    const { minGapMs, perMinute, perHour } = this.limits;
    let earliest = Math.max(now, this.holdUntil, this.lastStart + minGapMs, this.lastEnd + minGapMs);
    if (!counted) return this.sleepUntil(earliest);
    const inLastMinute = this.starts.filter((start) => start > earliest - MINUTE_MS);
    if (inLastMinute.length >= perMinute)
      earliest = Math.max(earliest, inLastMinute[inLastMinute.length - perMinute]! + MINUTE_MS);
    if (this.starts.length >= perHour) {
      earliest = Math.max(earliest, this.starts[this.starts.length - perHour]! + HOUR_MS);
      this.options.logger?.warning(
        `${this.starts.length} GitHub writes in the last hour: waiting ${Math.ceil((earliest - now) / 1000)} s to stay ` +
          `within ${perHour} an hour (GitHub allows 500 content-generating requests an hour).`
      );
    }
    await this.sleepUntil(earliest);
  }

  /** Node's timers may fire a millisecond before Date.now() reaches the time asked: sleep again then. */
  private async sleepUntil(time: number): Promise<void> {
    for (let now = this.clock.now(); now < time; now = this.clock.now()) await this.clock.sleep(time - now);
  }

  private forget(now: number): void {
    while (this.starts.length > 0 && this.starts[0]! <= now - HOUR_MS) this.starts.shift();
  }
}

/** What a rate-limit answer asks: how long to wait, and which limit it was. */
export interface RateLimitWait {
  readonly ms: number;
  readonly limit: 'rate limit' | 'secondary rate limit';
}

/**
 * The wait GitHub asks for after a refused request, or undefined when the answer is no rate limit. From
 * "Rate limits for the REST API", "Exceeding the rate limit" (link and date above): a 403 or 429 with
 * `retry-after` waits that many seconds; with `x-ratelimit-remaining: 0`, until `x-ratelimit-reset`
 * (epoch seconds); a secondary limit with neither waits "at least one minute", growing exponentially on
 * each retry. A 403 without any of these (no permission) is a refusal, not a limit.
 */
export function rateLimitWait(
  error: unknown,
  nowMs: number,
  previousWaits: number
): RateLimitWait | undefined {
  const answer = refusedAnswer(error);
  if (answer === undefined || (answer.status !== 403 && answer.status !== 429)) return undefined;
  const secondary = /secondary rate limit/i.test(answer.message);
  const limit = secondary ? 'secondary rate limit' : 'rate limit';
  const retryAfter = Number(answer.headers['retry-after']);
  if (answer.headers['retry-after'] !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0)
    return { ms: retryAfter * 1000, limit };
  if (answer.headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(answer.headers['x-ratelimit-reset']);
    // One second past the reset, so the retry comes after it (the header is whole seconds).
    if (Number.isFinite(reset)) return { ms: Math.max(0, reset * 1000 - nowMs) + 1000, limit };
  }
  if (secondary || answer.status === 429) return { ms: MINUTE_MS * 2 ** previousWaits, limit };
  return undefined;
}

interface RefusedAnswer {
  readonly status: number;
  readonly message: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** An Octokit RequestError's status, message and headers (lower-cased names), checked as they enter. */
function refusedAnswer(error: unknown): RefusedAnswer | undefined {
  if (!(error instanceof Error) || !('status' in error) || typeof error.status !== 'number') return undefined;
  const response = 'response' in error ? error.response : undefined;
  const raw =
    typeof response === 'object' && response !== null && 'headers' in response ? response.headers : undefined;
  const headers: Record<string, string | undefined> = {};
  if (typeof raw === 'object' && raw !== null)
    for (const [name, value] of Object.entries(raw))
      if (value !== undefined) headers[name.toLowerCase()] = String(value);
  return { status: error.status, message: error.message, headers };
}
