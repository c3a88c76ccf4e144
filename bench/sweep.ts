/**
 * `npm run bench:sweep -- [--sizes 300,1000] [--models claude-sonnet-5-5,claude-haiku-4-5]
 *   [--thresholds 30000,50000,...] [--micro half|default] [--baselines reference,none,default]
 *   [--json] [--chart FILE]`
 *
 * The auto-compaction threshold sweep: for each model (the fake's window is the model's), the
 * reference and `none`, then ours at each threshold that fits the window, on the same workload with
 * its needs. With `--micro half` (the default) the micro floor is half the threshold, so the whole
 * context budget scales with one number; `--micro default` keeps the shipped floor.
 */
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { defaultCompactor, modelCompactionOptions } from '../src/agent/session.js';
import { compactionSettings } from '../src/compaction/settings.js';
import { resolveModelSpec, type ModelSpec } from '../src/config/models.js';
import { TokenCounter } from '../test-support/fake-anthropic/index.js';
import { costFloor, figuresOf, type Figures } from './figures.js';
import { runStrategy } from './run-strategy.js';
import { STRATEGIES, type Strategy } from './strategies/index.js';
import { sweepChartSvg, type SweepSeries } from './sweep-chart.js';
import { readSeed, stageSeed, WorkloadPlan } from './workload.js';

export const SWEEP_THRESHOLDS = [30_000, 50_000, 100_000, 150_000, 200_000, 300_000, 500_000, 800_000];
/** Room a summary needs under the window: min(max_output, 20k) + 13k (the notes' formula). */
const SUMMARY_ROOM = 33_000;

export interface SweepRow {
  readonly model: string;
  readonly window: number;
  readonly size: number;
  readonly strategy: string;
  readonly threshold: number | null;
  readonly micro_clear_at_least: number | null;
  readonly wall_s: number;
  readonly cost_vs_reference: number;
  readonly figures: Figures;
}

interface SweepArgs {
  readonly sizes: number[];
  readonly models: string[];
  readonly thresholds: number[];
  readonly micro: 'half' | 'default';
  /** Strategies run besides the thresholds; the reference always runs (the ratios are against it). */
  readonly baselines: string[];
  readonly json: boolean;
  readonly chart: string | undefined;
}

function parseSweepArgs(argv: readonly string[]): SweepArgs {
  const value = (flag: string) => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const numbers = (flag: string, fallback: string) => {
    const list = (value(flag) ?? fallback).split(',').map(Number);
    if (list.some((n) => !Number.isInteger(n) || n < 2))
      throw new Error(
        `${flag} takes whole numbers separated by commas, e.g. ${fallback}; got ${value(flag)}`
      );
    return list;
  };
  const micro = value('--micro') ?? 'half';
  if (micro !== 'half' && micro !== 'default')
    throw new Error(`--micro takes half (the floor is half the threshold) or default; got ${micro}`);
  const models = (value('--models') ?? 'claude-sonnet-5-5,claude-haiku-4-5').split(',');
  for (const model of models) resolveModelSpec(model); // throws a clear error for an unknown model
  const baselines = (value('--baselines') ?? 'reference,none,default').split(',');
  const unknown = baselines.filter((name) => !STRATEGIES.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`--baselines: unknown strategies ${unknown.join(', ')}`);
  return {
    sizes: numbers('--sizes', '300'),
    baselines: ['reference', ...baselines.filter((name) => name !== 'reference')],
    models,
    thresholds: numbers('--thresholds', SWEEP_THRESHOLDS.join(',')),
    micro,
    json: argv.includes('--json'),
    chart: value('--chart')
  };
}

function thresholdStrategy(threshold: number, micro: SweepArgs['micro']): Strategy {
  const overrides = {
    thresholdTokens: threshold,
    ...(micro === 'half' ? { microClearAtLeast: Math.floor(threshold / 2) } : {})
  };
  return {
    name: `t${threshold / 1000}k`,
    description: `ours, threshold ${threshold}${micro === 'half' ? `, micro floor ${threshold / 2}` : ''}`,
    build: (parts, now) => defaultCompactor(parts, now, overrides)
  };
}

/**
 * The threshold and micro floor a row ran with: a threshold point's own (its floor half of it, or
 * what the shipped rule derives from it: 3/10), the `default` baseline's from the shipped rule for
 * the model, and none for the reference and `none`.
 */
export function settingsOfRow(
  strategy: string,
  threshold: number | null,
  micro: SweepArgs['micro'],
  spec: ModelSpec
): { threshold: number | null; microFloor: number | null } {
  if (threshold !== null && micro === 'half') return { threshold, microFloor: Math.floor(threshold / 2) };
  if (threshold === null && strategy !== 'default') return { threshold: null, microFloor: null };
  const settings = compactionSettings({
    ...modelCompactionOptions(spec, spec.maxOutputTokens),
    ...(threshold !== null ? { thresholdTokens: threshold } : {})
  });
  return { threshold: settings.thresholdTokens, microFloor: settings.micro.clearAtLeast };
}

