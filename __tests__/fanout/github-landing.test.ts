import { rmSync } from 'node:fs';
import { OctokitHeadPullRequests } from '../../src/github/api/head-pull-requests.js';
import { WritePacer } from '../../src/github/api/paced-writes.js';
import { UNSPACED_LOOPBACK_WRITES_VARIABLE } from '../../src/config/test-switches.js';
import { GitRepository } from '../../src/git/repository.js';
import { landShards, type Landing, type LandPolicy } from '../../src/fanout/land.js';
import type { FanoutManifest } from '../../src/fanout/manifest.js';
import type { ShardResult } from '../../src/fanout/shard-result.js';
import { publishLandingOnGitHub } from '../../src/fanout/github-landing.js';
import { buildRollup } from '../../src/fanout/rollup.js';
import { rollupMarkdown } from '../../src/fanout/rollup-markdown.js';
import { writeRollup } from '../../src/fanout/rollup-target.js';
import { OctokitMarkedPosts } from '../../src/github/api/marked-posts.js';
import { OctokitWorkflowRunReads } from '../../src/github/api/workflow-runs.js';
import { ownWorkflowOrigin } from '../../src/followup/workflow-origin.js';
import { ACTIONS_BOT, startFakeGitHub, type FakeGitHub } from '../../test-support/fake-github/index.js';
import { expectNoContractViolations } from '../../test-support/github-contract/index.js';
import { VirtualClock } from '../../test-support/virtual-clock.js';
import { createRepoWithRemote, type RepoWithRemote } from '../support/temp-repo.js';

/**
 * The land role's publishing: real git pushing to a local bare remote, real Octokit against the fake
 * GitHub, whose secondary limit refuses writes less than a second apart by a virtual clock the pacer
 * shares (so nothing waits for real, and a write the pacer let through too early would be refused).
 */
const PLAN = 'abcdef12';
/** The land job's identity as the action sets it by default: bot_name and bot_email of github-actions[bot]. */
const identity = {
  name: ACTIONS_BOT.login,
  email: `${ACTIONS_BOT.id}+${ACTIONS_BOT.login}@users.noreply.github.com`
};

let repo: RepoWithRemote;
let git: GitRepository;
let base: string;
let fake: FakeGitHub;
let clock: VirtualClock;
let pacer: WritePacer;

const manifest = (): FanoutManifest => ({
  version: 1,
  planId: PLAN,
  origin: { repository: 'octo/repo', workflow: '.github/workflows/fanout.yml' },
  prompt: 'Replace oldApi with newApi. Fixes #1, thanks @octocat <img src=x>',
  unitSource: { kind: 'command', command: 'git grep -l oldApi' },
  unitsBefore: 3,
  totalCapUsd: 3,
  validationRetries: 0,
  shards: [
    { id: 'shard-01', paths: ['a.txt'], budgetUsd: 1 },
    { id: 'shard-02', paths: ['b.txt'], budgetUsd: 1 },
    { id: 'shard-03', paths: ['c.txt'], budgetUsd: 1 }
  ]
});

beforeEach(async () => {
  repo = createRepoWithRemote();
  for (const name of ['a', 'b', 'c']) repo.write(`${name}.txt`, `${name}: oldApi()\n`);
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'seed');
  repo.git('push', '-q', 'origin', 'main');
  git = new GitRepository(repo.root);
  base = await git.head();
  clock = new VirtualClock();
  pacer = new WritePacer({ clock });
  fake = await startFakeGitHub({
    repo: { owner: 'octo', name: 'repo', default_branch: 'main' },
    issues: [{ number: 1, title: 'Move off oldApi', user: 'octocat' }],
    clock: () => clock.now(),
    secondaryLimitOnFastWrites: { minGapMs: 1000, retryAfterSeconds: 60 }
  });
});

afterEach(async () => {
  expectNoContractViolations(fake);
  await fake.close();
  repo.remove();
});

/** A shard's patch: its file's line rewritten to `text`. */
function result(shardId: string, file: string, text: string): ShardResult {
  repo.write(file, text);
  const patch = repo.git('diff', '--', file);
  repo.git('checkout', '--', file);
  return {
    shardId,
    planId: PLAN,
    status: 'done',
    base,
    costUsd: 0.1,
    budgetUsd: 1,
    stopReason: 'success',
    files: [file],
    refusedPaths: [],
    runs: [],
    patch
  };
}

