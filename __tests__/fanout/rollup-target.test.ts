import { OctokitMarkedPosts } from '../../src/github/api/marked-posts.js';
import { WritePacer } from '../../src/github/api/paced-writes.js';
import { OctokitWorkflowRunReads } from '../../src/github/api/workflow-runs.js';
import { UNSPACED_LOOPBACK_WRITES_VARIABLE } from '../../src/config/test-switches.js';
import { ownWorkflowOrigin } from '../../src/followup/workflow-origin.js';
import { OctokitGitHubApi } from '../../src/github/api/octokit-api.js';
import { writeRollup, type RollupTargetOptions } from '../../src/fanout/rollup-target.js';
import {
  latestTrustedRollup,
  markOf,
  rollupMarker as writtenMarker
} from '../../src/fanout/rollup-marker.js';
import { ACTIONS_BOT, startFakeGitHub, type FakeGitHub } from '../../test-support/fake-github/index.js';
import { expectNoContractViolations } from '../../test-support/github-contract/index.js';
import { VirtualClock } from '../../test-support/virtual-clock.js';

/**
 * Where the roll-up lives, found again by its marker, its author and its origin: real Octokit
 * against the fake GitHub, whose secondary limit refuses writes less than a second apart by a
 * virtual clock the pacer shares; the origin check is the follow-ups' (ownWorkflowOrigin) over the
 * fake's workflow runs.
 */
const PLAN = 'abcdef12';
const FANOUT_RUN = 500;
const LATER_FANOUT_RUN = 501;
const WELCOME_RUN = 600;
const repository = { owner: 'octo', name: 'repo' };

let fake: FakeGitHub;
let clock: VirtualClock;
let warnings: string[];
let pacer: WritePacer;

beforeEach(async () => {
  clock = new VirtualClock();
  pacer = new WritePacer({ clock });
  warnings = [];
  fake = await startFakeGitHub({
    repo: { ...repository, default_branch: 'main' },
    issues: [{ number: 1, title: 'Move off oldApi', user: 'octocat' }],
    clock: () => clock.now(),
    secondaryLimitOnFastWrites: { minGapMs: 1000, retryAfterSeconds: 60 }
  });
  for (const id of [FANOUT_RUN, LATER_FANOUT_RUN])
    fake.setWorkflowRun(id, {
      status: 'completed',
      conclusion: 'success',
      path: '.github/workflows/fanout.yml'
    });
  fake.setWorkflowRun(WELCOME_RUN, {
    status: 'completed',
    conclusion: 'success',
    path: '.github/workflows/welcome.yml'
  });
});

afterEach(async () => {
  expectNoContractViolations(fake);
  await fake.close();
});

function options(runId: number, reportIssue: number | undefined): RollupTargetOptions {
  const clientOptions = {
    env: { [UNSPACED_LOOPBACK_WRITES_VARIABLE]: '1' },
    logger: { warning: (message: string) => warnings.push(message) },
    writePacer: pacer
  };
  return {
    posts: new OctokitMarkedPosts(fake.token, repository, fake.url, clientOptions),
    planId: PLAN,
    runId,
    bot: { login: ACTIONS_BOT.login },
    origin: ownWorkflowOrigin(new OctokitWorkflowRunReads(fake.token, repository, fake.url, clientOptions), {
      workflowRef: 'octo/repo/.github/workflows/fanout.yml@refs/heads/main',
      repositoryFullName: 'octo/repo'
    }),
    ...(reportIssue !== undefined ? { reportIssue } : {}),
    issueTitle: `Fan-out ${PLAN}: replace oldApi`,
    warn: (message) => warnings.push(message)
  };
}

const rollupMarker = (plan: string, run: number) => writtenMarker({ plan, run });

const refusedWrites = () => fake.requests.filter((request) => request.status === 403);

