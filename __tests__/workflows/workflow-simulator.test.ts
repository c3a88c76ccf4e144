import { jest } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  reply,
  startFakeAnthropic,
  text,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import { startFakeArtifacts, type FakeArtifacts } from '../../test-support/fake-artifacts/index.js';
import { FastWriteGuard, startFakeGitHub, type FakeGitHub } from '../../test-support/fake-github/index.js';
import { expectNoContractViolations } from '../../test-support/github-contract/index.js';
import { expandMatrix } from '../../test-support/workflow-sim/matrix.js';
import { mostAtOnce } from '../../test-support/workflow-sim/runners.js';
import { WorkflowSimulator } from '../../test-support/workflow-sim/simulator.js';
import { createRepoWithRemote, type RepoWithRemote } from '../support/temp-repo.js';

/**
 * The workflow simulator proven on a small workflow of its own, before any fan-out role: the first
 * job's output feeds a `fromJSON` matrix, the matrix runs at most 2 at a time on 2 runners, a job
 * with `if: always()` runs after a failed one, a job without a status function is skipped after
 * it, and each job's token has its own permissions.
 */
jest.setTimeout(120_000);

const WORKFLOW = `
name: sim-check
on:
  workflow_dispatch:
    inputs:
      prompt:
        required: true
      fail:
        required: false
jobs:
  first:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    outputs:
      conclusion: \${{ steps.agent.outputs.conclusion }}
    steps:
      - uses: actions/checkout@v5
      - id: agent
        uses: compact-agent/compact-agent@v0
        with:
          prompt: \${{ inputs.prompt }}
          pr_type: branch
          anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}
  fan:
    needs: first
    if: needs.first.outputs.conclusion != ''
    runs-on: ubuntu-latest
    permissions:
      contents: read
    strategy:
      fail-fast: false
      max-parallel: 3
      matrix: \${{ fromJSON(format('{{"task":["{0}-a","{0}-b","{0}-c"]}}', needs.first.outputs.conclusion)) }}
    steps:
      - uses: actions/checkout@v5
      - uses: compact-agent/compact-agent@v0
        with:
          prompt: \${{ matrix.task }}
          # A bad input makes the action fail at once: the combination named by the input fails.
          max_turns: \${{ matrix.task == inputs.fail && 'many' || '5' }}
          pr_type: branch
          anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}
  after-all:
    needs: [first, fan]
    if: always() && needs.first.result == 'success'
    runs-on: ubuntu-latest
    permissions:
      issues: write
    steps:
      - uses: actions/checkout@v5
      - uses: compact-agent/compact-agent@v0
        with:
          prompt: after \${{ needs.fan.result }}
          pr_type: branch
          anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}
  only-on-success:
    needs: fan
    runs-on: ubuntu-latest
    steps:
      - uses: compact-agent/compact-agent@v0
        with:
          prompt: only on success
          pr_type: branch
          anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}
`;

let repo: RepoWithRemote;
let github: FakeGitHub;
let artifacts: FakeArtifacts;
let anthropic: FakeAnthropic;
let folder: string;

beforeEach(async () => {
  repo = createRepoWithRemote();
  folder = mkdtempSync(path.join(tmpdir(), 'workflow-sim-test-'));
  writeFileSync(path.join(folder, 'sim-check.yml'), WORKFLOW);
  github = await startFakeGitHub({ repo: { owner: 'octo', name: 'widgets' } });
  artifacts = await startFakeArtifacts();
  anthropic = await startFakeAnthropic({
    script: () => reply(text('Nothing to change.'))
  });
});
afterEach(async () => {
  await Promise.all([github.close(), artifacts.close(), anthropic.close()]);
  repo.remove();
  rmSync(folder, { recursive: true, force: true });
  expectNoContractViolations(github);
});

function simulator(): WorkflowSimulator {
  return new WorkflowSimulator({
    workflowFile: path.join(folder, 'sim-check.yml'),
    workflowPath: '.github/workflows/sim-check.yml',
    remote: repo.remote,
    github,
    artifacts,
    anthropicUrl: anthropic.url,
    secrets: { ANTHROPIC_API_KEY: 'sk-ant-test' }
  });
}

