/**
 * The box's cost per command: the median wall time of `true` through the bash tool's runner, plain
 * and in the box (network on: proxy channel, Perl bridge, bubblewrap), interleaved so that load on
 * the machine hits both alike. `npm run bench:sandbox`; `npm run bench` prints the same line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBox } from '../src/sandbox/box.js';
import { runBoundedCommand } from '../src/tools/bounded-command.js';
import { buildToolEnvironment } from '../src/tools/environment.js';
import type { CommandBox } from '../src/sandbox/command-box.js';

export interface SandboxOverhead {
  readonly plainMs: number;
  readonly boxedMs: number;
  readonly overheadMs: number;
  readonly runs: number;
}

export async function measureSandboxOverhead(runs = 30): Promise<SandboxOverhead | string> {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'compact-agent-bench-box-'));
  const env = buildToolEnvironment(process.env);
  const start = await startBox({ workspace, env: process.env, rules: [] });
  if (!start.ok) {
    rmSync(workspace, { recursive: true, force: true });
    return `no box here: ${start.reason}`;
  }
  const time = async (box: CommandBox | undefined) => {
    const started = performance.now();
    await runBoundedCommand('true', {
      cwd: workspace,
      env,
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      maxStreamChars: 1000,
      ...(box ? { box } : {})
    });
    return performance.now() - started;
  };
  const plain: number[] = [];
  const boxed: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      plain.push(await time(undefined));
      boxed.push(await time(start.box));
    }
  } finally {
    await start.box.close();
    rmSync(workspace, { recursive: true, force: true });
  }
  const plainMs = median(plain);
  const boxedMs = median(boxed);
  return { plainMs, boxedMs, overheadMs: boxedMs - plainMs, runs };
}

export function sandboxOverheadLine(result: SandboxOverhead | string): string {
  if (typeof result === 'string') return `sandbox overhead: ${result}`;
  return (
    `sandbox overhead per command (median of ${result.runs}): plain ${result.plainMs.toFixed(1)} ms, ` +
    `boxed ${result.boxedMs.toFixed(1)} ms, overhead ${result.overheadMs.toFixed(1)} ms (goal ≤ 50 ms)`
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(sandboxOverheadLine(await measureSandboxOverhead()));
}