describe('the roll-up on an issue the request came from (report_issue)', () => {
  it('is one comment, made by the first land run and edited by the next', async () => {
    const first = await writeRollup(options(FANOUT_RUN, 1), 'roll-up, first land run');
    expect(first).toMatchObject({ kind: 'comment', created: true });
    const second = await writeRollup(options(LATER_FANOUT_RUN, 1), 'roll-up, after a resume');
    expect(second).toMatchObject({ kind: 'comment', id: first.id, url: first.url, created: false });
    const comments = fake.comments(1);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toBe(`roll-up, after a resume\n\n${rollupMarker(PLAN, LATER_FANOUT_RUN)}`);
    expect(comments[0]!.history).toHaveLength(1);
    expect(refusedWrites()).toEqual([]);
  });

  it("passes over forged markers: someone else's comment, or the bot's in another workflow's run", async () => {
    const forgedByUser = fake.addComment(1, {
      user: 'mallory',
      body: `I copied it\n\n${rollupMarker(PLAN, FANOUT_RUN)}`
    });
    const forgedByWelcome = fake.addComment(1, {
      user: ACTIONS_BOT,
      body: `Welcome! You wrote:\n\n${rollupMarker(PLAN, WELCOME_RUN)}`
    });
    const quotedInside = fake.addComment(1, {
      user: ACTIONS_BOT,
      body: `${rollupMarker(PLAN, FANOUT_RUN)}\n\nquoted above, not at the end`
    });
    const written = await writeRollup(options(FANOUT_RUN, 1), 'the real roll-up');
    expect(written.created).toBe(true);
    for (const forged of [forgedByUser, forgedByWelcome, quotedInside])
      expect(fake.comment(forged.id)!.history).toEqual([]);
    expect(fake.comments(1)).toHaveLength(4);
    expect(warnings).toEqual([
      expect.stringMatching(
        /carries the roll-up marker of plan abcdef12, but mallory wrote it, not the action's bot/
      ),
      expect.stringMatching(
        /carries the roll-up marker of plan abcdef12, but it names run 600 of .github\/workflows\/welcome.yml, not of this workflow/
      )
    ]);
    // The next land run finds the real one, not a forgery.
    expect((await writeRollup(options(LATER_FANOUT_RUN, 1), 'edited')).id).toBe(written.id);
  });

  it("ignores another plan's roll-up", async () => {
    const other = await writeRollup({ ...options(FANOUT_RUN, 1), planId: 'fedcba98' }, 'another plan');
    const ours = await writeRollup(options(FANOUT_RUN, 1), 'this plan');
    expect(ours.id).not.toBe(other.id);
  });
});

describe('the roll-up as a tracking issue of its own', () => {
  it('is one issue per plan, opened once and edited after', async () => {
    fake.addIssue({
      number: 2,
      title: 'A copy',
      user: 'mallory',
      body: `copy\n\n${rollupMarker(PLAN, FANOUT_RUN)}`
    });
    const first = await writeRollup(options(FANOUT_RUN, undefined), 'roll-up, first land run');
    expect(first).toMatchObject({ kind: 'issue', created: true });
    expect(fake.issue(first.id)!.title).toBe('Fan-out abcdef12: replace oldApi');
    const second = await writeRollup(options(LATER_FANOUT_RUN, undefined), 'roll-up, re-run');
    expect(second).toMatchObject({ kind: 'issue', id: first.id, created: false });
    expect(fake.issue(first.id)!.body).toBe(`roll-up, re-run\n\n${rollupMarker(PLAN, LATER_FANOUT_RUN)}`);
    expect(fake.issue(2)!.body).toContain('copy');
    expect(fake.requestsTo('POST', /\/issues$/)).toHaveLength(1);
    expect(refusedWrites()).toEqual([]);
  });
});

describe('the marker', () => {
  it('the land job writes is the one /agent fanout resume reads', async () => {
    await writeRollup(options(FANOUT_RUN, 1), 'roll-up, first land run');
    await writeRollup({ ...options(LATER_FANOUT_RUN, 1), planId: 'fedcba98' }, 'a later fan-out');
    const api = new OctokitGitHubApi(fake.token, repository, fake.url, {
      resilience: { serverErrorRetries: 0 }
    });
    const origin = options(FANOUT_RUN, 1).origin;
    const latest = await latestTrustedRollup(await api.listComments(1), ACTIONS_BOT.login, (run) =>
      origin.judgeRun(run)
    );
    expect(latest).toEqual({ mark: { plan: 'fedcba98', run: LATER_FANOUT_RUN }, passedOver: [] });
  });

  it('is read from the last line only, and only in its exact form', () => {
    expect(markOf(`text\n\n${rollupMarker(PLAN, 7)}\n`)).toEqual({ plan: PLAN, run: 7 });
    expect(markOf(`${rollupMarker(PLAN, 7)}\n\ntext`)).toBeUndefined();
    expect(markOf('<!-- compact-agent-fanout-rollup {"plan":"ABC","run":7} -->')).toBeUndefined();
    expect(markOf('<!-- compact-agent-fanout-rollup {"plan":"abcdef12","run":-1} -->')).toBeUndefined();
    expect(markOf('<!-- compact-agent-fanout-rollup {not json} -->')).toBeUndefined();
  });
});