describe('the workflow simulator', () => {
  it('expands a fromJSON matrix from a job output, 2 at a time, and judges if: with the status functions', async () => {
    const sim = simulator();
    const run = await sim.dispatch({ prompt: 'Look around.', fail: 'success-b' });
    expect(run.jobs.first!.result).toBe('success');
    expect(run.jobs.first!.outputs.conclusion).toBe('success');
    const fan = run.jobs.fan!;
    expect(fan.instances.map((instance) => instance.name)).toEqual([
      'fan (success-a)',
      'fan (success-b)',
      'fan (success-c)'
    ]);
    expect(fan.instances.map((instance) => instance.result)).toEqual(['success', 'failure', 'success']);
    expect(fan.result).toBe('failure');
    // max-parallel 3, but only 2 runners.
    expect(mostAtOnce(sim.pool.timeline, (name) => name.startsWith('fan ('))).toBe(2);
    expect(run.jobs['after-all']!.result).toBe('success');
    expect(run.jobs['only-on-success']!.result).toBe('skipped');
    expect(run.conclusion).toBe('failure');
    // Every job had a token of its own, with its own permissions.
    const tokens = [run.jobs.first!, fan, run.jobs['after-all']!].flatMap((job) =>
      job.instances.map((instance) => instance.githubToken)
    );
    expect(new Set(tokens).size).toBe(5);
    expect(run.jobs['after-all']!.instances[0]!.permissions).toEqual({ issues: 'write' });
  });

  it('refuses a write beyond a job token’s permissions with GitHub’s 403', async () => {
    const sim = simulator();
    const run = await sim.dispatch({ prompt: 'Look around.' });
    const token = run.jobs.first!.instances[0]!.githubToken;
    const write = await fetch(`${github.url}/repos/octo/widgets/issues/1/comments`, {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'user-agent': 'test', 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'hi' })
    });
    expect(write.status).toBe(403);
    expect(((await write.json()) as { message: string }).message).toBe(
      'Resource not accessible by integration'
    );
    const read = await fetch(`${github.url}/repos/octo/widgets`, {
      headers: { authorization: `token ${token}`, 'user-agent': 'test' }
    });
    expect(read.status).toBe(200);
  });
});

describe('expandMatrix', () => {
  it('is GitHub’s order, with include and exclude; an empty vector is an error', () => {
    expect(
      expandMatrix(
        { a: [1, 2], b: ['x', 'y'], exclude: [{ a: 2, b: 'x' }], include: [{ a: 1, c: true }] },
        'j'
      )
    ).toEqual([
      { a: 1, b: 'x', c: true },
      { a: 1, b: 'y', c: true },
      { a: 2, b: 'y' }
    ]);
    expect(() => expandMatrix({ shard: [] }, 'shard')).toThrow(
      /matrix vector 'shard' does not contain any values/
    );
  });
});

describe('the fake GitHub’s secondary limit on writes', () => {
  it('refuses a write within a second of the last with a retry-after; a read goes through', () => {
    let now = 0;
    const guard = new FastWriteGuard({ minGapMs: 1000, retryAfterSeconds: 1, perMinute: 80 }, () => now);
    expect(guard.refuse('POST', '/repos/o/r/pulls')).toBeUndefined();
    now = 999;
    expect(guard.refuse('PATCH', '/repos/o/r/pulls/1')?.headers).toEqual({ 'retry-after': '1' });
    expect(guard.refuse('GET', '/repos/o/r/pulls')).toBeUndefined();
    now = 1000;
    expect(guard.refuse('PATCH', '/repos/o/r/pulls/1')).toBeUndefined();
  });

  it('refuses the 81st write in a minute until the oldest leaves it', () => {
    // No gap rule here: a second between writes alone allows only 60 a minute.
    let now = 0;
    const guard = new FastWriteGuard({ minGapMs: 0, retryAfterSeconds: 1, perMinute: 80 }, () => now);
    for (let write = 0; write < 80; write++) {
      now = write * 100;
      expect(guard.refuse('POST', '/repos/o/r/issues/1/comments')).toBeUndefined();
    }
    now = 8_000;
    const refused = guard.refuse('POST', '/repos/o/r/issues/1/comments');
    expect(refused?.status).toBe(403);
    expect(refused?.headers).toEqual({ 'retry-after': '52' });
    now = 60_000;
    expect(guard.refuse('POST', '/repos/o/r/issues/1/comments')).toBeUndefined();
    expect(guard.refuse('POST', '/repos/o/r/issues/1/comments')?.status).toBe(403);
  });
});
