import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FanoutInputError } from '../../src/fanout/fanout-error.js';
import { resumeFanout, startFanout, type FanoutOptions } from '../../src/fanout/fanout-run.js';
import { FanoutState } from '../../src/fanout/fanout-state.js';
import type { ShardAgent, ShardAgentRun } from '../../src/fanout/shard-agent.js';
import type { ShardResult } from '../../src/fanout/shard-result.js';
import { unboxedValidation } from '../../src/fanout/validation.js';
import { newRunId } from '../../src/agent/run-id.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

/**
 * A resume's spend and trust (security review E, finding 7b and 7c), through the engine with a
 * scripted agent: a lost ledger, two runs of one folder at once, and results edited in the folder.
 */
let repo: TempRepo;
let stateDir: string;
let calls: ShardAgentRun[];
/** Per shard: what its next run costs and how it ends. */
let plays: Map<string, { costUsd: number; stopReason: 'success' | 'error_during_execution' }>;

const agent: ShardAgent = (run) => {
  calls.push(run);
  const play = plays.get(run.shardId) ?? { costUsd: 0.1, stopReason: 'success' as const };
  const file = run.shardId === 'shard-01' ? 'a.txt' : 'b.txt';
  writeFileSync(path.join(run.workdir, file), `new ${run.shardId}\n`);
  const runDir = path.join(run.transcriptsDir, newRunId());
  return Promise.resolve({ ...play, error: undefined, runDir });
};

const options = (): FanoutOptions => ({
  repoDir: repo.root,
  env: { PATH: process.env.PATH },
  signal: new AbortController().signal,
  agent,
  parallel: 1,
  policy: 'per-shard',
  identity: { name: 'T', email: 't@example.com' },
  origin: { repository: repo.root, workflow: 'test' },
  validation: unboxedValidation({ PATH: process.env.PATH })
});

beforeEach(async () => {
  repo = createTempRepo();
  repo.write('a.txt', 'old\n');
  repo.write('b.txt', 'old\n');
  repo.write('.gitignore', 'state/\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'seed');
  stateDir = path.join(repo.root, 'state');
  calls = [];
  plays = new Map([
    ['shard-01', { costUsd: 0.9, stopReason: 'success' }],
    ['shard-02', { costUsd: 0.5, stopReason: 'error_during_execution' }]
  ]);
  await startFanout(
    {
      prompt: 'Make each file say new.',
      unitSource: { kind: 'globs', patterns: ['*.txt'] },
      grouping: { by: 'count', size: 1 },
      totalCapUsd: 2,
      validationRetries: 0,
      stateDir
    },
    options()
  );
  calls = [];
  plays.set('shard-01', { costUsd: 0.1, stopReason: 'success' });
  plays.set('shard-02', { costUsd: 0.1, stopReason: 'success' });
});
afterEach(() => repo.remove());

const resultFile = (shard: string) => path.join(stateDir, 'results', `${shard}.json`);
const editResult = (shard: string, edit: (result: ShardResult) => ShardResult) =>
  writeFileSync(
    resultFile(shard),
    JSON.stringify(edit(JSON.parse(readFileSync(resultFile(shard), 'utf8')) as ShardResult))
  );

describe('resuming a fan-out', () => {
  it('counts the results’ costs as spent when the ledger is gone, never the whole cap again', async () => {
    rmSync(path.join(stateDir, 'ledger.jsonl'));
    const rollup = await resumeFanout(stateDir, options());
    expect(calls.map((call) => call.shardId)).toEqual(['shard-02']);
    // $2 cap, $0.90 + $0.50 spent as the results say: $0.60 left for the one shard run again.
    expect(calls[0]!.budgetUsd).toBeCloseTo(0.6, 6);
    expect(rollup.rows.map((row) => row.status)).toEqual(['landed', 'landed']);
  });

  it('refuses a ledger that exists but cannot be read', async () => {
    rmSync(path.join(stateDir, 'ledger.jsonl'));
    mkdirSync(path.join(stateDir, 'ledger.jsonl'));
    await expect(resumeFanout(stateDir, options())).rejects.toThrow(
      /ledger\.jsonl cannot be read .*what this fan-out spent is unknown/
    );
    expect(calls).toEqual([]);
  });

  it('refuses a second run of the folder while one holds it, naming the lock file', async () => {
    const unlock = new FanoutState(stateDir, repo.root).lock();
    try {
      const second = resumeFanout(stateDir, options());
      await expect(second).rejects.toThrow(FanoutInputError);
      await expect(second).rejects.toThrow(
        `Another compact-agent fanout is using ${stateDir} (process ${process.pid}`
      );
      await expect(second).rejects.toThrow(`remove the lock file ${path.join(stateDir, 'lock')}`);
      expect(calls).toEqual([]);
    } finally {
      unlock();
    }
    // Given back, the folder resumes; and each run gives it back when it ends.
    await resumeFanout(stateDir, options());
    await resumeFanout(stateDir, options());
    expect(calls.map((call) => call.shardId)).toEqual(['shard-02']);
  });

  it('checks a result against its shard’s share of the cap, not the whole cap', async () => {
    // Within the whole cap ($2), but more than the $1 shard-01 was ever given.
    editResult('shard-01', (result) => ({ ...result, budgetUsd: 1.9, costUsd: 0.95 }));
    await resumeFanout(stateDir, options());
    // Not trusted, so run again with the rest of the cap.
    expect(calls.map((call) => call.shardId)).toEqual(['shard-01', 'shard-02']);
  });

  it('runs again a result made on another line of history, or naming a run folder that is no run id', async () => {
    repo.git('checkout', '-qb', 'elsewhere');
    repo.write('c.txt', 'other\n');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'elsewhere');
    const other = repo.git('rev-parse', 'HEAD').trim();
    repo.git('checkout', '-q', 'main');
    editResult('shard-01', (result) => ({ ...result, base: other }));
    await resumeFanout(stateDir, options());
    expect(calls.map((call) => call.shardId)).toEqual(['shard-01', 'shard-02']);
    calls = [];
    editResult('shard-01', (result) => ({ ...result, runs: ['../../../../etc'] }));
    await resumeFanout(stateDir, options());
    expect(calls.map((call) => call.shardId)).toEqual(['shard-01']);
  });
});
