/** The thread's context is context: a pull request GitHub cannot read is reported, not fatal. */
import { parseEvent } from '../../src/github/events/event.js';
import { buildThreadContext } from '../../src/github/events/thread-context.js';
import { withSharedThreadReads } from '../../src/followup/shared-thread-reads.js';
import { aPullRequest, MemoryGitHub } from '../support/memory-github.js';
import { webhookExample } from '../support/webhook-examples.js';

const options = { budgetTokens: 10_000, skipCommentId: undefined, isTrusted: async () => true };

describe('buildThreadContext on a review comment', () => {
  const event = () =>
    parseEvent('pull_request_review_comment', webhookExample('pull_request_review_comment', 'created'));

  it('lists the branches and changed files when GitHub answers', async () => {
    const github = new MemoryGitHub();
    github.pullRequest = aPullRequest({ headRef: 'changes', baseRef: 'main' });
    github.files = [{ filename: 'README.md', status: 'modified', additions: 1, deletions: 0 }];
    const context = await buildThreadContext(event(), github, options);
    expect(context).toContain('Base branch: main; head branch: changes.');
    expect(context).toContain('- README.md (modified, +1 -0)');
  });

  it('says the pull request could not be read, and goes on, when the read failed earlier in the run', async () => {
    const github = new MemoryGitHub(); // no pull request: every read fails
    const api = withSharedThreadReads(github);
    // The follow-up check read it first and got the failure the run keeps.
    await expect(api.getPullRequest(2)).rejects.toThrow('404');
    const context = await buildThreadContext(event(), api, options);
    expect(context).toContain(
      "(The pull request's branches and changed files could not be read from GitHub: 404 no pull request. Use git to see them.)"
    );
    expect(context).toMatch(/The request is a review comment on \S+/);
  });
});

describe('buildThreadContext on a submitted review', () => {
  it("gives the pull request's title, body, branches and changed files, as for a comment on it", async () => {
    const event = parseEvent('pull_request_review', webhookExample('pull_request_review', 'submitted'));
    const github = new MemoryGitHub();
    github.pullRequest = aPullRequest({ headRef: 'changes', baseRef: 'main' });
    github.files = [{ filename: 'README.md', status: 'modified', additions: 1, deletions: 0 }];
    const context = await buildThreadContext(event, github, options);
    expect(context).toMatch(/^<github-context>\nPull request #\d+: /);
    expect(context).toContain('<untrusted-data source="pull request body"');
    expect(context).toContain('Base branch: main; head branch: changes.');
  });
});
