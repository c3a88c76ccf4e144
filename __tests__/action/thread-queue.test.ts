import { jest } from '@jest/globals';
import {
  claimMarker,
  claimsOnThread,
  type Claim,
  type ThreadClaim
} from '../../src/action/duplicate-trigger.js';
import { QUEUE_MAX_WAIT_MS_VARIABLE, QUEUE_POLL_MS_VARIABLE } from '../../src/config/test-switches.js';
import type { ThreadComment } from '../../src/github/api/github-api.js';
import { ACTION_FROM_SOURCE, type ActionRun } from '../../test-support/action-runner.js';
import { reply, text, type ParsedRequest } from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload, type FakeGitHub } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

/**
 * The action's own queue and duplicate check (src/action/stages/thread-queue.ts), end to end: the
 * action from source, spawned as the runner would, against the fake GitHub (whose "Get a workflow
 * run attempt" says which runs still go on) and the fake Anthropic.
 */

/** Several spawned runs on a shared, busy machine: generous, only so that a hang fails. */
jest.setTimeout(240_000);

const BOT = 'github-actions[bot]';
/** The queue looks every 100 ms here (honoured only against a loopback API). */
const FAST_QUEUE = { [QUEUE_POLL_MS_VARIABLE]: '100' };
const newWorld = actionWorldPerTest();

/**
 * The model: it answers each task at once, naming it, unless `gate` holds that task back. The task
 * is the first TASK-x of the first message, or of its current request in a follow-up (whose record
 * of earlier runs comes first); `firsts` keeps each task's first message.
 */
function model(
  log: string[],
  gate?: { task: string; open: Promise<void> },
  firsts = new Map<string, string>()
) {
  return async (request: ParsedRequest) => {
    const first = JSON.stringify(request.messages[0]?.content ?? '');
    const current = first.indexOf('current-request');
    const task = /TASK-[A-Z]/.exec(current >= 0 ? first.slice(current) : first)?.[0] ?? 'unknown';
    if (!firsts.has(task)) firsts.set(task, first);
    log.push(`${task} starts`);
    if (gate && task === gate.task) await gate.open;
    log.push(`${task} ends`);
    return reply(text(`Nothing to change for ${task}.`));
  };
}

function commentPayload(task: string, id: number): Record<string, unknown> {
  const payload = examplePayload('issue_comment', 'created', `/agent ${task}`);
  (payload.comment as { id: number }).id = id;
  return payload;
}

function threadOf(payload: Record<string, unknown>): number {
  return (payload.issue as { number: number }).number;
}

function claimsOn(github: FakeGitHub, thread: number): ThreadClaim[] {
  const comments: ThreadComment[] = github.comments(thread).map((comment) => ({
    id: comment.id,
    body: comment.body,
    login: comment.user.login,
    userType: comment.user.type === 'Bot' ? 'Bot' : 'User',
    createdAt: comment.created_at
  }));
  return claimsOnThread(comments, BOT, thread);
}

interface RunAs {
  readonly runId: number;
  readonly attempt?: number;
  readonly eventName?: string;
}

