/**
 * The three fan-out roles as the built action (dist/), one job after another as a workflow run would
 * start them: the plan job writes the manifest artifact and the matrix outputs; each shard job reads
 * it, runs its agent against the fake Anthropic API and uploads its result, without one write to
 * GitHub; the land job lands both shards on per-shard branches of the local bare origin and opens
 * their pull requests. One fake artifact service and one fake GitHub serve every job of the run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DefaultArtifactClient } from '@actions/artifact';
import { jest } from '@jest/globals';
import { reply, scriptFrom, text, toolUse } from '../../test-support/fake-anthropic/index.js';
import { artifactEnv, runtimeToken, unzip } from '../../test-support/fake-artifacts/index.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

jest.setTimeout(240_000);

const startWorld = actionWorldPerTest();
const WORKFLOW = '.github/workflows/fanout.yml';
const PROMPT = 'Replace oldApi() with newApi().';

/** A repository with two units (one shard each, by the config file's fanout.shard_size). */
function seedFolder(config = 'fanout:\n  shard_size: 1\n'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'compact-agent-fanout-seed-'));
  mkdirSync(path.join(dir, 'src'));
  mkdirSync(path.join(dir, '.github'));
  writeFileSync(path.join(dir, 'src', 'a.ts'), 'export const a = oldApi();\n');
  writeFileSync(path.join(dir, 'src', 'b.ts'), 'export const b = oldApi();\n');
  writeFileSync(path.join(dir, 'src', 'c.ts'), 'export const c = 1;\n');
  writeFileSync(path.join(dir, '.github', 'compact-agent.yml'), config);
  return dir;
}

/** Each shard's agent: one edit of its file, then its closing words. */
const SHARD_AGENTS = scriptFrom([
  reply(toolUse('bash', { command: "sed -i 's/oldApi/newApi/' src/a.ts" })),
  reply(text('Replaced it in src/a.ts.')),
  reply(toolUse('bash', { command: "sed -i 's/oldApi/newApi/' src/b.ts" })),
  reply(text('Replaced it in src/b.ts.'))
]);

let seed: string;
beforeAll(() => {
  seed = seedFolder();
});
afterAll(() => rmSync(seed, { recursive: true, force: true }));

async function fanoutWorld(
  seedDir = seed
): Promise<{ world: ActionWorld; payload: Record<string, unknown> }> {
  const payload = examplePayload('workflow_dispatch');
  const world = await startWorld({
    seed: seedDir,
    github: stateFromPayload(payload, { senderPermission: 'write' }),
    anthropic: { script: SHARD_AGENTS }
  });
  return { world, payload };
}

/**
 * One job of a workflow run: a fresh checkout of origin's main, this workflow's file, the run's id,
 * and the run's own artifact scope (each workflow run's jobs share theirs, as on GitHub).
 */
function job(
  world: ActionWorld,
  payload: Record<string, unknown>,
  inputs: Record<string, string>,
  runId = '9100',
  prepare: (checkout: string) => void = () => undefined,
  env: Record<string, string> = {}
) {
  const workspace = world.cloneOrigin();
  prepare(workspace);
  return world.run({
    eventName: 'workflow_dispatch',
    payload,
    inputs,
    runId,
    workspace,
    env: {
      GITHUB_WORKFLOW_REF: `${world.github.repo.full_name}/${WORKFLOW}@refs/heads/main`,
      GITHUB_REF: 'refs/heads/main',
      ACTIONS_RUNTIME_TOKEN: runtimeToken(`run-${runId}`, 'job'),
      ...env
    }
  });
}

/** An artifact of one workflow run, unzipped (the fake's own lookup gives the first of a name). */
function artifactOf(world: ActionWorld, name: string, ids: (id: number) => boolean): Map<string, Buffer> {
  const artifact = world.artifacts.artifacts.find((stored) => stored.name === name && ids(stored.id));
  if (!artifact) throw new Error(`no artifact ${name}`);
  return unzip(artifact.bytes);
}

const isWrite = (method: string) => !['GET', 'HEAD'].includes(method);

/** The requests that opened an issue: the land job's tracking issue of a plan. */
const rollupIssuePosts = (world: ActionWorld) =>
  world.github.requests.filter((request) => request.method === 'POST' && /\/issues$/.test(request.path));

