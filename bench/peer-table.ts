/**
 * `npx tsx bench/peer-table.ts OURS A.json [B.json ...]`: the peer table of docs/benchmarks/thinking-and-peers.md from the
 * JSON of one or more `npm run -s bench -- --json` runs: for each size, every strategy's cost,
 * cache reads, lost needs, re-read share and thinking_kept_share, and the cost of OURS over each.
 */
import { readFileSync } from 'node:fs';
import type { Figures } from './figures.js';

type Runs = Record<string, Record<string, Figures>>;

function merged(files: readonly string[]): Runs {
  const runs: Runs = {};
  for (const file of files) {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { strategies?: Runs };
    if (!parsed.strategies) throw new Error(`${file} is not the JSON of npm run -s bench -- --json`);
    for (const [name, sizes] of Object.entries(parsed.strategies)) Object.assign((runs[name] ??= {}), sizes);
  }
  return runs;
}

export function peerTable(runs: Runs, ours: string): string {
  const sizes = [...new Set(Object.values(runs).flatMap((sizes) => Object.keys(sizes)))].sort(
    (a, b) => Number(a) - Number(b)
  );
  const lines = [
    `| strategy | turns | USD | ${ours} ÷ it | cache reads (tokens) | read share | lost needs | reread share | thinking_kept_share | thinking stripped (tokens) | summary share | peak context |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |'
  ];
  for (const size of sizes) {
    const base = runs[ours]?.[size];
    for (const [name, bySize] of Object.entries(runs)) {
      const f = bySize[size];
      if (!f) continue;
      const ratio = base ? (base.usd / f.usd).toFixed(2) : 'n/a';
      lines.push(
        `| ${name} | ${size}${f.overflows > 0 ? ` (${f.overflows} overflows)` : ''} | $${f.usd.toFixed(2)} | ${ratio} | ${f.tokens.cache_read.toLocaleString('en-US')} | ${(f.cache_read_share * 100).toFixed(1)}% | ${f.lost_needs} | ${(f.reread_share * 100).toFixed(1)}% | ${f.thinking_kept_share.toFixed(2)} | ${f.thinking_stripped_tokens.toLocaleString('en-US')} | ${(f.summary_share * 100).toFixed(2)}% | ${f.peak_context.toLocaleString('en-US')} |`
      );
    }
  }
  return lines.join('\n');
}

const [ours, ...files] = process.argv.slice(2);
if (!ours || files.length === 0) {
  process.stderr.write('usage: npx tsx bench/peer-table.ts OURS_STRATEGY run.json [run.json ...]\n');
  process.exitCode = 2;
} else {
  process.stdout.write(`${peerTable(merged(files), ours)}\n`);
}
