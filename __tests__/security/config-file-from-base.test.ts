/**
 * The repository config file (.github/compact-agent.yml) is read from the base branch through the
 * action's own git, never from the checkout: a pull request's head controls the checkout, and must
 * not raise its own limits. The built action, real git with a local bare remote, the fake GitHub.
 */
import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

const startWorld = actionWorldPerTest();
const PULL = 1;
const HEAD = 'raise-budget';
/** Far below one model turn's cost: a run held to it stops after its first turn. */
const BASE_BUDGET = '0.0001';

/** `/agent fix it` on pull request #1, whose head branch is HEAD and base main. */
function commentOnPull(): Record<string, unknown> {
  const payload = examplePayload('issue_comment', 'created', '/agent fix the word count');
  const issue = payload.issue as Record<string, unknown>;
  issue.number = PULL;
  issue.pull_request = { url: `https://api.github.com/repos/Codertocat/Hello-World/pulls/${PULL}` };
  return payload;
}

async function worldWithConfigs(base: string | undefined, head: string): Promise<ActionWorld> {
  const world = await startWorld({
    seed: path.resolve('examples/word-stats'),
    github: stateFromPayload(commentOnPull(), {
      senderPermission: 'write',
      pull: { head: { ref: HEAD, sha: '0'.repeat(40) }, base: { ref: 'main' } } as never
    }),
    anthropic: { script: wordStatsFixer }
  });
  const repo = world.repo;
  if (base !== undefined) {
    repo.write('.github/compact-agent.yml', base);
    repo.git('add', '-A');
    repo.git('commit', '--quiet', '-m', 'the team config');
    repo.git('push', '--quiet', 'origin', 'main');
  }
  repo.git('checkout', '--quiet', '-b', HEAD);
  repo.write('.github/compact-agent.yml', head);
  repo.git('add', '-A');
  repo.git('commit', '--quiet', '-m', 'raise my own budget');
  repo.git('push', '--quiet', 'origin', HEAD);
  repo.git('checkout', '--quiet', 'main');
  return world;
}

it("a pull request head that raises its own budget in .github/compact-agent.yml does not get it: the base's holds", async () => {
  const world = await worldWithConfigs(
    `limits:\n  max_budget_usd: ${BASE_BUDGET}\n`,
    'limits:\n  max_budget_usd: 1000\n  max_turns: 1000\n'
  );
  // The checkout is the pull request's head, as a workflow that checks it out has it.
  const run = await world.run({
    eventName: 'issue_comment',
    payload: commentOnPull(),
    inputs: {},
    workspace: world.cloneOrigin(HEAD)
  });
  expect(run.outputs.conclusion).toBe('limit');
  expect(run.outputs.limit).toBe('budget');
});

it('a pull request head that adds the file, with none on the base, gets the defaults', async () => {
  const world = await worldWithConfigs(undefined, 'limits:\n  max_budget_usd: 0.0001\n');
  const run = await world.run({
    eventName: 'issue_comment',
    payload: commentOnPull(),
    inputs: {},
    workspace: world.cloneOrigin(HEAD)
  });
  // The head's file is not read at all: the run goes on with the default budget and succeeds.
  expect(run.outputs.conclusion).toBe('success');
  expect(world.modelCalls()).toBeGreaterThan(1);
});

it('with: wins over the base file, which wins over the defaults', async () => {
  const world = await worldWithConfigs(`limits:\n  max_budget_usd: ${BASE_BUDGET}\n`, '');
  const run = await world.run({
    eventName: 'issue_comment',
    payload: commentOnPull(),
    inputs: { max_budget_usd: '5' },
    workspace: world.cloneOrigin(HEAD)
  });
  expect(run.outputs.conclusion).toBe('success');
});

it('an unknown key in the base file stops the run before any model call, naming the closest key', async () => {
  const world = await worldWithConfigs('limits:\n  max_budget_usdd: 1\n', '');
  const run = await world.run({
    eventName: 'issue_comment',
    payload: commentOnPull(),
    inputs: {},
    workspace: world.cloneOrigin(HEAD)
  });
  expect(run.outputs.conclusion).toBe('failure');
  expect(world.modelCalls()).toBe(0);
  const reply = world.github.createdComments.at(-1)!.body;
  expect(reply).toContain(
    '.github/compact-agent.yml on main: limits.max_budget_usdd is not a key of the compact-agent config. Did you mean limits.max_budget_usd?'
  );
});
