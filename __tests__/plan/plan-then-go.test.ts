/**
 * Plan, then approve, as a maintainer sees it: `/agent plan …` runs read-only (the writing tools are
 * not offered, a call by name is refused) and posts a plan with how to approve it; nothing is pushed.
 * `/agent go` on the thread then carries the plan out, with the plan in its first model request.
 */
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { extractState } from '../../src/followup/carried-state.js';
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import {
  reply,
  systemText,
  text,
  toolNames,
  toolResultTexts,
  toolUse,
  toolUsesInHistory,
  type Script
} from '../../test-support/fake-anthropic/index.js';
import type { ActionWorld } from '../support/action-world.js';
import { commentPayload, planWorldPerTest } from '../support/plan-world.js';

const PLAN_MARKER = 'PLAN-7f3a: split on /\\s+/ in countWords';
const BOT = 'github-actions[bot]';
const startPlanWorld = planWorldPerTest();
const planWorld = () => startPlanWorld(planner);

/** A planner while the system prompt says it is a plan run (it tries an edit first), else the demo's fixer. */
const planner: Script = (request, context) => {
  if (!systemText(request).includes('This is a plan run')) return wordStatsFixer(request, context);
  const done = toolUsesInHistory(request).map((call) => call.name);
  if (done.length === 0)
    return reply(
      text('Reading the module, and trying the obvious edit.'),
      toolUse('read_file', { path: 'src/word-count.js' }),
      toolUse('edit_file', { path: 'src/word-count.js', old_string: 'split', new_string: 'splat' })
    );
  const [, editAnswer] = toolResultTexts(request);
  return reply(
    text(
      [
        '## Goal',
        'Make countWords count words separated by any whitespace.',
        '## Steps',
        `1. ${PLAN_MARKER}.`,
        '## Files',
        '- src/word-count.js',
        '## Risks',
        `Edit refused as expected: ${(editAnswer ?? '').slice(0, 60)}`,
        '## Tests',
        '- npm test'
      ].join('\n')
    )
  );
};

const modelRequests = (world: ActionWorld) =>
  world.anthropic.requests.filter((record) => record.path === '/v1/messages');

function firstUserText(world: ActionWorld, index: number): string {
  const request = modelRequests(world)[index]!.request!;
  const first = request.messages[0]!;
  return typeof first.content === 'string'
    ? first.content
    : first.content.map((block) => ('text' in block ? block.text : '')).join('\n');
}

it('posts a plan without pushing, then `/agent go` carries it out with the plan in its task', async () => {
  const world = await planWorld();
  const branchesBefore = world.repo.remoteGit('branch', '--list').trim();
  const plan = await world.run({
    eventName: 'issue_comment',
    payload: commentPayload('/agent plan the word count test fails', 1),
    workspace: world.cloneOrigin(),
    runId: '101',
    entry: ACTION_FROM_SOURCE
  });
  expect(plan.code).toBe(0);
  expect(plan.outputs.conclusion).toBe('success');
  expect(plan.outputs.branch_name).toBe('');
  expect(plan.outputs.no_change_reason).toMatch(/^a plan run changes nothing/);
  expect(world.repo.remoteGit('branch', '--list').trim()).toBe(branchesBefore);
  expect(world.github.createdPulls).toHaveLength(0);
  // Read-only: the writing tools were never offered, and the edit by name was refused with the reason.
  for (const record of modelRequests(world)) {
    expect(toolNames(record.request!)).not.toContain('edit_file');
    expect(toolNames(record.request!)).not.toContain('write_file');
  }
  const report = world.github.createdComments[0]!.body;
  expect(report).toContain('### Plan');
  expect(report).toContain(PLAN_MARKER);
  expect(report).toContain('Edit refused as expected: Denied: this is a read-only plan run.');
  expect(report).toContain('To carry out this plan, comment `/agent go`.');
  expect(report).toContain('None: a plan run is read-only, and nothing is pushed.');
  const state = extractState({ body: report, login: BOT, userType: 'Bot' }, BOT);
  expect(state.kind === 'found' && state.state.mode).toBe('plan');

  const planCalls = modelRequests(world).length;
  const go = await world.run({
    eventName: 'issue_comment',
    payload: commentPayload('/agent go', 2),
    workspace: world.cloneOrigin(),
    runId: '102',
    entry: ACTION_FROM_SOURCE
  });
  expect(go.code).toBe(0);
  expect(go.outputs.branch_name).toMatch(/^agent\//);
  expect(world.github.createdPulls).toHaveLength(1);
  const task = firstUserText(world, planCalls);
  expect(task).toContain('"approved_plan"');
  expect(task).toContain('PLAN-7f3a');
  expect(task).toContain('A maintainer approved the plan recorded above');
  // The commit is titled by the task the plan was for, not by "go".
  const branch = go.outputs.branch_name!;
  expect(world.repo.remoteGit('log', '-1', '--format=%s', branch).trim()).toBe(
    'agent: the word count test fails'
  );
  expect(world.repo.remoteGit('show', `${branch}:src/word-count.js`)).toContain('split(/\\s+/)');
});

it('refuses `/agent go` on a thread without a plan, and says how to ask for one', async () => {
  const world = await planWorld();
  const run = await world.run({
    eventName: 'issue_comment',
    payload: commentPayload('/agent go', 3),
    workspace: world.cloneOrigin(),
    runId: '103',
    entry: ACTION_FROM_SOURCE
  });
  expect(run.code).toBe(0);
  expect(run.outputs.conclusion).toBe('refused');
  expect(world.modelCalls()).toBe(0);
  const reply = world.github.createdComments.at(-1)!.body;
  expect(reply).toMatch(/^🚫 compact-agent did not start: there is no plan on this thread to approve/);
  expect(reply).toContain('`/agent plan <task>`');
});

it('plans first when require_plan_approval is on, and says so', async () => {
  const world = await planWorld();
  const run = await world.run({
    eventName: 'issue_comment',
    payload: commentPayload('/agent fix the word count test', 4),
    inputs: { require_plan_approval: 'true' },
    workspace: world.cloneOrigin(),
    runId: '104',
    entry: ACTION_FROM_SOURCE
  });
  expect(run.code).toBe(0);
  expect(world.github.createdPulls).toHaveLength(0);
  const report = world.github.createdComments[0]!.body;
  expect(report).toContain('### Plan');
  expect(report).toContain('This repository asks for a plan before every change (`require_plan_approval`).');
});
