import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GitRepository } from '../../src/git/repository.js';
import type { FanoutManifest } from '../../src/fanout/manifest.js';
import type { ShardAgent, ShardAgentRun } from '../../src/fanout/shard-agent.js';
import { runShard } from '../../src/fanout/shard-run.js';
import { unboxedValidation } from '../../src/fanout/validation.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

let repo: TempRepo;
let git: GitRepository;
let base: string;

beforeEach(async () => {
  repo = createTempRepo();
  repo.write('a.txt', 'old\n');
  repo.write('b.txt', 'old\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'seed');
  git = new GitRepository(repo.root);
  base = await git.head();
});
afterEach(() => repo.remove());

const manifest = (validationCommand: string | undefined, validationRetries: number): FanoutManifest => ({
  version: 1,
  planId: 'abcdef12',
  origin: { repository: repo.root, workflow: 'test' },
  prompt: 'Make a.txt say new.',
  unitSource: { kind: 'globs', patterns: ['a.txt'] },
  unitsBefore: 1,
  totalCapUsd: 1,
  ...(validationCommand ? { validationCommand } : {}),
  validationRetries,
  shards: [{ id: 'shard-01', paths: ['a.txt'], budgetUsd: 1 }]
});

/** An in-memory agent: each call writes what `contents` gives for that attempt, and costs `cost`. */
function scriptedAgent(
  contents: readonly string[],
  cost = 0.1,
  stopReason: 'success' | 'error_max_budget_usd' = 'success'
) {
  const calls: ShardAgentRun[] = [];
  const agent: ShardAgent = (run) => {
    calls.push(run);
    writeFileSync(path.join(run.workdir, 'a.txt'), contents[calls.length - 1] ?? 'new\n');
    return Promise.resolve({ stopReason, costUsd: cost, error: undefined, runDir: `run-${calls.length}` });
  };
  return { agent, calls };
}

const shardRun = (plan: FanoutManifest, agent: ShardAgent, spends: number[] = []) =>
  runShard({
    repo: git,
    base,
    manifest: plan,
    shard: plan.shards[0]!,
    budgetUsd: 0.5,
    agent,
    transcriptsDir: repo.root,
    validation: unboxedValidation({ PATH: process.env.PATH }),
    validationTimeoutMs: 60_000,
    signal: new AbortController().signal,
    onSpend: (cost) => spends.push(cost)
  });

describe('runShard', () => {
  it('gives a failing validation’s errors back to the agent, and is done once it passes', async () => {
    const { agent, calls } = scriptedAgent(['broken\n', 'new\n']);
    const spends: number[] = [];
    const result = await shardRun(
      manifest('grep -q new a.txt || { echo "a.txt still says: $(cat a.txt)"; exit 1; }', 2),
      agent,
      spends
    );
    expect(result).toMatchObject({
      status: 'done',
      stopReason: 'success',
      files: ['a.txt'],
      validation: { passed: true, attempts: 2 }
    });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.task).toContain('<fanout-shard id="shard-01" of="1">');
    expect(calls[1]!.task).toMatch(
      /the validation command failed:[\s\S]*exited with code 1[\s\S]*a\.txt still says: broken/
    );
    // The second run spends from what is left of the shard's budget.
    expect(calls[1]!.budgetUsd).toBeCloseTo(0.4, 10);
    expect(result.costUsd).toBeCloseTo(0.2, 10);
    expect(spends).toEqual([0.1, 0.1]);
    expect(result.patch).toContain('+new');
    // The worktree is gone; the repository's own files are untouched.
    expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(readFileSync(path.join(repo.root, 'a.txt'), 'utf8')).toBe('old\n');
  });

  it('fails when the validation still fails after the retries, keeping the last errors', async () => {
    const { agent, calls } = scriptedAgent(['broken\n', 'still broken\n']);
    const result = await shardRun(manifest('grep -q new a.txt', 1), agent);
    expect(calls).toHaveLength(2);
    expect(result).toMatchObject({
      status: 'failed',
      stopReason: 'validation_failed',
      validation: { passed: false, attempts: 2, lastFailure: expect.stringMatching(/exited with code 1/) }
    });
  });

  it('is over-budget when its agent stopped on the budget, and failed when the agent threw', async () => {
    const { agent } = scriptedAgent(['new\n'], 0.6, 'error_max_budget_usd');
    expect(await shardRun(manifest(undefined, 0), agent)).toMatchObject({
      status: 'over-budget',
      stopReason: 'error_max_budget_usd'
    });
    const throwing: ShardAgent = () => Promise.reject(new Error('the model is unreachable'));
    expect(await shardRun(manifest(undefined, 0), throwing)).toMatchObject({
      status: 'failed',
      error: 'the model is unreachable'
    });
  });
});
