import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

const startWorld = actionWorldPerTest();
let world: ActionWorld;

const comment = (body: string) => examplePayload('issue_comment', 'created', body);

async function attempt(
  payload: unknown,
  inputs: Record<string, string>,
  eventName = 'issue_comment',
  entry?: readonly string[]
) {
  world = await startWorld({
    seed: path.resolve('examples/word-stats'),
    github: stateFromPayload(comment('/agent x'), { senderPermission: 'write' }),
    anthropic: { script: wordStatsFixer }
  });
  return world.run({ eventName, payload, inputs, ...(entry ? { entry } : {}) });
}

// Every request, not only /v1/messages: none of these runs may reach the model's host at all.
const modelCalls = () => world.anthropic.requests.length;

describe('bad inputs get one clear error before any model call, where the user will see it', () => {
  it('a missing API key: the error is posted on the thread, listing every problem', async () => {
    const run = await attempt(comment('/agent fix it'), {
      anthropic_api_key: '',
      max_turns: 'many',
      model: 'gpt-9'
    });
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    const [reply] = world.github.createdComments;
    expect(reply!.body).toContain('compact-agent could not start');
    expect(reply!.body).toContain('No Anthropic API key');
    expect(reply!.body).toContain('max_turns must be a positive number, got "many".');
    expect(reply!.body).toContain('Unknown model "gpt-9"');
    expect(run.stdout).toContain('::error::Invalid configuration:');
    expect(modelCalls()).toBe(0);
  });

  it('skips, quietly, a comment that did not ask for the agent, whatever the inputs', async () => {
    const run = await attempt(comment('looks good to me'), { anthropic_api_key: '' });
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('skipped');
    expect(world.github.createdComments).toEqual([]);
    expect(modelCalls()).toBe(0);
  });

  it('a malformed event names the field', async () => {
    const payload = comment('/agent fix it');
    delete (payload.issue as Record<string, unknown>).number;
    const run = await attempt(payload, {});
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/::error::The issue_comment event payload is not valid: issue\.number/);
    expect(run.summary).toContain('compact-agent did not start');
    expect(modelCalls()).toBe(0);
  });

  it('a 60,000-character comment is refused with a reply', async () => {
    const run = await attempt(comment(`/agent ${'please fix this '.repeat(3750)}`), {});
    expect(run.code).toBe(1);
    expect(world.github.createdComments.map((c) => c.body)).toEqual([
      expect.stringMatching(
        /^⚠️ compact-agent did not start\. The request is 59,99\d characters long; compact-agent takes at most 20,000/
      )
    ]);
    expect(modelCalls()).toBe(0);
    expect(world.repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim()).toBe('main');
  });
});

// Run from the sources: these checks are newer than the committed dist/.
describe('a misconfigured workflow fails the step, naming the input', () => {
  it('a with: key that is no input: named, with the input it was probably meant to be', async () => {
    const run = await attempt(
      comment('/agent fix it'),
      { max_turn: '5' },
      'issue_comment',
      ACTION_FROM_SOURCE
    );
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    const [reply] = world.github.createdComments;
    expect(reply!.body).toContain('compact-agent could not start');
    expect(reply!.body).toContain(
      'max_turn is not an input of compact-agent, so it would be ignored. Did you mean max_turns?'
    );
    expect(run.stdout).toMatch(/::error::Invalid configuration:%0A- max_turn is not an input/);
    expect(run.outputs.no_change_reason).toMatch(/^did not start: Invalid configuration:\n- max_turn /);
    expect(modelCalls()).toBe(0);
  });

  it('a boolean that is neither true nor false (allow_workflow_changes: ture)', async () => {
    const run = await attempt(
      comment('/agent fix it'),
      { allow_workflow_changes: 'ture' },
      'issue_comment',
      ACTION_FROM_SOURCE
    );
    expect(run.code).toBe(1);
    expect(world.github.createdComments[0]!.body).toContain(
      'allow_workflow_changes: "ture" is not true or false. Write true (or True, TRUE) to turn it on'
    );
    expect(modelCalls()).toBe(0);
  });

  it('a workflow_dispatch without prompt or prompt_file: fails (it used to end green, skipped)', async () => {
    const run = await attempt(
      examplePayload('workflow_dispatch'),
      {},
      'workflow_dispatch',
      ACTION_FROM_SOURCE
    );
    expect(run.code).toBe(1);
    expect(run.outputs.conclusion).toBe('failure');
    expect(run.stdout).toContain(
      '::error::Invalid configuration:%0A- A workflow_dispatch run needs a task, and prompt and prompt_file are both unset or empty.'
    );
    expect(run.summary).toContain('compact-agent did not start');
    expect(modelCalls()).toBe(0);
  });

  it('a skipped event still names an unknown input, as a warning, and says why it skipped', async () => {
    const run = await attempt(
      comment('looks good to me'),
      { max_turn: '5' },
      'issue_comment',
      ACTION_FROM_SOURCE
    );
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('skipped');
    expect(run.stdout).toContain(
      'compact-agent skipped: the comment does not contain /agent outside quotes and code.'
    );
    expect(run.stdout).toMatch(
      /::warning::max_turn is not an input of compact-agent.* Did you mean max_turns\?/
    );
    expect(run.outputs.no_change_reason).toBe(
      'skipped: the comment does not contain /agent outside quotes and code'
    );
    expect(world.github.createdComments).toEqual([]);
  });
});
