import { createHash } from 'node:crypto';
import { segmentKey, type PromptSegment } from './tokens.js';
import type { InputUsage } from './types.js';
import type { UsageContext, UsageModel } from './usage.js';

export interface PromptCacheOptions {
  /** Below this many tokens a prefix is not cached, silently (1024 for Sonnet; 4096 for some models). */
  readonly minCacheableTokens?: number;
  /** How many blocks before a breakpoint the API looks for an earlier cache entry (about 20). */
  readonly lookbackBlocks?: number;
}

const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;

/**
 * A prompt-cache model that follows the documented rules: prefixes in render order (tools, system,
 * messages) are cached at cache_control breakpoints; a request reads the longest cached prefix found
 * at a breakpoint or within the lookback before it; prefixes shorter than the minimum are not cached;
 * entries live 5 minutes (or 1 hour), refreshed on every hit, on the server's clock. It splits the
 * prompt into cache reads, cache writes and uncached input, as the API's usage does.
 */
export function createPromptCache(
  options: PromptCacheOptions = {}
): UsageModel & { readonly entries: number } {
  const minTokens = options.minCacheableTokens ?? 1024;
  const lookback = options.lookbackBlocks ?? 20;
  const cache = new Map<string, number>(); // prefix hash → expiry time
  const model = (context: UsageContext): InputUsage => {
    const { segments, now } = context;
    const hashes = prefixHashes(segments);
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

    // Every breakpoint past the read point whose prefix is long enough is written.
    let writtenUpTo = readUpTo;
    for (const breakpoint of breakpoints) {
      if (breakpoint <= readUpTo || cumulative[breakpoint]! < minTokens) continue;
      cache.set(hashes[breakpoint]!, now + ttlOf(segments, breakpoint));
      writtenUpTo = Math.max(writtenUpTo, breakpoint);
    }
    const write = writtenUpTo > readUpTo ? cumulative[writtenUpTo]! - read : 0;
    const total = cumulative.at(-1) ?? 0;
    return {
      input_tokens: total - read - write,
      cache_creation_input_tokens: write,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: write, ephemeral_1h_input_tokens: 0 }
    };
  };
  return Object.assign(model, {
    get entries() {
      return cache.size;
    }
  });
}

/** A hash per block of everything up to and including it: equal hashes mean an exact prefix. */
function prefixHashes(segments: readonly PromptSegment[]): string[] {
  const hashes: string[] = [];
  let previous = '';
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

function ttlOf(segments: readonly PromptSegment[], index: number): number {
  return TTL_MS[segments[index]?.cacheControl?.ttl ?? '5m'];
}