/** A workflow run: GitHub says it is in progress while the action runs, and completed after. */
async function workflowRun(
  world: ActionWorld,
  payload: Record<string, unknown>,
  as: RunAs
): Promise<ActionRun> {
  const attempt = as.attempt ?? 1;
  world.github.setWorkflowRun(as.runId, { attempt, status: 'in_progress' });
  try {
    return await world.run({
      eventName: as.eventName ?? 'issue_comment',
      payload,
      runId: String(as.runId),
      entry: ACTION_FROM_SOURCE,
      workspace: world.cloneOrigin(),
      env: { ...FAST_QUEUE, GITHUB_RUN_ATTEMPT: String(attempt) }
    });
  } finally {
    world.github.setWorkflowRun(as.runId, { attempt, status: 'completed' });
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function stateOf(claims: readonly ThreadClaim[], run: number, attempt = 1): Claim['state'] | undefined {
  return claims.find((claim) => claim.run === run && claim.attempt === attempt)?.state;
}

describe('two requests during one run', () => {
  it('both are served after it, one at a time, in the order they were asked', async () => {
    const log: string[] = [];
    const firsts = new Map<string, string>();
    let release = () => {};
    const open = new Promise<void>((resolve) => (release = resolve));
    const first = commentPayload('TASK-A', 9001);
    const thread = threadOf(first);
    const world = await newWorld({
      github: stateFromPayload(first, { senderPermission: 'write' }),
      anthropic: { script: model(log, { task: 'TASK-A', open }, firsts) }
    });
    // A state counts only when its run's transcript artifact proves it: the runs' artifacts are served.
    world.github.linkArtifacts(world.artifacts, (artifact) =>
      Number(/^agent-transcripts-(\d+)-\d+$/.exec(artifact.name)?.[1] ?? 0)
    );
    const second = commentPayload('TASK-B', 9002);
    const third = commentPayload('TASK-C', 9003);
    const login = (first.comment as { user: { login: string } }).user.login;

    const runA = workflowRun(world, first, { runId: 301 });
    await until(() => log.includes('TASK-A starts'), 'run A works');
    // The two comments are posted while A works, each starting its own workflow run.
    world.github.addComment(thread, { id: 9002, user: login, body: '/agent TASK-B' });
    const runB = workflowRun(world, second, { runId: 302 });
    await until(() => waiting(world.github, thread, 302), 'run B waits');
    world.github.addComment(thread, { id: 9003, user: login, body: '/agent TASK-C' });
    const runC = workflowRun(world, third, { runId: 303 });
    await until(() => waiting(world.github, thread, 303), 'run C waits');
    // Neither started while A works: no model call of theirs, and their claims say what they wait for.
    expect(log).toEqual(['TASK-A starts']);
    const waitingNote = world.github.comments(thread).find((c) => c.body.includes('"run":303'))!.body;
    expect(waitingNote).toContain('waits for 2 runs');
    expect(waitingNote).toContain('/actions/runs/301');

    release();
    const [a, b, c] = await Promise.all([runA, runB, runC]);
    for (const run of [a, b, c]) {
      expect(run.code).toBe(0);
      expect(run.outputs.conclusion).toBe('success');
    }
    expect(log).toEqual([
      'TASK-A starts',
      'TASK-A ends',
      'TASK-B starts',
      'TASK-B ends',
      'TASK-C starts',
      'TASK-C ends'
    ]);
    // In order: B continues from A's report, C from B's (the record of earlier runs holds B's request).
    expect(firsts.get('TASK-A')).not.toContain('previous-run');
    expect(firsts.get('TASK-B')).toContain('previous-run');
    expect(firsts.get('TASK-C')).toMatch(/previous-run[\s\S]*TASK-B[\s\S]*current-request/);
    const claims = claimsOn(world.github, thread);
    expect([301, 302, 303].map((run) => stateOf(claims, run))).toEqual(['served', 'served', 'served']);
    // Each claim became its run's report: one comment per request.
    expect(world.github.createdComments).toHaveLength(3);
  });
});

function waiting(github: FakeGitHub, thread: number, run: number): boolean {
  return github.comments(thread).some((c) => c.body.includes(`"run":${run}`) && c.body.includes('waits for'));
}

describe('a duplicate trigger', () => {
  it('an issue opened with /agent and labeled: one run serves it, the other ends quietly with its link', async () => {
    const log: string[] = [];
    const opened = examplePayload('issues', 'opened');
    (opened.issue as { body: string }).body = '/agent TASK-D fix the typo';
    const labeled = examplePayload('issues', 'labeled');
    labeled.issue = structuredClone(opened.issue);
    (labeled.label as { name: string }).name = 'agent';
    const thread = threadOf(opened);
    const world = await newWorld({
      github: stateFromPayload(opened, { senderPermission: 'write' }),
      anthropic: { script: model(log) }
    });
    const inputs = { label_trigger: 'agent' };
    const both = await Promise.all(
      [
        { payload: opened, runId: 401 },
        { payload: labeled, runId: 402 }
      ].map(async ({ payload, runId }) => {
        world.github.setWorkflowRun(runId, { status: 'in_progress' });
        try {
          return await world.run({
            eventName: 'issues',
            payload,
            inputs,
            runId: String(runId),
            entry: ACTION_FROM_SOURCE,
            workspace: world.cloneOrigin(),
            env: FAST_QUEUE
          });
        } finally {
          world.github.setWorkflowRun(runId, { status: 'completed' });
        }
      })
    );
    for (const run of both) expect(run.code).toBe(0);
    const conclusions = both.map((run) => run.outputs.conclusion).sort();
    expect(conclusions).toEqual(['skipped', 'success']);
    expect(log.filter((line) => line.endsWith('starts'))).toEqual(['TASK-D starts']);
    const claims = claimsOn(world.github, thread);
    const served = claims.find((claim) => claim.state === 'served')!;
    const quiet = claims.find((claim) => claim.state === 'duplicate')!;
    expect(served.run).not.toBe(quiet.run);
    const note = world.github.comment(quiet.commentId)!.body;
    expect(note).toContain(`/actions/runs/${served.run})`);
    expect(note).toContain('did not start a second run for this request');
    const skipped = both.find((run) => run.outputs.conclusion === 'skipped')!;
    expect(skipped.outputs.no_change_reason).toMatch(
      /^skipped: another workflow run (already served|is serving)/
    );
  });

  it('the other run claimed first though its run id is higher: this one yields to it', async () => {
    // Two events start two runs; the later-numbered one may post its claim first. Its claim counts
    // like any claim of this workflow (the queue orders by the thread, not by run id).
    const log: string[] = [];
    const payload = commentPayload('TASK-H', 9401);
    const thread = threadOf(payload);
    const world = await newWorld({
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      anthropic: { script: model(log) }
    });
    const first: Claim = { request: 'issue-comment:9401', run: 802, attempt: 1, state: 'working' };
    world.github.addComment(thread, {
      user: { login: BOT, type: 'Bot' },
      body: `🤖 compact-agent is working on this\n\n${claimMarker(first)}\n<!-- compact-agent-tracking -->`
    });
    world.github.setWorkflowRun(802, { status: 'in_progress' });
    const run = await workflowRun(world, payload, { runId: 801 });
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('skipped');
    expect(run.outputs.no_change_reason).toMatch(/^skipped: another workflow run is serving this request/);
    expect(log).toEqual([]);
    expect(stateOf(claimsOn(world.github, thread), 801)).toBe('duplicate');
  });
});

describe('a re-run of a workflow run', () => {
  it('of an attempt that served the request: ends quietly, linking the run, and the step succeeds', async () => {
    const log: string[] = [];
    const payload = commentPayload('TASK-E', 9101);
    const thread = threadOf(payload);
    const world = await newWorld({
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      anthropic: { script: model(log) }
    });
    const first = await workflowRun(world, payload, { runId: 501 });
    expect(first.outputs.conclusion).toBe('success');
    const rerun = await workflowRun(world, payload, { runId: 501, attempt: 2 });
    expect(rerun.code).toBe(0);
    expect(rerun.outputs.conclusion).toBe('skipped');
    expect(rerun.outputs.no_change_reason).toBe(
      'skipped: attempt 1 of this workflow run already served this request'
    );
    expect(log).toEqual(['TASK-E starts', 'TASK-E ends']);
    const claims = claimsOn(world.github, thread);
    expect(stateOf(claims, 501, 1)).toBe('served');
    expect(stateOf(claims, 501, 2)).toBe('duplicate');
  });

  it.each([
    ['ended with a fault report', 'failed'],
    ['was cancelled while it worked', 'working']
  ] as const)('of an attempt that %s before serving it: runs the request', async (_how, state) => {
    const log: string[] = [];
    const payload = commentPayload('TASK-F', 9201);
    const thread = threadOf(payload);
    const world = await newWorld({
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      anthropic: { script: model(log) }
    });
    // What attempt 1 left on the thread: its claim, never served. GitHub says that attempt is over.
    const claim: Claim = { request: 'issue-comment:9201', run: 601, attempt: 1, state };
    world.github.addComment(thread, {
      user: { login: BOT, type: 'Bot' },
      body: `🤖 compact-agent is working on this\n\n${claimMarker(claim)}\n<!-- compact-agent-tracking -->`
    });
    const rerun = await workflowRun(world, payload, { runId: 601, attempt: 2 });
    expect(rerun.code).toBe(0);
    expect(rerun.outputs.conclusion).toBe('success');
    expect(log).toEqual(['TASK-F starts', 'TASK-F ends']);
    expect(stateOf(claimsOn(world.github, thread), 601, 2)).toBe('served');
  });
});

describe('a run that waits too long', () => {
  it('gives up at the bound, fails the step and says on the thread what it waited for', async () => {
    const log: string[] = [];
    const payload = commentPayload('TASK-G', 9301);
    const thread = threadOf(payload);
    const world = await newWorld({
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      anthropic: { script: model(log) }
    });
    // An earlier run on the thread that never ends (GitHub says it is in progress throughout).
    const hung: Claim = { request: 'issue-comment:9300', run: 700, attempt: 1, state: 'working' };
    world.github.addComment(thread, {
      user: { login: BOT, type: 'Bot' },
      body: `🤖 compact-agent is working on this\n\n${claimMarker(hung)}\n<!-- compact-agent-tracking -->`
    });
    world.github.setWorkflowRun(700, { status: 'in_progress' });
    world.github.setWorkflowRun(701, { status: 'in_progress' });
    const run = await world.run({
      eventName: 'issue_comment',
      payload,
      runId: '701',
      entry: ACTION_FROM_SOURCE,
      workspace: world.cloneOrigin(),
      env: { ...FAST_QUEUE, [QUEUE_MAX_WAIT_MS_VARIABLE]: '1500' }
    });
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    expect(log).toEqual([]);
    const claims = claimsOn(world.github, thread);
    expect(stateOf(claims, 701)).toBe('failed');
    const note = world.github.comment(claims.find((claim) => claim.run === 701)!.commentId)!;
    expect(note.body).toContain('gave up');
    expect(note.body).toContain('/actions/runs/700)');
    // It showed the wait while it waited.
    expect(note.history.some((body) => body.includes('waits for [workflow run 700]'))).toBe(true);
    expect(run.stdout).toMatch(/::error::compact-agent waited .* and gave up/);
  });
});
