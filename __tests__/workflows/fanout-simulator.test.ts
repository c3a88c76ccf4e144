import { jest } from '@jest/globals';
import { mostAtOnce } from '../../test-support/workflow-sim/runners.js';
import type { WorkflowRun } from '../../test-support/workflow-sim/simulator.js';
import { jobOutput, startFanoutWorld, writesAmong, type FanoutWorld } from '../support/fanout-sim-world.js';
import { after, before, unitFile } from '../support/fanout-shard-model.js';

/**
 * examples/workflows/fanout.yml run by the workflow simulator (test-support/workflow-sim) as the
 * runner would: the plan job, its matrix of shard jobs (at most 2 at a time), the land job; every
 * step the built action (dist/); one fake GitHub with GitHub's secondary limit on fast writes and a
 * token per job with that job's permissions, one fake artifact service with a runtime token per
 * job, one scripted fake Anthropic. Every GitHub request is checked against @octokit/openapi
 * (the world's close).
 */
// Each run starts the action 5 to 6 times, each a few seconds on a loaded 2-core machine, and the
// land job paces its writes a second apart.
jest.setTimeout(240_000);

let world: FanoutWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function expectJob(run: WorkflowRun, job: string, result: string): void {
  const actual = run.jobs[job]?.result;
  if (actual !== result)
    throw new Error(
      `job ${job} was ${actual}, not ${result}:\n${jobOutput(run, job)}\n${actual === 'skipped' ? jobOutput(run, 'plan') : ''}`
    );
}

/** A shard's row of the roll-up's table, up to its status (B's rollup-markdown.ts). */
const row = (shard: string, status: string) => new RegExp(`\\| ${shard} \\| \\d+ \\| ${status} \\|`);

/** The plan id, from the plan job's output. */
const planOf = (run: WorkflowRun) => run.jobs.plan!.outputs.plan_id!;

/** The roll-up: the bot's comments on the report issue. */
function rollups(w: FanoutWorld): string[] {
  return w.github
    .comments(w.reportIssue)
    .filter((comment) => comment.user.login === 'github-actions[bot]')
    .map((comment) => comment.body);
}

/**
 * What every run must hold: shards wrote nothing anywhere, each job had its own artifact token, at
 * most 2 shards ran at once, and GitHub's secondary limit never refused one of land's writes (the
 * pacer kept them a second apart).
 */
function expectShardsReadOnly(w: FanoutWorld, run: WorkflowRun): void {
  const landWrites = writesAmong(w.requestsOfJob(run, 'land'));
  expect(
    landWrites.filter((request) => /secondary rate limit/.test(JSON.stringify(request.response)))
  ).toEqual([]);
  expect(writesAmong(w.requestsOfJob(run, 'shard'))).toEqual([]);
  expect(writesAmong(w.requestsOfJob(run, 'plan'))).toEqual([]);
  expect(w.github.requests.filter((request) => request.refusedBy === 'permissions')).toEqual([]);
  const shardJob = run.jobs.shard;
  if (shardJob && shardJob.result !== 'skipped')
    expect(shardJob.remoteRefsAfter).toEqual(shardJob.remoteRefsBefore);
  for (const instance of shardJob?.instances ?? []) {
    const uploaded = w.artifacts.artifacts.filter(
      (artifact) => artifact.name === `compact-agent-fanout-${instance.matrix!.shard as string}`
    );
    expect(uploaded.map((artifact) => artifact.jobBackendId)).toContain(instance.jobBackendId);
  }
  expect(mostAtOnce(w.sim.pool.timeline, (name) => name.startsWith('shard ('))).toBeLessThanOrEqual(2);
}

