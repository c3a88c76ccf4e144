import { createHash } from 'node:crypto';
import { findModel } from '../../src/config/model-catalog.js';
import { segmentKey, type PromptSegment } from './tokens.js';
import type { InputUsage } from './types.js';
import type { UsageContext, UsageModel } from './usage.js';

export interface PromptCacheOptions {
  /**
   * Below this many tokens a prefix is not cached, silently. Default: the request's model row
   * (`minCacheableTokens` of the catalogue: 512 on Sonnet 5.5, 4096 on Opus 4.5+ and Haiku 4.5),
   * else 1024.
   */
  readonly minCacheableTokens?: number;
  /** How many blocks before a breakpoint the API looks for an earlier cache entry (about 20). */
  readonly lookbackBlocks?: number;
}

const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
const FALLBACK_MIN_CACHEABLE_TOKENS = 1024;

/**
 * A prompt-cache model that follows the documented rules: prefixes in render order (tools, system,
 * messages) are cached at cache_control breakpoints; a request reads the longest cached prefix found
 * at a breakpoint or within the lookback before it; prefixes shorter than the minimum are not cached;
 * entries live 5 minutes (or 1 hour with `ttl: "1h"`), refreshed on every hit, on the server's clock.
 * It splits the prompt into cache reads, cache writes and uncached input, as the API's usage does,
 * and the writes by TTL: the tokens up to a written breakpoint (after the previous one) take that
 * breakpoint's TTL, so with a 1h marker before a 5m one the prefix is a 1h write and the rest 5m.
 */
export function createPromptCache(
  options: PromptCacheOptions = {}
): UsageModel & { readonly entries: number } {
  const lookback = options.lookbackBlocks ?? 20;
  const cache = new Map<string, number>(); // prefix hash → expiry time
  const model = (context: UsageContext): InputUsage => {
    const { segments, now } = context;
    const minTokens =
      options.minCacheableTokens ??
      findModel(context.request.model)?.minCacheableTokens ??
      FALLBACK_MIN_CACHEABLE_TOKENS;
    // Caches are per model: the same prefix sent to another model is a miss.
    const hashes = prefixHashes(context.request.model, segments);
    const cumulative = cumulativeTokens(segments);
    const breakpoints = segments.flatMap((segment, index) => (segment.cacheControl ? [index] : []));

    // The longest live prefix at a breakpoint or within the lookback before one.
    let readUpTo = -1;
    for (const breakpoint of breakpoints) {
      for (let index = breakpoint; index >= Math.max(0, breakpoint - lookback); index--) {
        const expiry = cache.get(hashes[index]!);
        if (expiry !== undefined && expiry > now) {
          if (index > readUpTo) readUpTo = index;
          break;
        }
      }
    }
    const read = readUpTo >= 0 ? cumulative[readUpTo]! : 0;
    if (readUpTo >= 0) cache.set(hashes[readUpTo]!, now + ttlOf(segments, readUpTo));

    // Every breakpoint past the read point whose prefix is long enough is written, with its TTL.
    const written = { '5m': 0, '1h': 0 };
    let writtenTokens = read;
    for (const breakpoint of breakpoints) {
      if (breakpoint <= readUpTo || cumulative[breakpoint]! < minTokens) continue;
      const ttl = ttlNameOf(segments, breakpoint);
      cache.set(hashes[breakpoint]!, now + TTL_MS[ttl]);
      written[ttl] += cumulative[breakpoint]! - writtenTokens;
      writtenTokens = cumulative[breakpoint]!;
    }
    const write = written['5m'] + written['1h'];
    const total = cumulative.at(-1) ?? 0;
    return {
      input_tokens: total - read - write,
      cache_creation_input_tokens: write,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: written['5m'], ephemeral_1h_input_tokens: written['1h'] }
    };
  };
  return Object.assign(model, {
    get entries() {
      return cache.size;
    }
  });
}

/** A hash per block of the model and everything up to and including it: equal hashes mean an exact prefix. */
function prefixHashes(model: string, segments: readonly PromptSegment[]): string[] {
  const hashes: string[] = [];
  let previous = createHash('sha256').update(model).digest('hex');
  for (const segment of segments) {
    previous = createHash('sha256').update(previous).update(segmentKey(segment)).digest('hex');
    hashes.push(previous);
  }
  return hashes;
}

function cumulativeTokens(segments: readonly PromptSegment[]): number[] {
  let sum = 0;
  return segments.map((segment) => (sum += segment.tokens));
}

function ttlNameOf(segments: readonly PromptSegment[], index: number): '5m' | '1h' {
  return segments[index]?.cacheControl?.ttl ?? '5m';
}

function ttlOf(segments: readonly PromptSegment[], index: number): number {
  return TTL_MS[ttlNameOf(segments, index)];
}
