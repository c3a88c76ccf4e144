import { rmSync } from 'node:fs';
import path from 'node:path';
import { runSession } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import { createPromptCache, startFakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { explorerScript } from '../support/explorer-script.js';
import { createTempRepo } from '../support/temp-repo.js';

/**
 * Issue "Speak today's Claude API", done-when: the cost the project reports equals the usage priced
 * at the documented prices, within 1%, on Sonnet 5.5, Opus 5.5, Haiku 5.5 and Fable 5.1. The fake
 * bills each answer with its own arithmetic over the catalogue's prices (test-support/fake-anthropic/
 * billing.ts), with real prompt caching (writes by TTL, reads, the per-model minimum); the loop
 * prices the usage the SDK hands back (src/model/usage.ts). Haiku 5.5's session starts with a
 * task of over 100k tokens, so its long-prompt band is billed too.
 */
const MODELS = ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-fable-5-1'] as const;

describe('the cost we report is what the API bills', () => {
  it.each(MODELS)('%s: reported cost = billed cost, within 1%%', async (model) => {
    const repo = createTempRepo(path.resolve('node_modules/fast-glob/out'));
    const fake = await startFakeAnthropic({ script: explorerScript(8), usageModel: createPromptCache() });
    try {
      const inputs: Record<string, string> = { model, max_turns: '30', max_budget_usd: '1000' };
      const config = parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'test-key' });
      // Real text, long enough that every request of this run is above Haiku 5.5's 100k-token band.
      const longTask =
        model === 'claude-haiku-5-5' ? `\n\n${'Keep every public name as it is. '.repeat(16_000)}` : '';
      const outcome = await runSession({
        config,
        task: `Explore this code base and take notes.${longTask}`,
        repoDir: repo.root,
        transcriptsDir: path.join(repo.root, '.transcripts'),
        runId: `billing-${model}`,
        env: process.env,
        model: new AnthropicModelClient({ apiKey: 'test-key', baseURL: fake.url, retryBaseDelayMs: 1 })
      });
      const { result } = outcome;
      expect(result.stopReason).toBe('success');
      const answered = fake.requests.filter((record) => record.response?.kind === 'message');
      expect(answered.length).toBe(result.turns);
      expect(fake.requests.filter((record) => record.response?.kind !== 'message')).toEqual([]);
      // The run read from the cache and wrote to it: every price class is exercised.
      expect(result.usage.cacheRead).toBeGreaterThan(0);
      expect(result.usage.cacheWrite).toBeGreaterThan(0);
      if (model === 'claude-haiku-5-5') {
        expect(Math.min(...result.contextTokensPerTurn)).toBeGreaterThan(100_000);
      }
      const billed = fake.totalBilledUsd;
      expect(billed).toBeGreaterThan(0);
      expect(Math.abs(result.costUsd - billed) / billed).toBeLessThan(0.01);
    } finally {
      await fake.close();
      repo.remove();
      rmSync(path.join(repo.root, '.transcripts'), { recursive: true, force: true });
    }
  });
});
