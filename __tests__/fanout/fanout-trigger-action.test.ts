/**
 * `/agent fanout <task>` and `/agent fanout resume` through the built action (dist/index.js), on a
 * real issue_comment payload (@octokit/webhooks-examples), against the fake GitHub: the fan-out
 * workflow is dispatched with the right inputs and the issue gets a link, no model is called, the
 * request's trust rules hold (a reader is refused), and a resume trusts only a roll-up comment that
 * a run of the fan-out workflow wrote. Every request is checked against @octokit/openapi when the
 * world closes (expectNoContractViolations).
 */
import { jest } from '@jest/globals';
import { rollupMarker } from '../../src/fanout/rollup-marker.js';
import type { ActionRun } from '../../test-support/action-runner.js';
import { reply, text } from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, type ActionWorld } from '../support/action-world.js';
import { BOT, commentPayload, issueNumber, runOnComment } from '../security/workflow-trust-world.js';

jest.setTimeout(180_000);
const startWorld = actionWorldPerTest();

/** The example workflow's dispatch inputs (examples/workflows/fanout.yml). */
const FANOUT_INPUTS = ['prompt', 'units', 'max_total_usd', 'resume_run', 'report_issue'];

async function fanoutWorld(
  options: { readonly permission?: 'write' | 'read'; readonly workflowDeclared?: boolean } = {}
): Promise<ActionWorld> {
  const w = await startWorld({
    github: stateFromPayload(commentPayload('/agent fanout x', 1), {
      senderPermission: options.permission ?? 'write'
    }),
    anthropic: { script: () => reply(text('No model call was expected here.')) }
  });
  if (options.workflowDeclared ?? true)
    w.github.defineDispatchWorkflow({ file: 'fanout.yml', inputs: FANOUT_INPUTS });
  return w;
}

/** The action's reply on the issue: the bot's comments that are not the marker-only claim start. */
function replies(w: ActionWorld): string[] {
  return w.github
    .comments(issueNumber())
    .filter((comment) => comment.user.login === BOT)
    .map((comment) => comment.body);
}

const repoFullName = (w: ActionWorld) => w.github.repo.full_name;

function expectNoModel(w: ActionWorld, run: ActionRun): void {
  expect(w.modelCalls()).toBe(0);
  expect(run.stdout).not.toContain('No model call was expected here.');
}

describe('/agent fanout <task>', () => {
  it('dispatches the fan-out workflow on the default branch with the task and this issue, and links the run', async () => {
    const w = await fanoutWorld();
    const run = await runOnComment(w, '/agent fanout Replace oldApi() with newApi() in src/', '7601');
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('success');
    expect(w.github.dispatches).toEqual([
      {
        workflow: 'fanout.yml',
        ref: 'main',
        inputs: { prompt: 'Replace oldApi() with newApi() in src/', report_issue: String(issueNumber()) },
        runId: 880001
      }
    ]);
    const [reply] = replies(w);
    expect(replies(w)).toHaveLength(1);
    expect(reply).toContain('started the fan-out workflow `fanout.yml` on `main`');
    expect(reply).toContain(`[run 880001](https://github.com/${repoFullName(w)}/actions/runs/880001)`);
    expect(reply).toContain('> Replace oldApi() with newApi() in src/');
    expect(reply).toContain('`/agent fanout resume`');
    // The request is served: a re-delivery of the same comment is a duplicate, not a second fan-out.
    expect(reply).toMatch(/"state":"served"/);
    expectNoModel(w, run);

    // The same comment delivered to a second run (as GitHub may): it finds the request served.
    const again = await w.run({
      eventName: 'issue_comment',
      payload: commentPayload('/agent fanout Replace oldApi() with newApi() in src/', 7601),
      workspace: w.cloneOrigin(),
      runId: '7699'
    });
    expect(again.code).toBe(0);
    expect(again.outputs.conclusion).toBe('skipped');
    expect(w.github.dispatches).toHaveLength(1);
  });

  it("dispatches the workflow the config file's fanout.workflow names", async () => {
    const w = await fanoutWorld({ workflowDeclared: false });
    w.github.defineDispatchWorkflow({ file: 'big-refactor.yml', inputs: FANOUT_INPUTS });
    w.repo.write('.github/compact-agent.yml', 'fanout:\n  workflow: big-refactor.yml\n');
    w.repo.git('add', '-A');
    w.repo.git('commit', '--quiet', '-m', 'the team config');
    w.repo.git('push', '--quiet', 'origin', 'main');
    const run = await runOnComment(w, '/agent fanout Add types to every module', '7605');
    expect(run.outputs.conclusion).toBe('success');
    expect(w.github.dispatches.map((dispatch) => dispatch.workflow)).toEqual(['big-refactor.yml']);
    expect(replies(w).join('\n')).toContain('started the fan-out workflow `big-refactor.yml` on `main`');
  });

  it('refuses a reader: nothing is dispatched, and the reply says why', async () => {
    const w = await fanoutWorld({ permission: 'read' });
    const run = await runOnComment(w, '/agent fanout Replace oldApi() everywhere', '7602');
    expect(run.outputs.conclusion).toBe('refused');
    expect(w.github.dispatches).toEqual([]);
    expect(w.github.requestsTo('POST', /\/dispatches$/)).toEqual([]);
    expect(replies(w).join('\n')).toMatch(/did not start: .*has read access.*needs write/);
    expectNoModel(w, run);
  });

  it('asks for the change when none is given', async () => {
    const w = await fanoutWorld();
    const run = await runOnComment(w, '/agent fanout', '7603');
    expect(run.outputs.conclusion).toBe('refused');
    expect(w.github.dispatches).toEqual([]);
    expect(replies(w).join('\n')).toContain('say which change every shard makes: `/agent fanout <task>`');
  });

  it('says what to check when GitHub refuses the dispatch (the workflow is not there)', async () => {
    const w = await fanoutWorld({ workflowDeclared: false });
    const run = await runOnComment(w, '/agent fanout Replace oldApi()', '7604');
    expect(run.code).not.toBe(0);
    expect(run.outputs.conclusion).toBe('failure');
    expect(w.github.dispatches).toEqual([]);
    expect(replies(w).join('\n')).toMatch(
      /could not start the fan-out workflow `\.github\/workflows\/fanout\.yml` on `main`.*`actions: write`/s
    );
    expectNoModel(w, run);
  });
});

