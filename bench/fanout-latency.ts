/**
 * How long a model call takes on the bench's simulated clock: a fixed time to the first token, the
 * prompt's uncached part processed at one speed, its cached part at a much higher one, and the
 * output streamed. The rates are round assumptions, not measurements: they only need to make a
 * long context slower than a short one, and output slower than input. Sharding wins by running
 * shards side by side and by keeping each context small; both effects go through this function.
 */
export const LATENCY = {
  firstTokenSeconds: 0.8,
  uncachedTokensPerSecond: 40_000,
  cachedTokensPerSecond: 400_000,
  outputTokensPerSecond: 80,
  /** A job's start on a hosted runner (machine, checkout, setup) before its agent's first call. */
  jobStartSeconds: 45
} as const;

export interface CallTokens {
  readonly input: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
  readonly output: number;
}

export function callSeconds(tokens: CallTokens): number {
  return (
    LATENCY.firstTokenSeconds +
    (tokens.input + tokens.cacheWrite) / LATENCY.uncachedTokensPerSecond +
    tokens.cacheRead / LATENCY.cachedTokensPerSecond +
    tokens.output / LATENCY.outputTokensPerSecond
  );
}

/**
 * The wall time of jobs of the given durations on `lanes` runners, each job started on the lane
 * that frees first, in the given order (as a matrix with max-parallel starts its jobs).
 */
export function wallSeconds(durations: readonly number[], lanes: number): number {
  const free = Array<number>(Math.max(1, lanes)).fill(0);
  for (const duration of durations) {
    const lane = free.indexOf(Math.min(...free));
    free[lane] = free[lane]! + duration;
  }
  return Math.max(...free);
}
