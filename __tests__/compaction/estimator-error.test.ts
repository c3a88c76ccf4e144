import path from 'node:path';
import { readFileSync } from 'node:fs';
import { runSession } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import { startFakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { explorerScript } from '../support/explorer-script.js';
import { createTempRepo } from '../support/temp-repo.js';

/**
 * The token meter's estimate of each request, against what the fake's real BPE tokenizer counted.
 * Set REPORT_ESTIMATOR=1 to print the distribution (the README quotes it).
 */
describe('token estimator error against a real tokenizer', () => {
  it('stays within a few percent and errs on the high side', async () => {
    const repo = createTempRepo(path.resolve('node_modules/fast-glob/out'));
    const fake = await startFakeAnthropic({ script: explorerScript(80), contextWindow: 60_000 });
    try {
      const config = parseAgentConfig(
        (name) =>
          ({ context_window: '60000', micro_keep_recent: '4', micro_clear_at_least: '3000' })[name] ?? '',
        { ANTHROPIC_API_KEY: 'k' }
      );
      const outcome = await runSession({
        config,
        task: 'Explore this code base and leave notes.',
        repoDir: repo.root,
        transcriptsDir: path.join(repo.root, '.transcripts'),
        runId: 'estimator',
        env: process.env,
        model: new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retryBaseDelayMs: 1 })
      });
      expect(outcome.result.stopReason).toBe('success');
      const lines = readFileSync(outcome.transcriptPath, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as TranscriptLine);
      const estimates = new Map<number, number>();
      const actual = new Map<number, number>();
      for (const line of lines) {
        if (line.type === 'request' && line.estimated_context_tokens !== null)
          estimates.set(line.turn, line.estimated_context_tokens);
        if (line.type === 'response') actual.set(line.turn, line.context_tokens);
      }
      // Turn 1 has no measurement yet (the estimate is characters only); every later turn builds on one.
      const errors = [...estimates]
        .filter(([turn]) => turn > 1 && actual.has(turn))
        .map(([turn, estimate]) => (estimate - actual.get(turn)!) / actual.get(turn)!);
      expect(errors.length).toBeGreaterThan(70);
      const absolute = errors.map(Math.abs).sort((a, b) => a - b);
      const mean = absolute.reduce((sum, e) => sum + e, 0) / absolute.length;
      const p95 = absolute[Math.floor(absolute.length * 0.95)]!;
      const under = errors.filter((e) => e < 0).length / errors.length;
      if (process.env.REPORT_ESTIMATOR) {
        console.log(
          `estimator: ${errors.length} requests, mean |error| ${(mean * 100).toFixed(2)}%, p95 ${(p95 * 100).toFixed(2)}%, ` +
            `max ${(absolute.at(-1)! * 100).toFixed(2)}%, under-estimates ${(under * 100).toFixed(0)}%`
        );
      }
      expect(mean).toBeLessThan(0.05);
      expect(p95).toBeLessThan(0.1);
      expect(under).toBeLessThan(0.25);
    } finally {
      await fake.close();
      repo.remove();
    }
  });
});
