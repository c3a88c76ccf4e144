/**
 * Where one strategy's money goes on the workload: USD by request kind and token class, the cache
 * writes that compactions caused, and which tools' results fill the context the agent reads back.
 *   npx tsx bench/breakdown.ts 300 [default|reference] ['{"microKeepRecent":3}']
 */
import { rmSync } from 'node:fs';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { defaultCompactor } from '../src/agent/session.js';
import { resolveModelSpec } from '../src/config/models.js';
import { toolExchangesFrom, toolResultText } from '../src/compaction/history.js';
import { CLEARED_PREFIX } from '../src/compaction/placeholder.js';
import type { CompactionOptions } from '../src/compaction/settings.js';
import { TokenCounter } from '../test-support/fake-anthropic/index.js';
import { costOf, costFloor, figuresOf, refetchCost } from './figures.js';
import { runStrategy, type RequestRecord } from './run-strategy.js';
import { STRATEGIES, type Strategy } from './strategies/index.js';
import { readSeed, stageSeed, WORKLOAD_RANDOM_SEED, WorkloadPlan } from './workload.js';

const turns = Number(process.argv[2] ?? '300');
const name = process.argv[3] ?? 'default';
const overrides = JSON.parse(process.argv[4] ?? '{}') as Partial<CompactionOptions>;
const seedDir = stageSeed();
process.on('exit', () => rmSync(seedDir, { recursive: true, force: true }));
const seed = readSeed(seedDir);
/** `WORKLOAD_SEED=7` replays another plan of the same mix, to tell a robust setting from a lucky one. */
const plan = new WorkloadPlan(seed, Number(process.env.WORKLOAD_SEED ?? WORKLOAD_RANDOM_SEED));
/** `BREAKDOWN_MODEL=claude-haiku-4-5` runs another model of the catalogue (its prices and window). */
const model = process.env.BREAKDOWN_MODEL ?? 'claude-sonnet-5-5';
const prices = resolveModelSpec(model).prices;

/** Characters of live (uncleared) tool results per tool, summed over every request sent. */
const carried = new Map<string, number>();
const added = new Map<string, number>();
const duplicates = new Map<string, number>();
let sentSoFar = 0;
const bump = (map: Map<string, number>, key: string, by: number) => map.set(key, (map.get(key) ?? 0) + by);
function observe(history: readonly MessageParam[]): void {
  for (const exchange of toolExchangesFrom(history, 0)) {
    const text = toolResultText(exchange.result);
    if (text.startsWith(CLEARED_PREFIX)) continue;
    const tool = toolLabel(exchange.use.name, exchange.use.input);
    bump(carried, tool, text.length);
    if (exchange.messageIndex >= sentSoFar) {
      bump(added, tool, text.length);
      if (exchange.use.name === 'read_file') {
        const same = toolExchangesFrom(history, 0).find(
          (other) =>
            other.messageIndex < exchange.messageIndex &&
            other.use.name === 'read_file' &&
            JSON.stringify(other.use.input) === JSON.stringify(exchange.use.input) &&
            toolResultText(other.result) === text
        );
        if (same) bump(duplicates, tool, text.length);
      }
    }
  }
  sentSoFar = history.length;
}
function toolLabel(tool: string, input: unknown): string {
  const fields = input as Record<string, unknown>;
  if (tool === 'read_file')
    return fields.offset !== undefined || fields.limit !== undefined
      ? 'read_file (window)'
      : 'read_file (whole)';
  if (tool === 'bash' && typeof fields.command === 'string') return `bash ${fields.command.split(' ')[0]}`;
  return tool;
}

const base: Strategy =
  name === 'default'
    ? { name, description: '', build: (parts, now) => defaultCompactor(parts, now, overrides) }
    : STRATEGIES.find((s) => s.name === name)!;
