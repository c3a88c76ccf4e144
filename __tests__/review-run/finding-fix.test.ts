/**
 * `/agent fix` asked in a review thread on the bot's own finding, through the built action against
 * the loopback fakes: the thread's finding reaches the model, the fix is one commit on the pull
 * request's branch (no new branch or pull request), the reply in the thread names the commit, and
 * the finding's thread is resolved. On a person's remark the thread is left for them to resolve.
 */
import { jest } from '@jest/globals';
import { reply, text, toolUse, toolUsesInHistory } from '../../test-support/fake-anthropic/index.js';
import { ACTIONS_BOT, stateFromPayload, type UserSeed } from '../../test-support/fake-github/index.js';
import { pushBranchWithFile } from '../support/pushed-branch.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

jest.setTimeout(240_000);
const startWorld = actionWorldPerTest();

const BRANCH = 'feature/greet';
const BROKEN = "export const greet = () => 'helo';\n";
const FIXED = "export const greet = () => 'hello';\n";
const FINDING = '**Typo**: `greet()` returns `helo`; it should say `hello`.';

async function threadWorld(
  findingBy: UserSeed
): Promise<{ w: ActionWorld; payload: Record<string, unknown>; pull: number; top: number; sha: string }> {
  const payload = examplePayload('pull_request_review_comment', 'created', '/agent fix');
  const pr = payload.pull_request as {
    number: number;
    head: { ref: string; sha: string; repo: { full_name: string } };
    base: { ref: string };
  };
  pr.head.ref = BRANCH;
  pr.head.repo.full_name = (payload.repository as { full_name: string }).full_name;
  const w = await startWorld({
    github: stateFromPayload(payload, { senderPermission: 'write' }),
    anthropic: {
      script: (request) =>
        toolUsesInHistory(request).length === 0
          ? reply(text('Fixing the typo.'), toolUse('write_file', { path: 'greet.js', content: FIXED }))
          : reply(text('greet() now says hello.'))
    }
  });
  const sha = pushBranchWithFile(w.repo, BRANCH, 'greet.js', BROKEN);
  const top = w.github.addReviewComment(pr.number, {
    user: findingBy,
    body: FINDING,
    path: 'greet.js',
    line: 1
  });
  const comment = payload.comment as Record<string, unknown>;
  comment.in_reply_to_id = top.id;
  comment.path = 'greet.js';
  return { w, payload, pull: pr.number, top: top.id, sha };
}

describe('/agent fix in a review thread', () => {
  it("fixes the bot's finding on the pull request's branch, replies with the commit and resolves the thread", async () => {
    const { w, payload, pull, top, sha } = await threadWorld(ACTIONS_BOT);
    const run = await w.run({
      eventName: 'pull_request_review_comment',
      payload,
      workspace: w.cloneOrigin()
    });
    expect(run.code).toBe(0);
    const first = JSON.stringify(
      w.anthropic.requests.find((request) => request.path === '/v1/messages')?.body
    );
    expect(first).toContain('`greet()` returns `helo`');
    expect(w.repo.remoteGit('show', `${BRANCH}:greet.js`)).toBe(FIXED);
    expect(w.repo.remoteGit('rev-list', '--count', `${sha}..${BRANCH}`).trim()).toBe('1');
    expect(w.github.createdPulls).toHaveLength(0);
    const fixed = w.repo.remoteGit('rev-parse', BRANCH).trim();
    const answer = w.github.reviewComments(pull).find((comment) => comment.body.startsWith('✅ Done.'));
    expect(answer?.inReplyTo).toBe(top);
    expect(answer?.body).toContain(
      `Pushed as ${fixed.slice(0, 12)} on \`${BRANCH}\`. The thread is resolved.`
    );
    const thread = w.github.threads(pull).find((candidate) => candidate.commentIds.includes(top));
    expect(thread?.isResolved).toBe(true);
  });

  it("leaves a person's remark for them to resolve", async () => {
    const { w, payload, pull, top } = await threadWorld({ login: 'octocat', type: 'User' });
    const run = await w.run({
      eventName: 'pull_request_review_comment',
      payload,
      workspace: w.cloneOrigin()
    });
    expect(run.code).toBe(0);
    expect(w.repo.remoteGit('show', `${BRANCH}:greet.js`)).toBe(FIXED);
    const answer = w.github.reviewComments(pull).find((comment) => comment.body.startsWith('✅ Done.'));
    expect(answer?.body).toContain("The thread is a person's, so it is left for them to resolve.");
    const thread = w.github.threads(pull).find((candidate) => candidate.commentIds.includes(top));
    expect(thread?.isResolved).toBe(false);
  });
});
