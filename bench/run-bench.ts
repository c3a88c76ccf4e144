/**
 * `npm run bench [-- --json] [--sizes 100,300,1000] [--strategies none,reference,default] [--chart FILE]`
 *
 * Replays one scripted agent session over real code (sources from node_modules) for each compaction
 * strategy, through the real loop and compaction code, against the fake Anthropic API with its
 * prompt-cache model on a simulated clock; prints the figures as a table, or as one JSON object.
 */
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { resolveModelSpec } from '../src/config/models.js';
import { COMPACTION_DEFAULTS } from '../src/compaction/settings.js';
import { TokenCounter } from '../test-support/fake-anthropic/index.js';
import { measureCompactionCpu } from './cpu.js';
import { costFloor, figuresOf, type Figures } from './figures.js';
import { benchJson, contextChartSvg, renderTable, type Results } from './report.js';
import { runStrategy, type RunRecord } from './run-strategy.js';
import { STRATEGIES } from './strategies/index.js';
import { parseBenchArgs } from './args.js';
import { measureSandboxOverhead, sandboxOverheadLine } from './sandbox-overhead.js';
import { readSeed, stageSeed, WorkloadPlan } from './workload.js';

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const seedDir = stageSeed();
  const prices = resolveModelSpec('claude-sonnet-5-5').prices;
  const counter = new TokenCounter({ maxEntries: 200_000 });
  try {
    const seed = readSeed(seedDir);
    const plan = new WorkloadPlan(seed);
    const runs: RunRecord[] = [];
    for (const size of args.sizes) {
      for (const name of args.strategies) {
        const strategy = STRATEGIES.find((candidate) => candidate.name === name)!;
        const started = Date.now();
        const run = await runStrategy({ strategy, turns: size, seedDir, plan, seed, tokenCounter: counter });
        runs.push(run);
        log(
          `${name} × ${size} turns: ${run.agentTurns} turns, ${run.stopReason}, ${((Date.now() - started) / 1000).toFixed(1)} s`
        );
      }
    }
    log('compaction CPU at 150k tokens ...');
    const cpu = await measureCompactionCpu(
      seed.filter((file) => /\.(?:js|ts)$/.test(file.path) && file.text.length > 2000),
      counter
    );

    const results: Results = {};
    for (const size of args.sizes) {
      const atSize = runs.filter((run) => run.turns === size);
      // The floor of a size: the cheapest any strategy's own content could be written once.
      const floor = Math.min(
        ...atSize.filter((run) => run.strategy !== 'none').map((run) => costFloor(run, prices))
      );
      for (const run of atSize) {
        // A run cut short by an overflow is measured against its own, shorter floor.
        const own = run.firstOverflowTurn !== undefined || !Number.isFinite(floor);
        const figures: Figures = figuresOf(run, prices, own ? costFloor(run, prices) : floor);
        figures.cpu_ms_p50 = cpu[run.strategy]?.p50 ?? null;
        figures.cpu_ms_p95 = cpu[run.strategy]?.p95 ?? null;
        (results[run.strategy] ??= {})[String(size)] = figures;
      }
    }
    const largest = Math.max(...args.sizes);
    if (args.chart) {
      const series = runs
        .filter((run) => run.turns === largest)
        .map((run) => ({
          name: run.strategy,
          points: run.requests
            .filter((record) => record.kind === 'agent')
            .map((record) => record.promptTokens)
        }));
      writeFileSync(args.chart, contextChartSvg(series, `Context tokens per turn, ${largest}-turn workload`));
    }
    const meta = {
      model: 'claude-sonnet-5-5',
      prices,
      defaults: COMPACTION_DEFAULTS,
      machine: `${os.cpus()[0]?.model ?? 'unknown cpu'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      seed_files: seed.length,
      cpu_history_tokens: cpu.default?.historyTokens ?? null
    };
    // The box's cost per command (bench/sandbox-overhead.ts), measured on the same machine.
    const sandbox = sandboxOverheadLine(await measureSandboxOverhead());
    if (args.json) {
      process.stdout.write(`${benchJson(results, meta)}\n`);
      log(sandbox);
    } else process.stdout.write(`${renderTable(results)}\n${sandbox}\n`);
  } finally {
    rmSync(seedDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
