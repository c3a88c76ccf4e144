/**
 * `npx tsx bench/plans.ts [--sizes 300] [--plans 1,2,3,4] [--json]`
 *
 * The published figures replay one plan of the workload (WORKLOAD_RANDOM_SEED). This replays other
 * plans of the same mix (other seeds of its random choices) with the reference and the shipped
 * default, so that a setting that is cheap only on the published plan shows as lucky: each plan's
 * files and result sizes differ, and the reference's cost with them.
 */
import { rmSync } from 'node:fs';
import { resolveModelSpec } from '../src/config/models.js';
import { TokenCounter } from '../test-support/fake-anthropic/index.js';
import { costFloor, figuresOf, type Figures } from './figures.js';
import { runStrategy } from './run-strategy.js';
import { STRATEGIES } from './strategies/index.js';
import { readSeed, stageSeed, WORKLOAD_RANDOM_SEED, WorkloadPlan } from './workload.js';

interface PlanRow {
  readonly plan: number;
  readonly turns: number;
  readonly reference_usd: number;
  readonly default_usd: number;
  readonly ratio: number;
  readonly lost_needs: number;
  readonly reread_share: number;
  readonly cache_read_share: number;
  readonly overflows: number;
}

function listArgument(argv: readonly string[], flag: string, fallback: string): number[] {
  const index = argv.indexOf(flag);
  const values = (index >= 0 ? (argv[index + 1] ?? '') : fallback).split(',').map(Number);
  if (values.some((value) => !Number.isInteger(value) || value < 0))
    throw new Error(`${flag} takes whole numbers separated by commas, e.g. ${flag} ${fallback}`);
  return values;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const sizes = listArgument(argv, '--sizes', '300');
  const plans = listArgument(argv, '--plans', `${WORKLOAD_RANDOM_SEED},1,2,3`);
  const prices = resolveModelSpec('claude-sonnet-5-5').prices;
  const seedDir = stageSeed();
  const counter = new TokenCounter({ maxEntries: 200_000 });
  const rows: PlanRow[] = [];
  try {
    const seed = readSeed(seedDir);
    for (const turns of sizes) {
      for (const planSeed of plans) {
        const plan = new WorkloadPlan(seed, planSeed);
        const figures: Record<string, Figures> = {};
        for (const name of ['reference', 'default']) {
          const strategy = STRATEGIES.find((candidate) => candidate.name === name)!;
          const run = await runStrategy({ strategy, turns, seedDir, plan, seed, tokenCounter: counter });
          figures[name] = figuresOf(run, prices, costFloor(run, prices));
        }
        const ours = figures.default!;
        rows.push({
          plan: planSeed,
          turns,
          reference_usd: figures.reference!.usd,
          default_usd: ours.usd,
          ratio: ours.usd / figures.reference!.usd,
          lost_needs: ours.lost_needs,
          reread_share: ours.reread_share,
          cache_read_share: ours.cache_read_share,
          overflows: ours.overflows
        });
        process.stderr.write(`plan ${planSeed} × ${turns}: ${rows.at(-1)!.ratio.toFixed(3)}x\n`);
      }
    }
  } finally {
    rmSync(seedDir, { recursive: true, force: true });
  }
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ rows }, null, 2)}\n`);
    return;
  }
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  process.stdout.write(
    '| plan | turns | reference | default | × reference | lost needs | reread share | cache reads | overflows |\n' +
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
  );
  for (const row of rows)
    process.stdout.write(
      `| ${row.plan === WORKLOAD_RANDOM_SEED ? `${row.plan} (published)` : row.plan} | ${row.turns} | $${row.reference_usd.toFixed(2)} | $${row.default_usd.toFixed(2)} | ${row.ratio.toFixed(3)} | ${row.lost_needs} | ${percent(row.reread_share)} | ${percent(row.cache_read_share)} | ${row.overflows} |\n`
    );
  for (const turns of sizes) {
    const ratios = rows.filter((row) => row.turns === turns).map((row) => row.ratio);
    const mean = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
    process.stdout.write(
      `\n${turns} turns, ${ratios.length} plans: mean ${mean.toFixed(3)}x, from ${Math.min(...ratios).toFixed(3)}x to ${Math.max(...ratios).toFixed(3)}x\n`
    );
  }
}

await main();