const strategy: Strategy = {
  ...base,
  build: (parts, now) => {
    const inner = base.build(parts, now);
    return {
      async compact(history, trigger, context) {
        const result = await inner.compact(history, trigger, context);
        if (trigger.kind === 'before_request') observe(result.history);
        return result;
      }
    };
  }
};
const run = await runStrategy({
  strategy,
  model,
  turns,
  seedDir,
  plan,
  seed,
  tokenCounter: new TokenCounter({ maxEntries: 200_000 })
});
const f = figuresOf(run, prices, costFloor(run, prices));
const usd = (records: readonly RequestRecord[]) => costOf(records, prices);
const part = (records: readonly RequestRecord[], field: 'input' | 'cacheWrite' | 'cacheRead' | 'output') =>
  usd(records.map((r) => ({ ...r, input: 0, cacheWrite: 0, cacheRead: 0, output: 0, [field]: r[field] })));
const agent = run.requests.filter((r) => r.kind === 'agent');
const summary = run.requests.filter((r) => r.kind === 'summary');
const compacted = agent.filter((r) => r.afterCompaction);
const steady = agent.filter((r) => !r.afterCompaction);
const rows: Array<[string, number]> = [
  ['total', f.usd],
  ['floor', costFloor(run, prices)],
  ['agent cache writes, steady turns', part(steady, 'cacheWrite')],
  ['agent cache writes, turns after a compaction', part(compacted, 'cacheWrite')],
  [
    '  of them beyond the turn own new tokens',
    usd(
      compacted.map((r) => ({
        ...r,
        input: 0,
        cacheRead: 0,
        output: 0,
        cacheWrite: Math.max(0, r.cacheWrite - r.newTokens)
      }))
    )
  ],
  ['agent cache reads', part(agent, 'cacheRead')],
  ['agent uncached input', part(agent, 'input')],
  ['agent output', part(agent, 'output')],
  ['summary requests (all)', usd(summary)],
  ['re-fetch turns (own part)', refetchCost(run.requests, prices)]
];
console.log(
  `${name} ${JSON.stringify(overrides)} × ${turns}: ${run.agentTurns} turns, compactions ${JSON.stringify(f.compactions_by_layer)}, lost ${f.lost_needs}, reread ${(f.reread_share * 100).toFixed(2)}%, cache read share ${(f.cache_read_share * 100).toFixed(1)}%, peak ${f.peak_context}`
);
for (const [label, value] of rows)
  console.log(`${label.padEnd(48)} $${value.toFixed(3)}  ${((value / f.usd) * 100).toFixed(1)}%`);
console.log(
  `mean context per agent request: ${Math.round(agent.reduce((s, r) => s + r.promptTokens, 0) / agent.length)} tokens`
);
console.log('tool results: chars added / chars carried (summed over requests) / carried share');
const totalCarried = [...carried.values()].reduce((a, b) => a + b, 0);
for (const [tool, chars] of [...carried].sort((a, b) => b[1] - a[1]))
  console.log(
    `  ${tool.padEnd(22)} ${String(added.get(tool) ?? 0).padStart(9)} ${String(chars).padStart(12)} ${((chars / totalCarried) * 100).toFixed(1)}%`
  );
console.log(`read_file results identical to a live earlier read: ${JSON.stringify([...duplicates])}`);
if (process.env.BREAKDOWN_DETAIL) {
  console.log(`first request: ${agent[0]?.promptTokens} tokens`);
  for (const r of summary)
    console.log(
      `summary: prompt ${r.promptTokens} write ${r.cacheWrite} read ${r.cacheRead} input ${r.input} output ${r.output}`
    );
  for (const e of run.compactions)
    console.log(
      `turn ${e.turn} ${e.layer} ${e.tokens_before} -> ${e.tokens_after} cleared ${e.results_cleared} ${e.reason.slice(0, 80)}`
    );
  agent.forEach((r, i) => {
    if (r.afterCompaction || i % 10 === 0)
      console.log(
        `req ${i} prompt ${r.promptTokens} write ${r.cacheWrite} read ${r.cacheRead} new ${r.newTokens}${r.afterCompaction ? ' (after compaction)' : ''}`
      );
  });
}
