import { rmSync } from 'node:fs';
import path from 'node:path';
import { runSession } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import { startFakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { longRunScript, realCodeSeed } from '../support/long-run-script.js';
import { createTempRepo } from '../support/temp-repo.js';

describe('prompt too long', () => {
  it('forces a compaction and one retry of the turn, and the run goes on to the end', async () => {
    // The model table says 200k, but the API (a gateway, say) allows 25k: only the 400 tells.
    const seed = realCodeSeed();
    const repo = createTempRepo(seed);
    rmSync(seed, { recursive: true, force: true });
    const script = longRunScript({ turns: 60, manualCompactAt: 1_000, burstEvery: 9 });
    const fake = await startFakeAnthropic({ script, contextWindow: 25_000 });
    try {
      // Micro-compaction would keep this short run small, and the default threshold (30k) would
      // compact before the 25k window is met; here an agent request must outgrow the real window.
      const inputs: Record<string, string> = {
        micro_clear_at_least: '1000000',
        compaction_threshold_tokens: '150000'
      };
      const config = parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'k' });
      const outcome = await runSession({
        config,
        task: 'Explore this code base and keep notes.',
        repoDir: repo.root,
        transcriptsDir: path.join(repo.root, '.transcripts'),
        runId: 'overflow',
        env: process.env,
        model: new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retryBaseDelayMs: 1 })
      });
      const { result } = outcome;
      expect(result.error).toBeUndefined();
      expect(result.stopReason).toBe('success');
      expect(result.turns).toBe(60);

      const requests = fake.requests.filter((record) => record.path === '/v1/messages');
      const rejected = requests.filter((record) => record.response?.kind === 'error');
      expect(rejected.length).toBeGreaterThanOrEqual(1);
      for (const record of rejected) {
        expect(record.response).toMatchObject({
          status: 400,
          message: expect.stringMatching(/^prompt is too long: \d+ tokens > 25000 maximum$/)
        });
      }
      // Each rejection was followed by exactly one compaction and a retry that went through: the
      // first rejection taught the real window, so the threshold moved under it and no turn repeated.
      const autos = result.compactionLog.filter((event) => event.layer === 'auto');
      expect(autos.length).toBeGreaterThanOrEqual(rejected.length);
      expect(autos[0]!.reason).toMatch(/prompt is too long \(\d+ tokens\)/);
      expect(rejected.length).toBe(1);
      // Once lowered, the threshold keeps every later request under the real window.
      const answered = requests.flatMap((record) =>
        record.response?.kind === 'message' ? [record.response.usage] : []
      );
      const peak = Math.max(
        ...answered.map((u) => u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens)
      );
      expect(peak).toBeLessThan(25_000);
    } finally {
      await fake.close();
      repo.remove();
    }
  });

  it('learns the real window from a summary request that is too long, and the compaction still succeeds', async () => {
    // The default threshold (30k) is past a 25k gateway window: the first request to meet it is the summary.
    const seed = realCodeSeed();
    const repo = createTempRepo(seed);
    rmSync(seed, { recursive: true, force: true });
    const script = longRunScript({ turns: 40, manualCompactAt: 1_000, burstEvery: 9 });
    const fake = await startFakeAnthropic({ script, contextWindow: 25_000 });
    try {
      const inputs: Record<string, string> = { micro_clear_at_least: '1000000' };
      const config = parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'k' });
      const { result } = await runSession({
        config,
        task: 'Explore this code base and keep notes.',
        repoDir: repo.root,
        transcriptsDir: path.join(repo.root, '.transcripts'),
        runId: 'overflow-summary',
        env: process.env,
        model: new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retryBaseDelayMs: 1 })
      });
      expect(result.stopReason).toBe('success');
      const rejected = fake.requests.filter((record) => record.response?.kind === 'error');
      expect(rejected.length).toBeGreaterThanOrEqual(1);
      // Every compaction got its summary: the second try of the first one fit under the learned window.
      const layers = result.compactionLog.map((event) => event.layer);
      expect(layers).toContain('auto');
      expect(layers).not.toContain('fallback');
      expect(script.progress.summaryRequests).toBe(layers.filter((layer) => layer === 'auto').length);
    } finally {
      await fake.close();
      repo.remove();
    }
  });
});