describe('/agent fanout resume', () => {
  it('with no earlier fan-out on the issue: a clear reply, nothing dispatched', async () => {
    const w = await fanoutWorld();
    const run = await runOnComment(w, '/agent fanout resume', '7611');
    expect(run.outputs.conclusion).toBe('refused');
    expect(w.github.dispatches).toEqual([]);
    expect(replies(w).join('\n')).toContain(
      'there is no earlier fan-out on this thread to resume (no roll-up comment of a run of `.github/workflows/fanout.yml` is here)'
    );
    expect(replies(w).join('\n')).toContain('Start one with `/agent fanout <task>`');
    expectNoModel(w, run);
  });

  it("ignores forged roll-up comments (another user's, another workflow's) and resumes the genuine one", async () => {
    const w = await fanoutWorld();
    // Genuine runs of the fan-out workflow, and one of a triage workflow.
    w.github.setWorkflowRun(9401, { status: 'completed', path: '.github/workflows/fanout.yml' });
    w.github.setWorkflowRun(9409, { status: 'completed', path: '.github/workflows/fanout.yml' });
    w.github.setWorkflowRun(9410, { status: 'completed', path: '.github/workflows/triage.yml' });
    const rollup = (run: number) =>
      `## Fan-out roll-up\n\n| shard | status |\n\n${rollupMarker({ run, plan: 'abcdef123456' })}`;
    w.github.addComment(issueNumber(), { user: BOT, body: rollup(9401) });
    // A reader pastes a roll-up naming a newer, real fan-out run: not the bot's, ignored.
    w.github.addComment(issueNumber(), { user: 'mallory', body: rollup(9409) });
    // A triage workflow (the same bot account) quotes one naming its own run: not the fan-out workflow's.
    w.github.addComment(issueNumber(), { user: BOT, body: `🧹 Triage: you wrote\n\n${rollup(9410)}` });

    const run = await runOnComment(w, '/agent fanout resume', '7612');
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('success');
    expect(w.github.dispatches).toEqual([
      {
        workflow: 'fanout.yml',
        ref: 'main',
        inputs: { resume_run: '9401', report_issue: String(issueNumber()) },
        runId: 880001
      }
    ]);
    expect(replies(w).at(-1)).toContain('to resume fan-out run 9401');
    expectNoModel(w, run);
  });

  it('with only forged roll-ups on the issue: nothing to resume', async () => {
    const w = await fanoutWorld();
    w.github.setWorkflowRun(9420, { status: 'completed', path: '.github/workflows/triage.yml' });
    w.github.addComment(issueNumber(), {
      user: BOT,
      body: `🧹 Triage\n\n${rollupMarker({ run: 9420, plan: 'abcdef123456' })}`
    });
    w.github.addComment(issueNumber(), {
      user: 'mallory',
      body: `look\n\n${rollupMarker({ run: 9421, plan: 'abcdef123456' })}`
    });
    const run = await runOnComment(w, '/agent fanout resume', '7613');
    expect(run.outputs.conclusion).toBe('refused');
    expect(w.github.dispatches).toEqual([]);
    expect(replies(w).join('\n')).toContain('1 that no run of it wrote was passed over');
  });
});