async function main(): Promise<void> {
  const args = parseSweepArgs(process.argv.slice(2));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const seedDir = stageSeed();
  const tokenCounter = new TokenCounter({ maxEntries: 200_000 });
  const rows: SweepRow[] = [];
  const started = Date.now();
  try {
    const seed = readSeed(seedDir);
    const plan = new WorkloadPlan(seed);
    for (const model of args.models) {
      const spec = resolveModelSpec(model);
      const fitting = args.thresholds.filter((t) => t <= spec.contextWindow - SUMMARY_ROOM);
      const strategies: Array<{ strategy: Strategy; threshold: number | null }> = [
        ...args.baselines.map((name) => ({
          strategy: STRATEGIES.find((s) => s.name === name)!,
          threshold: null
        })),
        ...fitting.map((threshold) => ({ strategy: thresholdStrategy(threshold, args.micro), threshold }))
      ];
      for (const size of args.sizes) {
        const sized: Array<Omit<SweepRow, 'cost_vs_reference'>> = [];
        for (const { strategy, threshold } of strategies) {
          const runStarted = Date.now();
          const run = await runStrategy({ strategy, turns: size, seedDir, plan, seed, tokenCounter, model });
          const wall = (Date.now() - runStarted) / 1000;
          const figures = figuresOf(run, spec.prices, costFloor(run, spec.prices));
          log(
            `${model} ${strategy.name} × ${size}: $${figures.usd.toFixed(2)}, reread ${(figures.reread_share * 100).toFixed(1)}%, lost ${figures.lost_needs}, ${wall.toFixed(1)} s`
          );
          const ran = settingsOfRow(strategy.name, threshold, args.micro, spec);
          sized.push({
            model,
            window: spec.contextWindow,
            size,
            strategy: strategy.name,
            threshold: ran.threshold,
            micro_clear_at_least: ran.microFloor,
            wall_s: wall,
            figures
          });
        }
        const reference = sized.find((row) => row.strategy === 'reference')!.figures.usd;
        rows.push(...sized.map((row) => ({ ...row, cost_vs_reference: row.figures.usd / reference })));
      }
    }
    if (args.chart) {
      const series: SweepSeries[] = args.models.flatMap((model) =>
        args.sizes.map((size) => ({
          name: `${model} (${resolveModelSpec(model).contextWindow / 1000}k), ${size} turns`,
          points: rows
            .filter((row) => row.model === model && row.size === size && row.threshold !== null)
            .map((row) => ({
              threshold: row.threshold!,
              costRatio: row.cost_vs_reference,
              rereadShare: row.figures.reread_share,
              lostNeeds: row.figures.lost_needs
            }))
        }))
      );
      writeFileSync(
        args.chart,
        sweepChartSvg(
          series,
          `Cost and re-reads against the auto-compaction threshold (${microTitle(args.micro)})`
        )
      );
    }
    const meta = {
      micro: args.micro,
      machine: `${os.cpus()[0]?.model ?? 'unknown cpu'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      wall_s: (Date.now() - started) / 1000
    };
    if (args.json) process.stdout.write(`${JSON.stringify({ ...meta, rows }, null, 2)}\n`);
    else process.stdout.write(`${sweepTable(rows)}\n`);
  } finally {
    rmSync(seedDir, { recursive: true, force: true });
  }
}

export function microTitle(micro: SweepArgs['micro']): string {
  return micro === 'half' ? 'micro floor = threshold / 2' : 'micro floor as shipped: 3/10 of the threshold';
}

/** The markdown table docs/benchmarks/threshold.md shows. */
export function sweepTable(rows: readonly SweepRow[]): string {
  const header =
    '| model (window) | turns | strategy | threshold | micro floor | USD | × reference | reread share | extra turns | lost needs (kinds) | cache read | overflows | summaries | peak context | wall s |';
  const lines = rows.map((row) => {
    const f = row.figures;
    const lostKinds = Object.entries(f.needs_by_kind)
      .filter(([, counts]) => counts.lost > 0)
      .map(([kind, counts]) => `${kind} ${counts.lost}`)
      .join(', ');
    const count = (n: number | null) => (n === null ? '' : n.toLocaleString('en-US'));
    const strategy = row.strategy === 'default' ? 'default (rule)' : row.strategy;
    return `| ${row.model} (${row.window / 1000}k) | ${row.size}${f.first_overflow_turn === null ? '' : ` (overflow at ${f.first_overflow_turn})`} | ${strategy} | ${count(row.threshold)} | ${count(row.micro_clear_at_least)} | $${f.usd.toFixed(2)} | ${row.cost_vs_reference.toFixed(2)} | ${(f.reread_share * 100).toFixed(1)}% | ${f.extra_turns} | ${f.lost_needs}${lostKinds ? ` (${lostKinds})` : ''} | ${(f.cache_read_share * 100).toFixed(1)}% | ${f.overflows} | ${(f.compactions_by_layer.auto ?? 0) + (f.compactions_by_layer.manual ?? 0)} | ${count(f.peak_context)} | ${row.wall_s.toFixed(0)} |`;
  });
  return [header, `|${'---|'.repeat(15)}`, ...lines].join('\n');
}

if (process.argv[1]?.endsWith('sweep.ts')) {
  main().catch((error: unknown) => {
    process.stderr.write(`sweep failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