const results = (cText = 'c: newApi()\n') => [
  result('shard-01', 'a.txt', 'a: newApi()\n'),
  result('shard-02', 'b.txt', 'b: newApi()\n'),
  result('shard-03', 'c.txt', cText)
];

async function land(policy: LandPolicy, shardResults = results()) {
  const landing = await landShards({
    repo: git,
    base,
    planId: PLAN,
    policy,
    identity,
    shards: manifest().shards,
    results: shardResults,
    title: 'Replace oldApi with newApi'
  });
  return publish(landing);
}

const clientOptions = () => ({
  env: { [UNSPACED_LOOPBACK_WRITES_VARIABLE]: '1' },
  logger: { warning: () => undefined },
  writePacer: pacer
});

function publish(landing: Landing) {
  const pulls = new OctokitHeadPullRequests(
    fake.token,
    { owner: 'octo', name: 'repo' },
    fake.url,
    clientOptions()
  );
  return publishLandingOnGitHub({
    landing,
    manifest: manifest(),
    git,
    pulls,
    pacer,
    baseBranch: 'main',
    defaultBranch: 'main',
    identity,
    title: 'Replace oldApi with newApi',
    runUrl: 'https://github.com/octo/repo/actions/runs/77',
    rollupUrl: 'https://github.com/octo/repo/issues/1#issuecomment-5'
  });
}

const remoteHead = (branch: string) => repo.remoteGit('rev-parse', `refs/heads/${branch}`).trim();
const refusedWrites = () => fake.requests.filter((request) => request.status === 403);
const shardBranch = (shard: string) => `fanout/${PLAN}/${shard}`;

