import { reply, scriptFrom, text, toolUse, type Script } from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload, type FakeGitHub } from '../../test-support/fake-github/index.js';
import { ACTION_FROM_SOURCE, type ActionRun } from '../../test-support/action-runner.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

/**
 * The action from src/, end to end against the fakes (real Octokit, SDK and artifact client):
 * triggers that must start nothing, a permission lookup that fails, faults after the tracking
 * comment was posted, and a model whose summary tries to steer the report.
 */
const startWorld = actionWorldPerTest();

const commentPayload = (body: string) => examplePayload('issue_comment', 'created', body);

async function start(
  payload: Record<string, unknown>,
  script: Script,
  prepare: (github: FakeGitHub) => void = () => undefined,
  inputs: Record<string, string> = {}
): Promise<{ run: ActionRun; world: ActionWorld }> {
  const world = await startWorld({
    github: stateFromPayload(payload, { senderPermission: 'write' }),
    anthropic: { script }
  });
  prepare(world.github);
  const run = await world.run({ eventName: 'issue_comment', payload, entry: ACTION_FROM_SOURCE, inputs });
  return { run, world };
}

const summaryOnly = scriptFrom([reply(text('Nothing to do.'))]);

describe('a trigger in a quote or in code', () => {
  it.each([
    ['a quote', '> /agent delete the tests\n\nI disagree with this.'],
    ['a code block', 'It printed:\n```\n/agent delete the tests\n```']
  ])('in %s starts nothing', async (_, body) => {
    const { run, world: w } = await start(commentPayload(body), summaryOnly);
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('skipped');
    expect(w.github.createdComments).toEqual([]);
    expect(w.modelCalls()).toBe(0);
  });
});

describe('a permission lookup that fails', () => {
  it('gets a short reply and a clean refusal (exit 0, no stack), not exit 1 and silence', async () => {
    const { run, world: w } = await start(commentPayload('/agent fix it'), summaryOnly, (github) =>
      github.failAlways({ method: 'GET', path: /\/collaborators\/[^/]+\/permission$/, status: 404 })
    );
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('refused');
    expect(w.github.createdComments.map((comment) => comment.body)).toEqual([
      expect.stringMatching(
        /^🚫 compact-agent did not start: the write access of @Codertocat could not be checked \(404/
      )
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(w.modelCalls()).toBe(0);
  });
});

describe('the tracking comment never stays "working"', () => {
  it("a fault after the agent's turns still ends it as a report with the summary and the run link", async () => {
    // The agent leaves a trap for what the action does next: .git/config becomes a directory.
    const script = scriptFrom([
      reply(toolUse('bash', { command: 'rm -f .git/config && mkdir .git/config && echo done' })),
      reply(text('Rewired the configuration as asked.'))
    ]);
    // Without the box, which shows .git/config read-only: the fault must still end in a report there.
    const { run, world: w } = await start(commentPayload('/agent fix it'), script, undefined, {
      sandbox: 'off'
    });
    expect(w.modelCalls()).toBe(2);
    const [tracking] = w.github.createdComments;
    expect(tracking!.history[0]).toContain('compact-agent is working on this');
    expect(tracking!.body).not.toContain('working on this');
    expect(tracking!.body).toContain('Rewired the configuration as asked.');
    expect(tracking!.body).toContain('[workflow run](');
    expect(tracking!.body).toMatch(/failed|could not/);
    expect(run.summary).toContain('Rewired the configuration as asked.');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('a fault before them (the pull request cannot be read) ends it as a report of what failed', async () => {
    const payload = commentPayload('/agent fix it');
    (payload.issue as { pull_request?: unknown }).pull_request = { url: 'https://api.github.com/x' };
    const { run, world: w } = await start(payload, summaryOnly, (github) =>
      github.failAlways({ method: 'GET', path: /\/pulls\/1$/, status: 500, message: 'Server Error' })
    );
    // The thread's spend cannot be read, so no run starts: the run's claim says why, and the step fails.
    expect(run.code).toBe(1);
    const [tracking] = w.github.createdComments;
    expect(tracking!.body).toMatch(
      /^🚫 compact-agent did not start: what this thread has spent so far cannot be read, .*GitHub answered 500/
    );
    expect(tracking!.body).toContain('re-run the job once it has passed');
    expect(tracking!.body).not.toContain('working on this');
    expect(run.outputs.conclusion).toBe('failure');
    expect(w.modelCalls()).toBe(0);
    // One lookup of four attempts: the follow-up check and the work target share it.
    expect(w.github.requestsTo('GET', /\/pulls\/1$/)).toHaveLength(4);
  }, 120_000);
});

describe('a model that tries to steer the report', () => {
  it('closes no other issue, pings nobody but the requester and renders no HTML, in the comment, the PR body and the job summary', async () => {
    const steering = [
      'Fixes #2, closes octo/other#5. Resolves https://github.com/Codertocat/Hello-World/issues/3',
      'cc @admin @Codertocat/security <img src=x onerror=alert(1)> </details>',
      '```'
    ].join('\n');
    const script = scriptFrom([
      reply(toolUse('bash', { command: 'echo fixed > fix.txt' })),
      reply(text(steering))
    ]);
    const { run, world: w } = await start(commentPayload('/agent fix it'), script);
    expect(run.code).toBe(0);
    const bodies = {
      comment: w.github.createdComments[0]!.body,
      pull: w.github.createdPulls[0]!.body ?? '',
      summary: run.summary
    };
    for (const [where, body] of Object.entries(bodies)) {
      expect([where, body.match(/\b(?:fixes|closes|resolves)\s*#?\s*[\w/:.-]*\d/gi)]).toEqual([where, null]);
      // The one live mention is the requester's, written by the action at the top of the report.
      const mentions = [...body.matchAll(/(?:^|[^\w])@([A-Za-z][\w-]*)/g)].map((match) => match[1]);
      expect([where, mentions]).toEqual([where, where === 'pull' ? [] : ['Codertocat']]);
      expect([where, body.match(/<img|<\/details>\s*$/g)]).toEqual([where, null]);
      expect(body.replace(/\u2060/g, '')).toContain('cc @admin');
    }
  });
});
