/**
 * `npm run bench:fanout [-- --units 200] [--shards 1,4,8,16] [--json]`
 *
 * The same refactor of N units (a deprecated call replaced in every file) as one long run and as
 * 4, 8 and 16 shards, through the real fan-out engine (plan, worktrees, scope guard, landing,
 * re-scan), the real agent loop and compaction, against the fake Anthropic API with its prompt-cache
 * model. The model is the bench's scripted refactorer (fanout-workload.ts). Shards run one after
 * another here; the wall time is that of all shards side by side (one runner each), on the
 * simulated clock of fanout-latency.ts. Cost is what the runs' own accounting says.
 */
import { rmSync } from 'node:fs';
import { startFanout } from '../src/fanout/fanout-run.js';
import { unboxedValidation } from '../src/fanout/validation.js';
import type { ShardAgent } from '../src/fanout/shard-agent.js';
import { parseAgentConfig } from '../src/config/inputs.js';
import { runSession } from '../src/agent/session.js';
import { newRunId } from '../src/agent/run-id.js';
import { AnthropicModelClient } from '../src/model/anthropic-client.js';
import { createPromptCache, startFakeAnthropic, TokenCounter } from '../test-support/fake-anthropic/index.js';
import { readSeed, stageSeed } from './workload.js';
import { callSeconds, LATENCY, wallSeconds, type CallTokens } from './fanout-latency.js';
import { createUnitRepository, refactorModel, UNIT_COMMAND, type RefactorTally } from './fanout-workload.js';

const MODEL = 'claude-sonnet-5-5';
const CAP_USD = 400;

interface FanoutFigures {
  readonly shards: number;
  /** Every shard side by side, each job's start included. */
  readonly wallSeconds: number;
  /** The same without the jobs' start: the model's time alone. */
  readonly modelSeconds: number;
  readonly costUsd: number;
  readonly modelCalls: number;
  readonly compactionSummaries: number;
  readonly refetches: number;
  readonly edits: number;
  readonly unitsLeft: number | undefined;
  readonly landed: number;
}

async function measure(
  units: number,
  shards: number,
  counter: TokenCounter,
  seedDir: string
): Promise<FanoutFigures> {
  const repo = createUnitRepository(readSeed(seedDir), units);
  let clock = Date.UTC(2026, 10, 28, 9);
  const tally: RefactorTally = { edits: 0, refetches: 0, summaries: 0 };
  const model = refactorModel(tally);
  const cache = createPromptCache();
  let currentShard = 'none';
  const callShard = new Map<number, string>();
  const callInput = new Map<number, Omit<CallTokens, 'output'>>();
  const fake = await startFakeAnthropic({
    recordBodies: false,
    tokenCounter: counter,
    clock: () => clock,
    script: (request) => model(request),
    usageModel: (sent) => {
      const usage = cache(sent);
      callShard.set(sent.callIndex, currentShard);
      callInput.set(sent.callIndex, {
        input: usage.input_tokens,
        cacheWrite: usage.cache_creation_input_tokens,
        cacheRead: usage.cache_read_input_tokens
      });
      // The call's own time moves the clock the cache's TTL runs on (its output is added below).
      clock += callSeconds({ ...callInput.get(sent.callIndex)!, output: 0 }) * 1000;
      return usage;
    }
  });
  const agent: ShardAgent = async (run) => {
    const inputs: Record<string, string> = {
      model: MODEL,
      max_turns: String(4 * units + 50),
      max_budget_usd: String(run.budgetUsd),
      timeout_minutes: '30000',
      sandbox: 'off'
    };
    const config = parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'bench-key' });
    const outcome = await runSession({
      config,
      task: run.task,
      repoDir: run.workdir,
      transcriptsDir: run.transcriptsDir,
      runId: newRunId(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      model: new AnthropicModelClient({ apiKey: 'bench-key', baseURL: fake.url, retryBaseDelayMs: 1 }),
      now: () => clock
    });
    return {
      stopReason: outcome.result.stopReason,
      costUsd: outcome.result.costUsd,
      error: outcome.result.error,
      runDir: outcome.runDir
    };
  };
  try {
    const rollup = await startFanout(
      {
        prompt: `Replace every call of legacyFetch( with modernFetch( in the units; change nothing else.`,
        unitSource: { kind: 'command', command: UNIT_COMMAND },
        grouping: { by: 'count', size: Math.ceil(units / shards) },
        totalCapUsd: CAP_USD,
        validationRetries: 0
      },
      {
        repoDir: repo,
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
        signal: new AbortController().signal,
        agent,
        parallel: 1,
        policy: 'combined',
        identity: { name: 'Bench', email: 'bench@example.com' },
        origin: { repository: repo, workflow: 'bench' },
        // The bench's shards are scripted (no model writes code): its validation and re-scan run on the host.
        validation: unboxedValidation({ PATH: process.env.PATH, HOME: process.env.HOME }),
        onProgress: (line) => {
          const started = /^(shard-\d+): started/.exec(line);
          if (started) currentShard = started[1]!;
        }
      }
    );
    const perShard = new Map<string, number>();
    for (const record of fake.requests) {
      if (record.callIndex === null || record.response?.kind !== 'message') continue;
      const input = callInput.get(record.callIndex);
      const shard = callShard.get(record.callIndex);
      if (!input || !shard) continue;
      const seconds = callSeconds({ ...input, output: record.response.usage.output_tokens });
      perShard.set(shard, (perShard.get(shard) ?? 0) + seconds);
    }
    return {
      shards: rollup.rows.length,
      wallSeconds: wallSeconds(
        [...perShard.values()].map((seconds) => seconds + LATENCY.jobStartSeconds),
        rollup.rows.length
      ),
      modelSeconds: wallSeconds([...perShard.values()], rollup.rows.length),
      costUsd: rollup.spentUsd,
      modelCalls: callInput.size,
      compactionSummaries: tally.summaries,
      refetches: tally.refetches,
      edits: tally.edits,
      unitsLeft: rollup.unitsAfter,
      landed: rollup.rows.filter((row) => row.status === 'landed').length
    };
  } finally {
    await fake.close();
    rmSync(repo, { recursive: true, force: true });
  }
}

