/**
 * Tries settings of our pipeline on the benchmark workload, to tune the defaults:
 *   npx tsx bench/tune.ts 1000,100 '{"t60f30":{"thresholdTokens":60000,"microClearAtLeast":30000}}'
 */
import type { CompactionOptions } from '../src/compaction/settings.js';
import { TokenCounter } from '../test-support/fake-anthropic/index.js';
import { resolveModelSpec } from '../src/config/models.js';
import { defaultCompactor } from '../src/agent/session.js';
import { runStrategy } from './run-strategy.js';
import { costFloor, figuresOf } from './figures.js';
import { readSeed, stageSeed, WorkloadPlan } from './workload.js';
import { rmSync } from 'node:fs';
const seed = stageSeed();
const seedFiles = readSeed(seed);
const plan = new WorkloadPlan(seedFiles);
process.on('exit', () => rmSync(seed, { recursive: true, force: true }));
const counter = new TokenCounter({ maxEntries: 200_000 });
const prices = resolveModelSpec('claude-sonnet-5-5').prices;
const configs = JSON.parse(process.argv[3] ?? '{}') as Record<string, Partial<CompactionOptions>>;
for (const [name, o] of Object.entries(configs)) {
  for (const turns of process.argv[2]!.split(',').map(Number)) {
    const run = await runStrategy({
      strategy: { name, description: '', build: (p, now) => defaultCompactor(p, now, o) },
      turns,
      seedDir: seed,
      plan,
      seed: seedFiles,
      tokenCounter: counter
    });
    const f = figuresOf(run, prices, costFloor(run, prices));
    console.log(
      name,
      turns,
      JSON.stringify({
        usd: +f.usd.toFixed(2),
        perTurn: +f.usd_per_turn.toFixed(4),
        share: +f.cache_read_share.toFixed(3),
        peak: f.peak_context,
        comp: f.compactions_by_layer,
        summ: +f.summary_share.toFixed(3),
        est: f.estimator_error && +f.estimator_error.toFixed(3),
        ret: f.retention,
        reread: +f.reread_share.toFixed(3),
        extra: f.extra_turns,
        lost: f.lost_needs,
        det: f.retention_detail
      })
    );
  }
}
