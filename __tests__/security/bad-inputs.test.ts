import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

const startWorld = actionWorldPerTest();
let world: ActionWorld;

const comment = (body: string) => examplePayload('issue_comment', 'created', body);

async function attempt(payload: unknown, inputs: Record<string, string>, eventName = 'issue_comment') {
  world = await startWorld({
    seed: path.resolve('examples/word-stats'),
    github: stateFromPayload(comment('/agent x'), { senderPermission: 'write' }),
    anthropic: { script: wordStatsFixer }
  });
  return world.run({ eventName, payload, inputs });
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