describe('the fan-out workflow on the simulated runner', () => {
  it('lands every shard per shard, writes one roll-up, and a re-run of land duplicates nothing', async () => {
    world = await startFanoutWorld({ units: 6, shardSize: 2, land: 'per-shard', maxTotalUsd: '3' });
    const w = world;
    const run = await w.dispatch();
    expectJob(run, 'plan', 'success');
    expect(run.jobs.plan!.outputs).toMatchObject({
      shard_count: '3',
      matrix: '{"shard":["shard-01","shard-02","shard-03"]}'
    });
    expectJob(run, 'shard', 'success');
    expect(run.jobs.shard!.instances.map((instance) => instance.name)).toEqual([
      'shard (shard-01)',
      'shard (shard-02)',
      'shard (shard-03)'
    ]);
    expect(mostAtOnce(w.sim.pool.timeline, (name) => name.startsWith('shard ('))).toBe(2);
    expectJob(run, 'land', 'success');
    expectShardsReadOnly(w, run);

    const plan = planOf(run);
    const branches = ['shard-01', 'shard-02', 'shard-03'].map((shard) => `fanout/${plan}/${shard}`);
    expect(w.fanoutBranches().sort()).toEqual(branches);
    for (let index = 1; index <= 6; index++)
      expect(w.show(branches[Math.floor((index - 1) / 2)]!, unitFile(index))).toBe(after(unitFile(index)));
    expect(w.github.createdPulls.map((pull) => pull.head.ref).sort()).toEqual(branches);
    expect(w.github.createdPulls.every((pull) => pull.base.ref === 'main')).toBe(true);
    expect(writesAmong(w.requestsOfJob(run, 'land')).length).toBeGreaterThanOrEqual(3);
    // GitHub's "re-run job" on land: same run, a new attempt; it edits, it never adds.
    const pullsBefore = w.github.createdPulls.length;
    const again = await w.sim.rerun(run, ['land']);
    expectJob(again, 'land', 'success');
    expect(again.jobs.shard!.fromAttempt).toBe(1);
    expect(w.github.createdPulls).toHaveLength(pullsBefore);
    expect(w.fanoutBranches().sort()).toEqual(branches);

    // One roll-up comment, edited by both attempts.
    const [rollup, ...more] = rollups(w);
    expect(more).toEqual([]);
    for (const shard of ['shard-01', 'shard-02', 'shard-03'])
      expect(rollup).toMatch(row(shard, 'pull request opened'));
    expect(rollup).toMatch(/of the \$3\.00 cap/); // the cost ledger
    expect(rollup).toContain('6 unit(s) before, 0 after'); // the burndown, by re-scan
  });

  it('lands every shard combined, and refuses, counts and reports an edit outside a shard’s paths', async () => {
    world = await startFanoutWorld({ units: 4, shardSize: 2, land: 'combined', maxTotalUsd: '2' });
    const w = world;
    w.strays.add('shard-02');
    const run = await w.dispatch();
    expectJob(run, 'plan', 'success');
    expectJob(run, 'shard', 'success');
    expectJob(run, 'land', 'success');
    expectShardsReadOnly(w, run);
    const combined = `fanout/${planOf(run)}/combined`;
    expect(w.fanoutBranches()).toEqual([combined]);
    for (let index = 1; index <= 4; index++)
      expect(w.show(combined, unitFile(index))).toBe(after(unitFile(index)));
    // The stray edit never reached the branch.
    expect(w.show(combined, 'README.md')).toBe('# demo\n');
    expect(w.github.createdPulls.map((pull) => pull.head.ref)).toEqual([combined]);
    // Refused and counted in the shard's result (its artifact), and said in the roll-up.
    const result = JSON.parse(
      w.artifacts.files('compact-agent-fanout-shard-02').get('result.json')!.toString('utf8')
    ) as { refusedPaths?: unknown };
    expect(result.refusedPaths).toEqual(['README.md']);
    // The land job's log counts it in the shard's row (the `refused` column).
    expect(jobOutput(run, 'land')).toMatch(/shard-02\s+2\s+landed\s+\$\S+\s+\$\S+\s+2\s+1\s/);
    const [rollup] = rollups(w);
    expect(rollup).toMatch(row('shard-02', 'pull request opened'));
  });

  it('lands the others when one shard fails and one goes over budget; a resume runs only those two', async () => {
    world = await startFanoutWorld({ units: 8, shardSize: 2, land: 'per-shard', maxTotalUsd: '0.8' });
    const w = world;
    w.breaks.add('shard-02');
    w.spends.add('shard-03');
    const first = await w.dispatch();
    expectJob(first, 'plan', 'success');
    expect(first.jobs.shard!.instances.map((instance) => instance.result)).toEqual([
      'success',
      'failure',
      'failure',
      'success'
    ]);
    // Land lands the others, and fails the run, naming what is left and how to resume it.
    expectJob(first, 'land', 'failure');
    expect(jobOutput(first, 'land')).toMatch(
      /2 of 4 shard\(s\) are not landed \(shard-02: failed, shard-03: over-budget\)/
    );
    expectShardsReadOnly(w, first);
    const plan = planOf(first);
    expect(w.fanoutBranches().sort()).toEqual([`fanout/${plan}/shard-01`, `fanout/${plan}/shard-04`]);
    const rollupOfFirst = rollups(w)[0];

    w.breaks.clear();
    w.spends.clear();
    const asked = w.anthropic.requests.length;
    const resumed = await w.dispatch({ resume_run: String(first.id) });
    expectJob(resumed, 'plan', 'success');
    expect(resumed.jobs.plan!.outputs).toMatchObject({
      shard_count: '2',
      matrix: '{"shard":["shard-02","shard-03"]}'
    });
    expectJob(resumed, 'shard', 'success');
    expectJob(resumed, 'land', 'success');
    expectShardsReadOnly(w, resumed);
    expect(w.shardsAsked(asked)).toEqual(new Set(['shard-02', 'shard-03']));
    const branches = ['shard-01', 'shard-02', 'shard-03', 'shard-04'].map(
      (shard) => `fanout/${planOf(resumed)}/${shard}`
    );
    expect(planOf(resumed)).toBe(plan);
    expect(w.fanoutBranches().sort()).toEqual(branches);
    for (let index = 1; index <= 8; index++)
      expect(w.show(branches[Math.floor((index - 1) / 2)]!, unitFile(index))).toBe(after(unitFile(index)));
    // One pull request per branch over both runs, one roll-up comment, edited.
    expect(w.github.createdPulls.map((pull) => pull.head.ref).sort()).toEqual(branches);
    // The first run's roll-up said what was left; the resume's, edited in place, that all landed.
    expect(rollupOfFirst).toMatch(row('shard-02', 'failed'));
    expect(rollupOfFirst).toMatch(row('shard-03', 'over budget'));
    expect(rollupOfFirst).toMatch(row('shard-01', 'pull request opened'));
    expect(rollupOfFirst).toMatch(row('shard-04', 'pull request opened'));
    expect(rollups(w)).toHaveLength(1);
    for (const shard of ['shard-01', 'shard-02', 'shard-03', 'shard-04'])
      expect(rollups(w)[0]).toMatch(row(shard, 'pull request opened'));
  });

  it('marks two finished shards whose files moved on the base a conflict, and a resume runs them again', async () => {
    world = await startFanoutWorld({ units: 6, shardSize: 2, land: 'per-shard', maxTotalUsd: '3' });
    const w = world;
    w.breaks.add('shard-02');
    const first = await w.dispatch();
    expectJob(first, 'land', 'failure');
    // Someone changes a file of shard-01 and one of shard-03 on main; the resume lands their
    // finished results again on the new base, where neither applies.
    w.pushToMain(unitFile(1), `${before(unitFile(1))}// edited meanwhile\n`);
    w.pushToMain(unitFile(6), `${before(unitFile(6))}// edited meanwhile\n`);
    w.breaks.clear();
    const second = await w.dispatch({ resume_run: String(first.id) });
    expectJob(second, 'land', 'failure');
    expect(jobOutput(second, 'land')).toMatch(
      /2 of 3 shard\(s\) are not landed \(shard-01: conflict, shard-03: conflict\)/
    );
    expectShardsReadOnly(w, second);
    const rollupOfSecond = rollups(w)[0];

    const asked = w.anthropic.requests.length;
    const third = await w.dispatch({ resume_run: String(second.id) });
    expectJob(third, 'land', 'success');
    expect(third.jobs.plan!.outputs).toMatchObject({ matrix: '{"shard":["shard-01","shard-03"]}' });
    expect(w.shardsAsked(asked)).toEqual(new Set(['shard-01', 'shard-03']));
    // The model rewrote the file on the new base (its scripted content is the whole file).
    expect(w.show(`fanout/${planOf(third)}/shard-01`, unitFile(1))).toBe(after(unitFile(1)));
    expect(w.github.createdPulls).toHaveLength(3);

    expect(rollupOfSecond).toMatch(row('shard-01', 'conflict'));
    expect(rollupOfSecond).toMatch(row('shard-03', 'conflict'));
    expect(rollupOfSecond).toMatch(row('shard-02', 'pull request opened'));
    expect(rollups(w)).toHaveLength(1);
  });
});
