import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import { stateFromPayload, type Permission } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload } from '../support/action-world.js';

const startWorld = actionWorldPerTest();

/** The real `pull_request_review.submitted` example, its review saying `body`. */
function review(body: string): Record<string, unknown> {
  const payload = examplePayload('pull_request_review', 'submitted');
  (payload.review as { body: string | null }).body = body;
  return payload;
}

/** A world whose origin has the PR's head branch, with the reviewer (the sender) at `permission`. */
async function reviewWorld(payload: Record<string, unknown>, permission: Permission) {
  const branch = (payload.pull_request as { head: { ref: string } }).head.ref;
  const world = await startWorld({
    seed: path.resolve('examples/word-stats'),
    github: stateFromPayload(payload, { senderPermission: permission }),
    anthropic: { script: wordStatsFixer }
  });
  world.repo.git('push', '-q', 'origin', `main:${branch}`);
  return { world, branch };
}

describe('a pull request review with /agent in its body', () => {
  it("from a writer: runs, pushes to the PR's branch (no new PR), and reports on the PR", async () => {
    const payload = review('Close, but the count is off.\n\n/agent the word count test fails, please fix it');
    const { world, branch } = await reviewWorld(payload, 'write');
    const run = await world.run({ eventName: 'pull_request_review', payload, entry: ACTION_FROM_SOURCE });
    expect(run.outputs.conclusion).toBe('success');
    expect(run.code).toBe(0);
    expect(run.outputs.branch_name).toBe(branch);
    expect(world.repo.remoteGit('show', `${branch}:src/word-count.js`)).toContain('split(/\\s+/)');
    expect(world.github.createdPulls).toEqual([]);
    // The task is the review's text after the phrase, and the report is on the PR's thread.
    const firstRequest = world.anthropic.requests.find((r) => r.path === '/v1/messages')!;
    expect(JSON.stringify(firstRequest.request!.messages[0])).toContain(
      'the word count test fails, please fix it'
    );
    // With the pull request's thread as context, as for a comment on it.
    expect(JSON.stringify(firstRequest.request!.messages[0])).toContain('<github-context>');
    const [tracking] = world.github.createdComments;
    expect(tracking!.issueNumber).toBe(2);
    expect(tracking!.body).toMatch(/^✅ Done/);
    // GitHub has no reactions on reviews: none is attempted.
    expect(world.github.reactions).toEqual([]);
  });

  it('from a reader: refused with a reply on the PR, nothing runs', async () => {
    const payload = review('/agent rewrite everything');
    const { world } = await reviewWorld(payload, 'read');
    const run = await world.run({ eventName: 'pull_request_review', payload, entry: ACTION_FROM_SOURCE });
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('refused');
    expect(run.outputs.no_change_reason).toMatch(/^refused: /);
    expect(world.github.createdComments.map((c) => [c.issueNumber, c.body])).toEqual([
      [2, expect.stringMatching(/^🚫 compact-agent did not start: /)]
    ]);
    expect(world.modelCalls()).toBe(0);
  });
});
