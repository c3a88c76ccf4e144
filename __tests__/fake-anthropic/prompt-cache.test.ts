import path from 'node:path';
import { runSession } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import {
  createPromptCache,
  startFakeAnthropic,
  type CacheControl,
  type PromptSegment
} from '../../test-support/fake-anthropic/index.js';
import { explorerScript } from '../support/explorer-script.js';
import { createTempRepo } from '../support/temp-repo.js';

const MARK: CacheControl = { type: 'ephemeral' };

/** A block of `tokens` tokens; `text` is its identity for prefix matching. */
function block(text: string, tokens: number, cacheControl: CacheControl | null = null): PromptSegment {
  return {
    path: text,
    kind: 'message',
    role: 'user',
    text,
    tokens,
    cacheControl,
    source: { type: 'text', text }
  };
}

const usageOf = (model: ReturnType<typeof createPromptCache>, segments: PromptSegment[], now = 0) =>
  model({
    request: { endpoint: 'messages', model: 'claude-sonnet-4-5', stream: true, messages: [], raw: {} },
    segments,
    promptTokens: 0,
    callIndex: 0,
    now
  });

describe('the prompt-cache model, on hand-worked examples', () => {
  it('writes up to the last breakpoint, then reads it back and writes only what is new', () => {
    const cache = createPromptCache();
    // tools+system 2,000 (marked), task 500, a reply 100, results 900 (marked).
    const first = [
      block('system', 2000, MARK),
      block('task', 500),
      block('reply', 100),
      block('results', 900, MARK)
    ];
    expect(usageOf(cache, first)).toMatchObject({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 3500,
      input_tokens: 0
    });
    // Next turn: same prefix (the old marker moved on), plus 300 new tokens, marked at the end.
    const second = [
      block('system', 2000, MARK),
      block('task', 500),
      block('reply', 100),
      block('results', 900, MARK),
      block('reply2', 100),
      block('results2', 200, MARK)
    ];
    expect(usageOf(cache, second)).toMatchObject({
      cache_read_input_tokens: 3500,
      cache_creation_input_tokens: 300,
      input_tokens: 0
    });
  });

  it('a changed byte early in the history reads only the prefix before it', () => {
    const cache = createPromptCache();
    usageOf(cache, [block('system', 2000, MARK), block('task', 500), block('results', 900, MARK)]);
    const changed = [block('system', 2000, MARK), block('task (edited)', 500), block('results', 900, MARK)];
    expect(usageOf(cache, changed)).toMatchObject({
      cache_read_input_tokens: 2000,
      cache_creation_input_tokens: 1400,
      input_tokens: 0
    });
  });

  it('caches nothing below the minimum length, and counts what follows the last breakpoint as input', () => {
    const cache = createPromptCache({ minCacheableTokens: 1024 });
    expect(usageOf(cache, [block('system', 600, MARK), block('task', 300)])).toMatchObject({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      input_tokens: 900
    });
    expect(cache.entries).toBe(0);
  });

  it('forgets after the TTL, and a hit refreshes it', () => {
    const cache = createPromptCache();
    const prompt = [block('system', 2000, MARK), block('task', 500, MARK)];
    usageOf(cache, prompt, 0);
    expect(usageOf(cache, prompt, 4 * 60_000).cache_read_input_tokens).toBe(2500); // refreshed at 4 min
    expect(usageOf(cache, prompt, 8 * 60_000).cache_read_input_tokens).toBe(2500); // 4 min after the refresh
    expect(usageOf(cache, prompt, 14 * 60_000)).toMatchObject({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 2500
    });
  });

  it('finds an earlier entry only within the lookback before a breakpoint', () => {
    const many = (count: number) => Array.from({ length: count }, (_, i) => block(`b${i}`, 10));
    const base = [block('system', 2000, MARK), block('head', 10, MARK)];
    // Far: 25 unmarked blocks after the cached "head" before the next breakpoint.
    const farCache = createPromptCache({ lookbackBlocks: 20 });
    usageOf(farCache, base);
    expect(
      usageOf(farCache, [
        ...base.map((s) => ({ ...s, cacheControl: s.path === 'system' ? MARK : null })),
        ...many(25),
        block('end', 10, MARK)
      ]).cache_read_input_tokens
    ).toBe(2000);
    // Near: 5 blocks; the head's entry is found by looking back.
    const nearCache = createPromptCache({ lookbackBlocks: 20 });
    usageOf(nearCache, base);
    expect(
      usageOf(nearCache, [
        ...base.map((s) => ({ ...s, cacheControl: s.path === 'system' ? MARK : null })),
        ...many(5),
        block('end', 10, MARK)
      ]).cache_read_input_tokens
    ).toBe(2010);
  });
});

describe('the agent loop against the fake with the cache model', () => {
  it("reads almost all of each turn's prompt from the cache once the prefix is written", async () => {
    const repo = createTempRepo(path.resolve('node_modules/fast-glob/out'));
    const fake = await startFakeAnthropic({ script: explorerScript(20), usageModel: createPromptCache() });
    try {
      const outcome = await runSession({
        config: parseAgentConfig(() => '', { ANTHROPIC_API_KEY: 'k' }),
        task: 'Explore.',
        repoDir: repo.root,
        transcriptsDir: path.join(repo.root, '.transcripts'),
        runId: 'cached',
        env: process.env,
        model: new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retryBaseDelayMs: 1 })
      });
      const { usage } = outcome.result;
      expect(outcome.result.stopReason).toBe('success');
      expect(usage.cacheRead).toBeGreaterThan(0);
      // Everything but the first turn's writes and each turn's new blocks is a cache read.
      const share = usage.cacheRead / (usage.input + usage.cacheWrite + usage.cacheRead);
      if (process.env.REPORT_CACHE) console.log(`cache-read share ${share.toFixed(3)}`, usage);
      expect(share).toBeGreaterThan(0.7);
      expect(usage.input).toBe(0);
    } finally {
      await fake.close();
      repo.remove();
    }
  });
});