function table(rows: readonly FanoutFigures[], units: number): string {
  const one = rows.find((row) => row.shards === 1) ?? rows[0]!;
  const lines = [
    `| shards | wall time (simulated) | speed-up | model time alone | cost | cost vs one run | model calls | compaction summaries | re-reads | units left after |`,
    `|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
    ...rows.map(
      (row) =>
        `| ${row.shards} | ${(row.wallSeconds / 60).toFixed(1)} min | ${(one.wallSeconds / row.wallSeconds).toFixed(1)}x | ` +
        `${(row.modelSeconds / 60).toFixed(1)} min | ` +
        `$${row.costUsd.toFixed(2)} | ${(row.costUsd / one.costUsd).toFixed(2)}x | ${row.modelCalls} | ` +
        `${row.compactionSummaries} | ${row.refetches} | ${row.unitsLeft ?? 'scan failed'} of ${units} |`
    )
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const value = (flag: string) => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const units = Number(value('--units') ?? 200);
  const shardCounts = (value('--shards') ?? '1,4,8,16').split(',').map(Number);
  if (
    !Number.isInteger(units) ||
    units < 2 ||
    shardCounts.some((count) => !Number.isInteger(count) || count < 1)
  )
    throw new Error(
      '--units takes a whole number of at least 2, --shards whole numbers of at least 1, e.g. --shards 1,8'
    );
  const seedDir = stageSeed();
  const counter = new TokenCounter({ maxEntries: 200_000 });
  const rows: FanoutFigures[] = [];
  try {
    for (const shards of shardCounts) {
      const started = Date.now();
      rows.push(await measure(units, shards, counter, seedDir));
      process.stderr.write(
        `${shards} shard(s): done in ${((Date.now() - started) / 1000).toFixed(1)} s of real time\n`
      );
    }
  } finally {
    rmSync(seedDir, { recursive: true, force: true });
  }
  if (argv.includes('--json'))
    process.stdout.write(`${JSON.stringify({ units, latency: LATENCY, rows }, null, 2)}\n`);
  else process.stdout.write(`${table(rows, units)}\n`);
}

await main();
