/**
 * `/agent fix all` on a pull request, through the built action against the loopback fakes: every
 * open finding of the bot's reaches the model in one run, the fix is one commit on the pull
 * request's branch, a finding whose lines the commit changed is resolved, and one it did not change
 * is answered in its thread and stays open; the report says which is which.
 */
import { jest } from '@jest/globals';
import { findingFingerprint, fingerprintMarker } from '../../src/review/fingerprint.js';
import { reply, text, toolUse, toolUsesInHistory } from '../../test-support/fake-anthropic/index.js';
import { ACTIONS_BOT, stateFromPayload } from '../../test-support/fake-github/index.js';
import { pushBranchWithFile } from '../support/pushed-branch.js';
import { actionWorldPerTest, examplePayload } from '../support/action-world.js';

jest.setTimeout(240_000);
const startWorld = actionWorldPerTest();

const BRANCH = 'feature/greet';
const BROKEN = "export const greet = () => 'helo';\nexport const bye = () => 'by';\n";
const HALF_FIXED = "export const greet = () => 'hello';\nexport const bye = () => 'by';\n";

const finding = (body: string) => `${body}\n\n${fingerprintMarker(findingFingerprint('greet.js', body))}`;

it('fixes the open findings in one commit, resolves the fixed one and says why the other stays open', async () => {
  const payload = examplePayload('issue_comment', 'created', '/agent fix all');
  (payload.issue as Record<string, unknown>).pull_request = {
    url: 'https://api.github.com/repos/o/r/pulls/1'
  };
  const pull = (payload.issue as { number: number }).number;
  const w = await startWorld({
    github: stateFromPayload(payload, {
      senderPermission: 'write',
      pull: { head: { ref: BRANCH, sha: '0'.repeat(40) } }
    }),
    anthropic: {
      script: (request) =>
        toolUsesInHistory(request).length === 0
          ? reply(text('Fixing greet.'), toolUse('write_file', { path: 'greet.js', content: HALF_FIXED }))
          : reply(text('Fixed greet; bye is fine as it is.'))
    }
  });
  const sha = pushBranchWithFile(w.repo, BRANCH, 'greet.js', BROKEN);
  w.github.pushHead(pull, { sha, files: [] });
  const first = w.github.addReviewComment(pull, {
    user: ACTIONS_BOT,
    body: finding('**Typo**: greet() says helo.'),
    path: 'greet.js',
    line: 1,
    commit_id: sha
  });
  const second = w.github.addReviewComment(pull, {
    user: ACTIONS_BOT,
    body: finding('**Typo**: bye() says by.'),
    path: 'greet.js',
    line: 2,
    commit_id: sha
  });

  const run = await w.run({ eventName: 'issue_comment', payload, workspace: w.cloneOrigin() });
  expect(run.code).toBe(0);
  const request = JSON.stringify(w.anthropic.requests.find((sent) => sent.path === '/v1/messages')?.body);
  expect(request).toContain('greet() says helo');
  expect(request).toContain('bye() says by');
  expect(w.repo.remoteGit('show', `${BRANCH}:greet.js`)).toBe(HALF_FIXED);
  expect(w.repo.remoteGit('rev-list', '--count', `${sha}..${BRANCH}`).trim()).toBe('1');
  expect(w.github.createdPulls).toHaveLength(0);
  const head = w.repo.remoteGit('rev-parse', BRANCH).trim().slice(0, 12);
  const threadOf = (id: number) => w.github.threads(pull).find((thread) => thread.commentIds.includes(id));
  expect(threadOf(first.id)?.isResolved).toBe(true);
  expect(threadOf(second.id)?.isResolved).toBe(false);
  const answer = w.github.reviewComments(pull).find((comment) => comment.inReplyTo === second.id);
  expect(answer?.body).toContain(`Not fixed by ${head}: the pushed commit did not change its lines.`);
  const report = w.github.comments(pull).at(-1)!.body;
  expect(report).toContain('### Findings fixed: 1 of 2');
  expect(report).toContain(`Fixed in ${head}; the thread is resolved.`);
});