describe('the fan-out roles of the built action', () => {
  it('plans, runs two shards with no GitHub write, and lands them on per-shard branches', async () => {
    const { world, payload } = await fanoutWorld();
    const plan = await job(world, payload, {
      fanout: 'plan',
      prompt: PROMPT,
      fanout_units: 'git grep -l oldApi -- src',
      fanout_max_total_usd: '4'
    });
    expect(plan.stdout).not.toContain('::error::');
    expect(plan.code).toBe(0);
    expect(plan.outputs.fanout_matrix).toBe('{"shard":["shard-01","shard-02"]}');
    expect(plan.outputs.fanout_shard_count).toBe('2');
    expect(plan.outputs.fanout_waves_left).toBe('0');
    const planId = plan.outputs.fanout_plan_id!;
    expect(planId).toMatch(/^[0-9a-f]{12}$/);
    const manifest = JSON.parse(
      world.artifacts.files('compact-agent-fanout-plan').get('manifest.json')!.toString('utf8')
    ) as { origin: unknown; shards: Array<{ id: string; paths: string[]; budgetUsd: number }> };
    expect(manifest.origin).toEqual({ repository: world.github.repo.full_name, workflow: WORKFLOW });
    expect(manifest.shards.map((shard) => [shard.id, shard.paths, shard.budgetUsd])).toEqual([
      ['shard-01', ['src/a.ts'], 2],
      ['shard-02', ['src/b.ts'], 2]
    ]);
    expect(world.modelCalls()).toBe(0);
    const writesBeforeShards = world.github.requests.filter((request) => isWrite(request.method)).length;
    expect(writesBeforeShards).toBe(0);

    for (const shard of ['shard-01', 'shard-02']) {
      const run = await job(world, payload, { fanout: 'shard', fanout_shard: shard });
      expect(run.stdout).not.toContain('::error::');
      expect(run.code).toBe(0);
      const files = world.artifacts.files(`compact-agent-fanout-${shard}`);
      const result = JSON.parse(files.get('result.json')!.toString('utf8')) as {
        status: string;
        patch: string;
        files: string[];
        runs: string[];
      };
      expect(result.status).toBe('done');
      expect(result.files).toEqual([shard === 'shard-01' ? 'src/a.ts' : 'src/b.ts']);
      expect(result.patch).toContain('+export const');
      expect(result.patch).toContain('newApi()');
      // Its transcripts travel with it, for the land job's cost check.
      expect(
        [...files.keys()].filter(
          (name) => name.startsWith('transcripts/') && name.endsWith('transcript.jsonl')
        )
      ).toHaveLength(result.runs.length);
    }
    expect(world.modelCalls()).toBe(4);
    // A shard job writes nothing to GitHub.
    expect(world.github.requests.filter((request) => isWrite(request.method))).toEqual([]);

    // The land job's checkout holds the credential actions/checkout persists (contents: write).
    const land = await job(world, payload, { fanout: 'land' }, '9100', (checkout) =>
      execFileSync(
        'git',
        ['config', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic bGFuZC10b2tlbg=='],
        {
          cwd: checkout
        }
      )
    );
    expect(land.stdout).not.toContain('::error::');
    expect(land.code).toBe(0);
    expect(land.outputs.conclusion).toBe('success');
    for (const [shard, file] of [
      ['shard-01', 'src/a.ts'],
      ['shard-02', 'src/b.ts']
    ] as const) {
      const branch = `fanout/${planId}/${shard}`;
      expect(world.repo.remoteGit('show', `${branch}:${file}`)).toContain('newApi()');
      // Each branch holds its own shard's change only.
      const other = file === 'src/a.ts' ? 'src/b.ts' : 'src/a.ts';
      expect(world.repo.remoteGit('show', `${branch}:${other}`)).toContain('oldApi()');
    }
    expect(world.github.createdPulls.map((pull) => pull.head.ref).sort()).toEqual([
      `fanout/${planId}/shard-01`,
      `fanout/${planId}/shard-02`
    ]);
    const rollup = JSON.parse(
      world.artifacts.files('compact-agent-fanout-rollup').get('rollup.json')!.toString('utf8')
    ) as { rows: Array<{ shardId: string; status: string }>; unitsBefore: number; unitsAfter: number };
    expect(rollup.rows.map((row) => [row.shardId, row.status])).toEqual([
      ['shard-01', 'landed'],
      ['shard-02', 'landed']
    ]);
    expect([rollup.unitsBefore, rollup.unitsAfter]).toEqual([2, 0]);
    // Without report_issue the roll-up is a tracking issue of the plan's, linking both pull requests.
    const [tracking, ...more] = rollupIssuePosts(world);
    expect(more).toEqual([]);
    const body = (tracking!.body as { body: string }).body;
    for (const pull of world.github.createdPulls) expect(body).toContain(`/pull/${pull.number}`);
    expect(body).toContain('2 unit(s) before, 0 after the landed change');
  });

  it('resumes an earlier run of this workflow: only its unfinished shard runs, the finished one lands again', async () => {
    const { world, payload } = await fanoutWorld();
    world.github.setWorkflowRun(9100, { status: 'in_progress', path: WORKFLOW, event: 'workflow_dispatch' });
    world.github.setWorkflowRun(9200, { status: 'in_progress', path: WORKFLOW, event: 'workflow_dispatch' });
    // A pull request's run of the same workflow path: its head's workflow file ran, with its own plan.
    world.github.setWorkflowRun(9400, {
      status: 'completed',
      conclusion: 'success',
      path: WORKFLOW,
      event: 'pull_request'
    });
    world.github.setWorkflowRun(9300, {
      status: 'completed',
      conclusion: 'success',
      path: '.github/workflows/agent.yml'
    });
    let lastOfFirstRun = Number.MAX_SAFE_INTEGER;
    // GitHub serves each artifact as uploaded by its workflow run (the resume reads run 9100's by the REST API).
    world.github.linkArtifacts(world.artifacts, (artifact) => (artifact.id <= lastOfFirstRun ? 9100 : 9200));

    const plan = await job(world, payload, {
      fanout: 'plan',
      prompt: PROMPT,
      fanout_units: 'git grep -l oldApi -- src',
      fanout_max_total_usd: '4'
    });
    expect(plan.code).toBe(0);
    const planId = plan.outputs.fanout_plan_id!;
    // shard-02's job never ran (cancelled, or its runner was lost): the land job lands shard-01 only.
    expect((await job(world, payload, { fanout: 'shard', fanout_shard: 'shard-01' })).code).toBe(0);
    const firstLand = await job(world, payload, { fanout: 'land' });
    expect(firstLand.code).toBe(1);
    expect(firstLand.stdout).toContain(
      '1 of 2 shard(s) are not landed (shard-02: unstarted). The others are landed. To run only these'
    );
    // It names the workflow's input (resume_run) and the action's (fanout_resume), with this run's id.
    expect(firstLand.stdout).toContain('dispatch this workflow again with its input resume_run: 9100');
    expect(firstLand.stdout).toContain("the action's input fanout_resume");
    expect(world.github.createdPulls.map((pull) => pull.head.ref)).toEqual([`fanout/${planId}/shard-01`]);
    lastOfFirstRun = Math.max(...world.artifacts.artifacts.map((artifact) => artifact.id));

    const foreign = await job(world, payload, { fanout: 'plan', fanout_resume: '9300' }, '9200');
    expect(foreign.code).toBe(1);
    expect(foreign.stdout).toContain(
      'fanout_resume names run 9300, which is a run of .github/workflows/agent.yml, not of this workflow (.github/workflows/fanout.yml).'
    );

    const fromPullRequest = await job(world, payload, { fanout: 'plan', fanout_resume: '9400' }, '9200');
    expect(fromPullRequest.code).toBe(1);
    expect(fromPullRequest.stdout).toContain(
      'fanout_resume names run 9400, which was started by a pull_request event, not by a dispatch or a schedule.'
    );

    const resume = await job(world, payload, { fanout: 'plan', fanout_resume: '9100' }, '9200');
    expect(resume.stdout).not.toContain('::error::');
    expect(resume.code).toBe(0);
    expect(resume.outputs.fanout_plan_id).toBe(planId);
    expect(resume.outputs.fanout_matrix).toBe('{"shard":["shard-02"]}');
    expect(resume.outputs.fanout_shard_count).toBe('1');
    const resumed = artifactOf(world, 'compact-agent-fanout-plan', (id) => id > lastOfFirstRun);
    expect([...resumed.keys()].sort()).toEqual(['carried/shard-01.json', 'ledger.jsonl', 'manifest.json']);
    const ledger = resumed.get('ledger.jsonl')!.toString('utf8').trim().split('\n');
    expect(ledger.map((line) => (JSON.parse(line) as { shardId: string }).shardId)).toEqual(['shard-01']);
    const manifest = JSON.parse(resumed.get('manifest.json')!.toString('utf8')) as {
      shards: Array<{ id: string; budgetUsd: number }>;
    };
    // What is left of the $4 cap after shard-01's cost goes to shard-02.
    const spent = (JSON.parse(ledger[0]!) as { costUsd: number }).costUsd;
    expect(manifest.shards[1]!.budgetUsd).toBe(Math.floor((4 - spent) * 100) / 100);

    expect((await job(world, payload, { fanout: 'shard', fanout_shard: 'shard-02' }, '9200')).code).toBe(0);
    const land = await job(world, payload, { fanout: 'land' }, '9200');
    expect(land.stdout).not.toContain('::error::');
    expect(land.code).toBe(0);
    expect(world.repo.remoteGit('show', `fanout/${planId}/shard-01:src/a.ts`)).toContain('newApi()');
    expect(world.repo.remoteGit('show', `fanout/${planId}/shard-02:src/b.ts`)).toContain('newApi()');
    // The carried shard's pull request is the one the first run opened: nothing duplicated.
    expect(world.github.createdPulls.map((pull) => pull.head.ref)).toEqual([
      `fanout/${planId}/shard-01`,
      `fanout/${planId}/shard-02`
    ]);
    expect(world.modelCalls()).toBe(4);
    // One roll-up for the plan, opened by the first land run and edited by the second.
    expect(rollupIssuePosts(world)).toHaveLength(1);
    expect(
      world.github.requests.filter(
        (request) => request.method === 'PATCH' && /\/issues\/\d+$/.test(request.path)
      )
    ).not.toHaveLength(0);
  });

  it('refuses a shard job without its shard, and a role on an event that is no dispatch', async () => {
    const { world, payload } = await fanoutWorld();
    const shard = await job(world, payload, { fanout: 'shard' });
    expect(shard.code).toBe(1);
    expect(shard.stdout).toContain('A shard job (fanout: shard) needs fanout_shard, the shard it runs');
    const comment = examplePayload('issue_comment', 'created', '/agent go');
    const onComment = await world.run({
      eventName: 'issue_comment',
      payload: comment,
      inputs: { fanout: 'land' },
      workspace: world.cloneOrigin()
    });
    expect(onComment.code).toBe(1);
    expect(onComment.stdout).toContain(
      'fanout: land runs in a workflow started by workflow_dispatch or schedule, not by issue_comment'
    );
    expect(world.modelCalls()).toBe(0);
    expect(world.github.requests.filter((request) => isWrite(request.method))).toEqual([]);
  });

  it('rejects a shard result whose cost its transcripts do not back, and lands the others', async () => {
    const { world, payload } = await fanoutWorld();
    const plan = await job(world, payload, {
      fanout: 'plan',
      prompt: PROMPT,
      fanout_units: 'git grep -l oldApi -- src',
      fanout_max_total_usd: '4'
    });
    expect(plan.code).toBe(0);
    const planId = plan.outputs.fanout_plan_id!;
    expect((await job(world, payload, { fanout: 'shard', fanout_shard: 'shard-01' })).code).toBe(0);
    // shard-02's artifact comes from somewhere else than its job: a change, a cost of a tenth of a
    // cent, and a "transcript" that is no chained transcript of ours.
    const forged = mkdtempSync(path.join(tmpdir(), 'compact-agent-forged-'));
    const checkout = world.cloneOrigin();
    writeFileSync(path.join(checkout, 'src', 'b.ts'), 'export const b = newApi(); // forged\n');
    const patch = execFileSync('git', ['diff'], { cwd: checkout, encoding: 'utf8' });
    const base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: checkout, encoding: 'utf8' }).trim();
    mkdirSync(path.join(forged, 'transcripts', '20261128T100000Z-f0f0f0'), { recursive: true });
    writeFileSync(
      path.join(forged, 'result.json'),
      JSON.stringify({
        shardId: 'shard-02',
        planId,
        status: 'done',
        base,
        costUsd: 0.001,
        budgetUsd: 2,
        stopReason: 'success',
        files: ['src/b.ts'],
        refusedPaths: [],
        runs: ['/home/runner/work/_temp/transcripts/20261128T100000Z-f0f0f0'],
        patch
      })
    );
    writeFileSync(
      path.join(forged, 'transcripts', '20261128T100000Z-f0f0f0', 'transcript.jsonl'),
      '{"type":"run_end","cost_usd":0.001}\n'
    );
    const saved = { ...process.env };
    Object.assign(process.env, artifactEnv(world.artifacts), {
      ACTIONS_RUNTIME_TOKEN: runtimeToken('run-9100', 'job')
    });
    try {
      await new DefaultArtifactClient().uploadArtifact(
        'compact-agent-fanout-shard-02',
        [
          path.join(forged, 'result.json'),
          path.join(forged, 'transcripts', '20261128T100000Z-f0f0f0', 'transcript.jsonl')
        ],
        forged
      );
    } finally {
      process.env = saved;
      rmSync(forged, { recursive: true, force: true });
    }

    const land = await job(world, payload, { fanout: 'land' });
    expect(land.code).toBe(1);
    expect(land.stdout).toContain(
      "shard-02's result is not trusted: the transcript of the run 20261128T100000Z-f0f0f0"
    );
    expect(world.repo.remoteGit('show', `fanout/${planId}/shard-01:src/a.ts`)).toContain('newApi()');
    expect(world.repo.remoteGit('branch', '--list', `fanout/${planId}/shard-02`).trim()).toBe('');
    expect(world.github.createdPulls.map((pull) => pull.head.ref)).toEqual([`fanout/${planId}/shard-01`]);
    const rollup = JSON.parse(
      world.artifacts.files('compact-agent-fanout-rollup').get('rollup.json')!.toString('utf8')
    ) as { rows: Array<{ shardId: string; status: string }>; spentUsd: number };
    expect(rollup.rows.map((row) => [row.shardId, row.status])).toEqual([
      ['shard-01', 'landed'],
      ['shard-02', 'rejected']
    ]);
    // The forged result counts at its whole budget in the spend, not at the cost it claims.
    expect(rollup.spentUsd).toBeGreaterThanOrEqual(2);
  });

  it('re-scans the landed code in the box even with sandbox: off, and defuses the prompt in the titles', async () => {
    const offSeed = seedFolder('fanout:\n  shard_size: 1\nsandbox:\n  mode: off\n');
    // A folder of the host's /tmp: the box has a /tmp of its own, so only a host process writes here.
    const hostOnly = mkdtempSync(path.join(tmpdir(), 'compact-agent-rescan-host-'));
    try {
      const { world, payload } = await fanoutWorld(offSeed);
      const units = `(echo "$$" > ${hostOnly}/ran) 2>/dev/null; git grep -l oldApi -- src`;
      const plan = await job(world, payload, {
        fanout: 'plan',
        prompt: `@octocat fixes #1: ${PROMPT}`,
        fanout_units: units,
        fanout_max_total_usd: '4'
      });
      expect(plan.code).toBe(0);
      // The plan lists the units on the person's own checkout, on the host, by design.
      expect(existsSync(path.join(hostOnly, 'ran'))).toBe(true);
      rmSync(path.join(hostOnly, 'ran'));
      for (const shard of ['shard-01', 'shard-02'])
        expect((await job(world, payload, { fanout: 'shard', fanout_shard: shard })).code).toBe(0);

      const land = await job(world, payload, { fanout: 'land' });
      expect(land.stdout).not.toContain('::error::');
      expect(land.code).toBe(0);
      // The land job holds the write token: the agents' code never ran on its host...
      expect(existsSync(path.join(hostOnly, 'ran'))).toBe(false);
      // ...yet the burndown was counted, in the box.
      const rollup = JSON.parse(
        world.artifacts.files('compact-agent-fanout-rollup').get('rollup.json')!.toString('utf8')
      ) as { unitsAfter: number };
      expect(rollup.unitsAfter).toBe(0);
      const [tracking] = rollupIssuePosts(world);
      const title = (tracking!.body as { title: string }).title;
      expect(title).toContain('octocat');
      expect(title).not.toContain('@octocat');
      expect(title).not.toMatch(/fixes #1/);
      for (const pull of world.github.createdPulls) expect(pull.title).not.toContain('@octocat');
    } finally {
      rmSync(offSeed, { recursive: true, force: true });
      rmSync(hostOnly, { recursive: true, force: true });
    }
  });

  it('refuses to run a shard twice in one workflow run (a re-run of its job, or a result already there)', async () => {
    const { world, payload } = await fanoutWorld();
    const plan = await job(world, payload, {
      fanout: 'plan',
      prompt: PROMPT,
      fanout_units: 'git grep -l oldApi -- src',
      fanout_max_total_usd: '4'
    });
    expect(plan.code).toBe(0);
    const rerun = await job(
      world,
      payload,
      { fanout: 'shard', fanout_shard: 'shard-01' },
      '9100',
      () => undefined,
      {
        GITHUB_RUN_ATTEMPT: '2'
      }
    );
    expect(rerun.code).toBe(1);
    expect(rerun.stdout).toContain('this is attempt 2 of run 9100');
    expect(rerun.stdout).toContain('resume_run: 9100');
    expect(world.modelCalls()).toBe(0);
    expect((await job(world, payload, { fanout: 'shard', fanout_shard: 'shard-01' })).code).toBe(0);
    const calls = world.modelCalls();
    const again = await job(world, payload, { fanout: 'shard', fanout_shard: 'shard-01' });
    expect(again.code).toBe(1);
    expect(again.stdout).toContain("run 9100 already has shard-01's result");
    expect(world.modelCalls()).toBe(calls);
  });
});
