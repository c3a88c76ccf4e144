/**
 * The decisions of the fan-out roles, on their own: the plan job's outputs (waves of 256, a pilot,
 * nothing left to run), a resume's re-plan (what runs again, with what is left of the cap), the plan's
 * owner from the runner's variables, and the artifacts' contents checked where they enter (through
 * an in-memory artifact store standing in for @actions/artifact).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EarlierRun, FanoutArtifacts } from '../../src/artifacts/fanout-artifacts.js';
import { readPlan, readShardResults, uploadPlan } from '../../src/artifacts/fanout-contents.js';
import { fanoutOrigin } from '../../src/action/fanout/fanout-job.js';
import { planOutputs } from '../../src/action/fanout/plan-role.js';
import { FanoutInputError } from '../../src/fanout/fanout-error.js';
import { MANIFEST_VERSION, type FanoutManifest } from '../../src/fanout/manifest.js';
import { replan } from '../../src/fanout/replan.js';
import type { ShardResult } from '../../src/fanout/shard-result.js';

const ORIGIN = { repository: 'octo/repo', workflow: '.github/workflows/fanout.yml' };

function manifest(shards: number, budgetUsd = 1, cap = shards * budgetUsd): FanoutManifest {
  return {
    version: MANIFEST_VERSION,
    planId: 'abcdef123456',
    origin: ORIGIN,
    prompt: 'Replace oldApi.',
    unitSource: { kind: 'command', command: 'git grep -l oldApi' },
    unitsBefore: shards,
    totalCapUsd: cap,
    validationRetries: 1,
    shards: Array.from({ length: shards }, (_, index) => ({
      id: `shard-${String(index + 1).padStart(3, '0')}`,
      paths: [`src/f${index + 1}.ts`],
      budgetUsd
    }))
  };
}

function result(
  shardId: string,
  status: ShardResult['status'],
  costUsd: number,
  extra: Partial<ShardResult> = {}
): ShardResult {
  return {
    shardId,
    planId: 'abcdef123456',
    status,
    base: 'a'.repeat(40),
    costUsd,
    budgetUsd: 1,
    stopReason: status === 'done' ? 'success' : 'error_during_execution',
    files: [],
    refusedPaths: [],
    runs: [],
    patch: '',
    ...extra
  };
}

describe("the plan job's outputs", () => {
  const ids = (count: number) => manifest(count).shards.map((shard) => shard.id);

  it('start every shard when they fit one matrix', () => {
    const outputs = planOutputs({
      manifest: manifest(3),
      carried: new Map(),
      ledger: [],
      toRun: ids(3),
      startNow: 3
    });
    expect(outputs).toEqual({
      planId: 'abcdef123456',
      matrix: '{"shard":["shard-001","shard-002","shard-003"]}',
      shardCount: 3,
      wavesLeft: 0
    });
  });

  it('start 256 and leave the rest to waves a resume runs', () => {
    const outputs = planOutputs({
      manifest: manifest(600),
      carried: new Map(),
      ledger: [],
      toRun: ids(600),
      startNow: 600
    });
    expect(outputs.shardCount).toBe(256);
    expect((JSON.parse(outputs.matrix) as { shard: string[] }).shard).toHaveLength(256);
    expect(outputs.wavesLeft).toBe(2);
  });

  it('start only the pilot, the sweep left for a resume', () => {
    const outputs = planOutputs({
      manifest: manifest(10),
      carried: new Map(),
      ledger: [],
      toRun: ids(10),
      startNow: 2
    });
    expect(outputs.matrix).toBe('{"shard":["shard-001","shard-002"]}');
    expect(outputs.shardCount).toBe(2);
    expect(outputs.wavesLeft).toBe(1);
  });

  it('say 0 with an empty matrix when nothing is left to run', () => {
    expect(
      planOutputs({ manifest: manifest(2), carried: new Map(), ledger: [], toRun: [], startNow: 0 })
    ).toMatchObject({
      matrix: '{"shard":[]}',
      shardCount: 0,
      wavesLeft: 0
    });
  });
});

describe("a resume's re-plan", () => {
  it('runs again only what is not finished, with what is left of the cap, and keeps the budgets within it', () => {
    const plan = manifest(4, 2.5, 10);
    const results = new Map([
      ['shard-001', result('shard-001', 'done', 0.1)],
      ['shard-002', result('shard-002', 'failed', 2.5)],
      ['shard-003', result('shard-003', 'done', 1)]
    ]);
    const next = replan(
      plan,
      { results, unlandable: new Set(['shard-003']), spentUsd: 3.6 },
      10,
      'fanout_max_total_usd'
    );
    // shard-003 conflicted when it landed, shard-004 never started: both run again with shard-002.
    expect(next.again).toEqual(['shard-002', 'shard-003', 'shard-004']);
    expect([...next.finished.keys()]).toEqual(['shard-001']);
    expect(next.manifest.shards.map((shard) => shard.budgetUsd)).toEqual([0.1, 2.13, 2.13, 2.13]);
    const budgets = next.manifest.shards.reduce((sum, shard) => sum + shard.budgetUsd, 0);
    expect(budgets).toBeLessThanOrEqual(10);
    expect(next.manifest.planId).toBe(plan.planId);
  });

  it('runs nothing when every shard is finished', () => {
    const plan = manifest(2);
    const results = new Map(plan.shards.map((shard) => [shard.id, result(shard.id, 'done', 0.5)]));
    const next = replan(plan, { results, unlandable: new Set(), spentUsd: 1 }, 2);
    expect(next.again).toEqual([]);
    expect(next.manifest).toBe(plan);
  });

  it('says to raise the workflow input when nothing is left of the cap', () => {
    const plan = manifest(2);
    expect(() =>
      replan(plan, { results: new Map(), unlandable: new Set(), spentUsd: 2 }, 2, 'fanout_max_total_usd')
    ).toThrow(/Raise fanout_max_total_usd to continue/);
  });
});

describe("the plan's owner", () => {
  it('is the repository and the workflow file of GITHUB_WORKFLOW_REF', () => {
    expect(
      fanoutOrigin({
        GITHUB_REPOSITORY: 'octo/repo',
        GITHUB_WORKFLOW_REF: 'octo/repo/.github/workflows/fanout.yml@refs/heads/main'
      })
    ).toEqual(ORIGIN);
  });

  it('cannot be known outside a workflow run', () => {
    expect(() => fanoutOrigin({ GITHUB_REPOSITORY: 'octo/repo' })).toThrow(FanoutInputError);
  });
});

/** Our artifact interface over folders: an artifact is a folder copied in and out. */
class FolderArtifacts implements FanoutArtifacts {
  constructor(readonly root: string) {}
  private folder(name: string, from?: EarlierRun) {
    return path.join(this.root, String(from?.runId ?? 'this'), name);
  }
  upload(name: string, rootDir: string) {
    cpSync(rootDir, this.folder(name), { recursive: true });
    return Promise.resolve({ id: 1, size: 1 });
  }
  download(name: string, dir: string, from?: EarlierRun) {
    if (!existsSync(this.folder(name, from))) return Promise.resolve(false);
    cpSync(this.folder(name, from), dir, { recursive: true });
    return Promise.resolve(true);
  }
  names(from?: EarlierRun) {
    try {
      return Promise.resolve(readdirSync(path.join(this.root, String(from?.runId ?? 'this'))));
    } catch {
      return Promise.resolve([]);
    }
  }
  put(name: string, files: Record<string, string>) {
    for (const [file, text] of Object.entries(files)) {
      const target = path.join(this.folder(name), file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  }
}

describe("the fan-out's artifacts, checked where they enter", () => {
  let root: string;
  let store: FolderArtifacts;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'compact-agent-fanout-store-'));
    store = new FolderArtifacts(path.join(root, 'store'));
    mkdirSync(path.join(root, 'scratch'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const scratch = () => path.join(root, 'scratch');

  it('reads back the plan it wrote, with its carried results and ledger', async () => {
    const plan = manifest(2);
    const carried = new Map([['shard-001', result('shard-001', 'done', 0.2)]]);
    const ledger = [{ shardId: 'shard-001', costUsd: 0.2, runDir: 'run 7' }];
    await uploadPlan(store, { manifest: plan, carried, ledger }, scratch());
    const read = await readPlan(store, ORIGIN, scratch());
    expect(read).toEqual({ manifest: plan, carried, ledger });
  });

  it("refuses a plan written for another repository's workflow", async () => {
    await uploadPlan(
      store,
      {
        manifest: { ...manifest(1), origin: { repository: 'evil/repo', workflow: ORIGIN.workflow } },
        carried: new Map(),
        ledger: []
      },
      scratch()
    );
    await expect(readPlan(store, ORIGIN, scratch())).rejects.toThrow(/was written for evil\/repo/);
  });

  it('is undefined when the run has no plan', async () => {
    await expect(readPlan(store, ORIGIN, scratch())).resolves.toBeUndefined();
  });

  it('rejects a result out of its scope, one without its transcripts, one that is not a result, and a done one with no run', async () => {
    const plan = manifest(4);
    store.put('compact-agent-fanout-shard-004', {
      'result.json': JSON.stringify(result('shard-004', 'done', 0, { files: ['src/f4.ts'], patch: 'diff' }))
    });
    store.put('compact-agent-fanout-shard-001', {
      'result.json': JSON.stringify(result('shard-001', 'done', 0, { files: ['src/f2.ts'] }))
    });
    store.put('compact-agent-fanout-shard-002', {
      'result.json': JSON.stringify(
        result('shard-002', 'done', 0.3, { runs: ['/tmp/t/20261128T100000Z-a1b2c3'] })
      )
    });
    store.put('compact-agent-fanout-shard-003', { 'result.json': '{"shardId": "shard-003"}' });
    const read = await readShardResults(store, plan, scratch());
    expect(read.results.size).toBe(0);
    expect(Object.fromEntries(read.problems)).toEqual({
      'shard-001': "the result names files outside the shard's scope: src/f2.ts",
      'shard-002':
        'its result names the run 20261128T100000Z-a1b2c3, whose transcript is not in its artifact, so its cost cannot be checked',
      'shard-003': expect.stringMatching(/^its result is not a shard result/),
      'shard-004':
        'its result says done but names no agent run, so neither its change nor its cost can be checked'
    });
    // An untrusted result is counted at its whole budget: what it may have spent.
    expect(read.spent.map((line) => line.costUsd)).toEqual([1, 1, 1, 1]);
  });

  it('takes a result that ran no agent (nothing to check in its cost) for a shard that has one', async () => {
    const plan = manifest(2);
    store.put('compact-agent-fanout-shard-002', {
      'result.json': JSON.stringify(result('shard-002', 'failed', 0))
    });
    const read = await readShardResults(store, plan, scratch());
    expect([...read.results.keys()]).toEqual(['shard-002']);
    expect(read.problems.size).toBe(0);
  });
});