describe('publishing a landing on GitHub', () => {
  it('pushes each shard branch and opens one pull request per branch, paced', async () => {
    const published = await land('per-shard');
    expect(published.branches.map((branch) => [branch.branch, branch.state, branch.pushed])).toEqual([
      [shardBranch('shard-01'), 'opened', true],
      [shardBranch('shard-02'), 'opened', true],
      [shardBranch('shard-03'), 'opened', true]
    ]);
    expect(repo.remoteGit('show', `${shardBranch('shard-02')}:b.txt`)).toBe('b: newApi()\n');
    expect(fake.createdPulls.map((pull) => [pull.head.ref, pull.base.ref, pull.title])).toEqual([
      [shardBranch('shard-01'), 'main', 'Replace oldApi with newApi (shard-01)'],
      [shardBranch('shard-02'), 'main', 'Replace oldApi with newApi (shard-02)'],
      [shardBranch('shard-03'), 'main', 'Replace oldApi with newApi (shard-03)']
    ]);
    const first = published.byShard.get('shard-01')!;
    expect(first.url).toBe(`https://github.com/octo/repo/pull/${fake.createdPulls[0]!.number}`);
    // The prompt is someone's text: it closes nothing, pings no one, renders no HTML.
    const body = fake.createdPulls[0]!.body!;
    expect(body).toContain('[roll-up](https://github.com/octo/repo/issues/1#issuecomment-5)');
    expect(body).not.toMatch(/Fixes #1|@octocat|<img/);
    // Every write went through the first time: the pacer kept them a second apart (the fake's limit).
    expect(refusedWrites()).toEqual([]);
    // Three pushes and three pull requests, one pacer: at least five one-second waits between them.
    expect(clock.sleeps.filter((ms) => ms >= 1000).length).toBeGreaterThanOrEqual(5);
  });

  it('a re-run duplicates nothing: same pull requests, branches not pushed again', async () => {
    await land('per-shard');
    const heads = [1, 2, 3].map((n) => remoteHead(shardBranch(`shard-0${n}`)));
    const again = await land('per-shard');
    expect(again.branches.map((branch) => [branch.state, branch.pushed])).toEqual([
      ['updated', false],
      ['updated', false],
      ['updated', false]
    ]);
    expect(fake.createdPulls).toHaveLength(3);
    expect(fake.requestsTo('PATCH', /\/pulls\/\d+$/)).toHaveLength(0);
    expect([1, 2, 3].map((n) => remoteHead(shardBranch(`shard-0${n}`)))).toEqual(heads);
  });

  it('a changed shard moves its branch (a new commit, not a fast-forward) and keeps its pull request', async () => {
    const first = await land('per-shard');
    const before = remoteHead(shardBranch('shard-03'));
    const again = await land('per-shard', results('c: newApi({ strict: true })\n'));
    expect(again.byShard.get('shard-03')).toMatchObject({ state: 'updated', pushed: true });
    expect(again.byShard.get('shard-03')!.number).toBe(first.byShard.get('shard-03')!.number);
    expect(remoteHead(shardBranch('shard-03'))).not.toBe(before);
    expect(repo.remoteGit('show', `${shardBranch('shard-03')}:c.txt`)).toBe('c: newApi({ strict: true })\n');
    expect(fake.createdPulls).toHaveLength(3);
  });

  it('leaves a merged pull request and a declined one as they are', async () => {
    const first = await land('per-shard');
    const merged = fake.pull(first.byShard.get('shard-01')!.number!)!;
    merged.state = 'closed';
    merged.merged = true;
    fake.pull(first.byShard.get('shard-02')!.number!)!.state = 'closed';
    const declinedHead = remoteHead(shardBranch('shard-02'));
    const again = await land('per-shard', results('c: newApi(1)\n'));
    expect(again.branches.map((branch) => [branch.state, branch.number])).toEqual([
      ['merged', merged.number],
      ['closed', first.byShard.get('shard-02')!.number],
      ['updated', first.byShard.get('shard-03')!.number]
    ]);
    expect(again.byShard.get('shard-02')!.detail).toMatch(/closed without merging.*reopen it/);
    expect(remoteHead(shardBranch('shard-02'))).toBe(declinedHead);
    expect(fake.createdPulls).toHaveLength(3);
  });

  it('never replaces a branch someone else pushed to, and says what to do', async () => {
    await land('per-shard');
    const other = repo.root + '-other';
    repo.git('clone', '-q', '--branch', shardBranch('shard-01'), repo.remote, other);
    const theirs = new GitRepository(other);
    await theirs.run(['commit', '-q', '--allow-empty', '-m', 'a reviewer fix'], {
      GIT_AUTHOR_NAME: 'r',
      GIT_AUTHOR_EMAIL: 'r@example.com',
      GIT_COMMITTER_NAME: 'r',
      GIT_COMMITTER_EMAIL: 'r@example.com'
    });
    await theirs.run(['push', '-q', 'origin', `HEAD:refs/heads/${shardBranch('shard-01')}`]);
    rmSync(other, { recursive: true, force: true });
    const pushedByThem = remoteHead(shardBranch('shard-01'));
    const again = await land('per-shard', [result('shard-01', 'a.txt', 'a: newApi(2)\n')]);
    expect(again.byShard.get('shard-01')).toMatchObject({ state: 'failed', pushed: false });
    expect(again.byShard.get('shard-01')!.detail).toMatch(
      /a commit the land job did not make.*re-run the land job/
    );
    expect(remoteHead(shardBranch('shard-01'))).toBe(pushedByThem);
  });

  /** Replaces origin's shard-01 with a commit `make` writes in a clone of it; returns the new tip. */
  async function pushOverShard01(make: (clone: GitRepository) => Promise<unknown>): Promise<string> {
    const other = repo.root + '-other';
    repo.git('clone', '-q', '--branch', shardBranch('shard-01'), repo.remote, other);
    const clone = new GitRepository(other);
    await make(clone);
    await clone.run(['push', '-q', '--force', 'origin', `HEAD:refs/heads/${shardBranch('shard-01')}`]);
    rmSync(other, { recursive: true, force: true });
    return remoteHead(shardBranch('shard-01'));
  }
  const person = {
    GIT_AUTHOR_NAME: 'r',
    GIT_AUTHOR_EMAIL: 'r@example.com',
    GIT_COMMITTER_NAME: 'r',
    GIT_COMMITTER_EMAIL: 'r@example.com'
  };
  const asBot = {
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email
  };

  it.each([
    [
      "a person's commit whose message names the plan",
      (clone: GitRepository) =>
        clone.run(['commit', '-q', '--allow-empty', '-m', `fix for fan-out ${PLAN}`], person),
      /committed by r <r@example.com>, not by the land job's github-actions\[bot\]/
    ],
    [
      'our commit, amended by a person keeping its message',
      (clone: GitRepository) => clone.run(['commit', '-q', '--amend', '--allow-empty', '--no-edit'], person),
      /committed by r <r@example.com>/
    ],
    [
      "a commit as the bot, naming the plan, stacked on the land's commit",
      (clone: GitRepository) =>
        clone.run(['commit', '-q', '--allow-empty', '-m', `more of fan-out ${PLAN}`], asBot),
      /sits on another commit by github-actions\[bot\], not on a base/
    ]
  ])('never replaces %s', async (_, make, why) => {
    await land('per-shard');
    const pushedByThem = await pushOverShard01(make);
    const again = await land('per-shard', [result('shard-01', 'a.txt', 'a: newApi(2)\n')]);
    expect(again.byShard.get('shard-01')).toMatchObject({ state: 'failed', pushed: false });
    const detail = again.byShard.get('shard-01')!.detail!;
    expect(detail).toMatch(why);
    expect(detail).toContain(`delete ${shardBranch('shard-01')} on GitHub, and re-run the land job`);
    expect(remoteHead(shardBranch('shard-01'))).toBe(pushedByThem);
  });

  it('still replaces its own commit on a base that moved', async () => {
    await land('per-shard');
    repo.write('d.txt', 'd\n');
    repo.git('add', 'd.txt');
    repo.git('commit', '-qm', 'a later commit on main');
    repo.git('push', '-q', 'origin', 'main');
    base = await git.head();
    const again = await land('per-shard', [result('shard-01', 'a.txt', 'a: newApi(2)\n')]);
    expect(again.byShard.get('shard-01')).toMatchObject({ state: 'updated', pushed: true });
    expect(repo.remoteGit('rev-parse', `${shardBranch('shard-01')}^`).trim()).toBe(base);
  });

  it("updates only the bot's own pull request: one a person opened from a fan-out branch is left alone", async () => {
    repo.git('push', '-q', 'origin', `${base}:refs/heads/${shardBranch('shard-01')}`);
    const theirs = fake.addPull({
      number: 40,
      title: 'my own work',
      body: 'please keep',
      user: 'mallory',
      head: { ref: shardBranch('shard-01'), sha: base },
      base: { ref: 'main' }
    });
    const published = await land('per-shard', [result('shard-01', 'a.txt', 'a: newApi()\n')]);
    expect(published.byShard.get('shard-01')).toMatchObject({ state: 'failed', pushed: false, number: 40 });
    expect(published.byShard.get('shard-01')!.detail).toMatch(
      /#40 from fanout\/abcdef12\/shard-01 was opened by mallory, not by the action's bot.*re-run the land job/
    );
    expect(fake.pull(theirs.number)).toMatchObject({ title: 'my own work', body: 'please keep' });
    expect(fake.requestsTo('PATCH', /\/pulls\/\d+$/)).toHaveLength(0);
    expect(fake.createdPulls).toHaveLength(0);
    expect(remoteHead(shardBranch('shard-01'))).toBe(base);
  });

  it('lands the combined policy as one branch and one pull request for every landed shard', async () => {
    const published = await land('combined');
    expect(published.branches).toHaveLength(1);
    expect(published.branches[0]).toMatchObject({
      branch: `fanout/${PLAN}/combined`,
      state: 'opened',
      shardIds: ['shard-01', 'shard-02', 'shard-03']
    });
    expect(published.byShard.get('shard-02')!.number).toBe(published.branches[0]!.number);
    expect(fake.createdPulls.map((pull) => pull.title)).toEqual(['Replace oldApi with newApi']);
    expect((await land('combined')).branches[0]).toMatchObject({ state: 'updated', pushed: false });
    expect(fake.createdPulls).toHaveLength(1);
  });

  it('publishes shards that share a branch (a per-owner landing) as one pull request', async () => {
    const combined = await landShards({
      repo: git,
      base,
      planId: PLAN,
      policy: 'combined',
      identity,
      shards: manifest().shards,
      results: results().slice(0, 2),
      title: 'Replace oldApi with newApi'
    });
    const ownerBranch = `fanout/${PLAN}/owner-octo-org-docs`;
    await git.run(['update-ref', `refs/heads/${ownerBranch}`, combined.combinedCommit]);
    const published = await publish({
      combinedCommit: combined.combinedCommit,
      combinedBranch: undefined,
      shards: [
        { status: 'landed', shardId: 'shard-01', branch: ownerBranch, files: ['a.txt'] },
        { status: 'landed', shardId: 'shard-02', branch: ownerBranch, files: ['b.txt'] },
        { status: 'conflict', shardId: 'shard-03', reason: 'its patch no longer applies' }
      ]
    });
    expect(published.branches).toEqual([
      expect.objectContaining({ branch: ownerBranch, shardIds: ['shard-01', 'shard-02'], state: 'opened' })
    ]);
    expect(fake.createdPulls.map((pull) => pull.title)).toEqual([
      'Replace oldApi with newApi (owner-octo-org-docs)'
    ]);
    expect(fake.createdPulls[0]!.body).toContain('2 shards (shard-01, shard-02): 2 unit(s)');
    expect(published.byShard.get('shard-03')).toBeUndefined();
  });

  it('the land writes end to end: pull requests, then the roll-up linking them; a re-run edits it all in place', async () => {
    fake.setWorkflowRun(77, {
      status: 'completed',
      conclusion: 'success',
      path: '.github/workflows/fanout.yml'
    });
    fake.setWorkflowRun(78, {
      status: 'completed',
      conclusion: 'success',
      path: '.github/workflows/fanout.yml'
    });
    const landWrites = async (runId: number) => {
      const shardResults = results();
      const landing = await landShards({
        repo: git,
        base,
        planId: PLAN,
        policy: 'per-shard',
        identity,
        shards: manifest().shards,
        results: shardResults,
        title: 'Replace oldApi with newApi'
      });
      const published = await publish(landing);
      const rollup = buildRollup({
        manifest: manifest(),
        stateDir: '-',
        base,
        policy: 'per-shard',
        results: new Map(shardResults.map((result) => [result.shardId, result])),
        problems: new Map(),
        landings: landing.shards,
        spentUsd: 0.3,
        unitsAfter: 0,
        combinedBranch: undefined
      });
      const runUrl = `https://github.com/octo/repo/actions/runs/${runId}`;
      const markdown = rollupMarkdown({ rollup, published, transcriptUrls: new Map(), runUrl });
      const options = clientOptions();
      return writeRollup(
        {
          posts: new OctokitMarkedPosts(fake.token, { owner: 'octo', name: 'repo' }, fake.url, options),
          planId: PLAN,
          runId,
          bot: { login: ACTIONS_BOT.login },
          origin: ownWorkflowOrigin(
            new OctokitWorkflowRunReads(fake.token, { owner: 'octo', name: 'repo' }, fake.url, options),
            {
              workflowRef: 'octo/repo/.github/workflows/fanout.yml@refs/heads/main',
              repositoryFullName: 'octo/repo'
            }
          ),
          reportIssue: 1,
          issueTitle: 'unused',
          warn: () => undefined
        },
        markdown.body
      );
    };
    const first = await landWrites(77);
    const second = await landWrites(78);
    expect(second).toMatchObject({ id: first.id, created: false });
    expect(fake.createdPulls).toHaveLength(3);
    expect(fake.comments(1)).toHaveLength(1);
    const rollupBody = fake.comments(1)[0]!.body;
    for (const pull of fake.createdPulls)
      expect(rollupBody).toContain(`[#${pull.number}](https://github.com/octo/repo/pull/${pull.number})`);
    expect(rollupBody).toContain('- **Shards** (3): 3 with an open pull request');
    expect(rollupBody).toContain(
      '- **Burndown**: 3 unit(s) before, 0 after the landed change (re-scan): 3 done (100%)'
    );
    expect(refusedWrites()).toEqual([]);
  });
});
