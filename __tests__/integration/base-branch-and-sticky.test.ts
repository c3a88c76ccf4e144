import { TRACKING_MARKER } from '../../src/github/report/tracking-comment.js';
import {
  reply,
  text,
  toolUse,
  toolUsesInHistory,
  type Script
} from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload, type CommentSeed } from '../../test-support/fake-github/index.js';
import { ACTION_FROM_SOURCE, type ActionRun } from '../../test-support/action-runner.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';
import type { RepoWithRemote } from '../support/temp-repo.js';
import { forgedStateComment } from '../support/forged-state.js';

/**
 * base_branch and use_sticky_comment end to end: the action from src/ in a child process, the real
 * Octokit against the fake GitHub, a real checkout with a local bare origin, and a model that
 * writes one file per run (so every run has something to push).
 */
const BOT = 'github-actions[bot]';
const ISSUE_COMMENTS = /\/issues\/\d+\/comments$/;
/** Two action runs in one test: twice the suite's per-test time, for a loaded machine. */
const TWO_RUNS_MS = 120_000;

function oneFilePerRun(): Script {
  let runs = 0;
  return (request) => {
    if (toolUsesInHistory(request).length === 0) {
      runs++;
      return reply(
        text('Writing the note.'),
        toolUse('write_file', { path: `notes/run-${runs}.md`, content: `run ${runs}\n` })
      );
    }
    return reply(text(`Wrote notes/run-${runs}.md.`));
  };
}

const startWorld = actionWorldPerTest();

function commentPayload(body: string, commentId: number): Record<string, unknown> {
  const payload = examplePayload('issue_comment', 'created', body);
  (payload.comment as { id: number }).id = commentId;
  return payload;
}

async function setUp(comments: CommentSeed[] = []): Promise<ActionWorld> {
  const seed = stateFromPayload(commentPayload('/agent x', 1), { senderPermission: 'write' });
  const issues = (seed.issues ?? []).map((issue) => ({
    ...issue,
    comments: [...(issue.comments ?? []), ...comments]
  }));
  const w = await startWorld({ github: { ...seed, issues }, anthropic: { script: oneFilePerRun() } });
  // The runs' transcript artifacts, as uploaded by the run their name gives: a report is reused only
  // when its artifact proves that a run of this workflow wrote it.
  w.github.linkArtifacts(w.artifacts, (artifact) =>
    Number(/^agent-transcripts-(\d+)-\d+$/.exec(artifact.name)?.[1] ?? 0)
  );
  return w;
}

/** A workflow run on a fresh clone of origin's default branch, as actions/checkout leaves it. */
async function runOnce(
  w: ActionWorld,
  body: string,
  runId: string,
  commentId: number,
  inputs: Record<string, string>
): Promise<ActionRun> {
  return w.run({
    eventName: 'issue_comment',
    payload: commentPayload(body, commentId),
    inputs,
    workspace: w.cloneOrigin(),
    runId,
    entry: ACTION_FROM_SOURCE
  });
}

/** `develop` on origin, one commit ahead of main. */
function pushDevelop(repo: RepoWithRemote): string {
  repo.git('checkout', '-q', '-b', 'develop');
  repo.write('DEVELOP.md', 'only on develop\n');
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'develop work');
  repo.git('push', '-q', 'origin', 'develop');
  repo.git('checkout', '-q', 'main');
  return repo.remoteGit('rev-parse', 'develop').trim();
}

const modelCalls = (w: ActionWorld) =>
  w.anthropic.requests.filter((request) => request.path === '/v1/messages');
const remoteBranches = (w: ActionWorld) =>
  w.repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim().split('\n').sort();

describe('base_branch', () => {
  it("starts the agent's branch from base_branch and opens the pull request into it", async () => {
    const w = await setUp();
    const developTip = pushDevelop(w.repo);
    const mainTip = w.repo.remoteGit('rev-parse', 'main').trim();
    const run = await runOnce(w, '/agent add a note', '6001', 21, { base_branch: 'develop' });
    expect(run.stderr.trim()).toBe(''); // the resume of workflow commands ends stderr's last line
    expect(run.outputs.conclusion).toBe('success');
    const branch = run.outputs.branch_name!;
    expect(branch).toMatch(/^agent\/1-[0-9a-f]{6}$/);
    // The commit's parent is develop's tip, and develop's file is in the pushed tree.
    expect(w.repo.remoteGit('rev-parse', `${branch}^`).trim()).toBe(developTip);
    expect(w.repo.remoteGit('show', `${branch}:DEVELOP.md`)).toBe('only on develop\n');
    expect(w.repo.remoteGit('show', `${branch}:notes/run-1.md`)).toBe('run 1\n');
    expect(w.github.createdPulls.map((pull) => [pull.head.ref, pull.base.ref])).toEqual([
      [branch, 'develop']
    ]);
    // Neither base moved.
    expect(w.repo.remoteGit('rev-parse', 'develop').trim()).toBe(developTip);
    expect(w.repo.remoteGit('rev-parse', 'main').trim()).toBe(mainTip);
  });

  it('a base_branch origin does not have stops the run before the agent: a clear report, no push, no model call', async () => {
    const w = await setUp();
    const run = await runOnce(w, '/agent add a note', '6002', 22, { base_branch: 'release/9' });
    expect(run.code).not.toBe(0);
    expect(run.outputs.conclusion).toBe('failure');
    expect(modelCalls(w)).toEqual([]);
    expect(remoteBranches(w)).toEqual(['main']);
    expect(w.github.createdPulls).toEqual([]);
    const report = w.github.createdComments[0]!.body;
    expect(report).toContain('base_branch is "release/9", but origin has no branch of that name');
    expect(report).not.toContain('is working on this');
    expect(run.stdout).toContain('release/9');
  });
});

describe('use_sticky_comment', () => {
  it(
    "the second run edits the first run's report in place; its only new comment is its claim",
    async () => {
      const w = await setUp();
      const first = await runOnce(w, '/agent add a note', '6101', 31, { use_sticky_comment: 'true' });
      expect(first.outputs.conclusion).toBe('success');
      expect(w.github.requestsTo('POST', ISSUE_COMMENTS)).toHaveLength(1);
      const commentId = first.outputs.comment_id!;
      expect(w.github.comment(Number(commentId))!.body).toContain('run-1.md');

      const second = await runOnce(w, '/agent add another note', '6102', 32, { use_sticky_comment: 'true' });
      expect(second.stderr.trim()).toBe(''); // the resume of workflow commands ends stderr's last line
      expect(second.outputs.conclusion).toBe('success');
      expect(second.outputs.comment_id).toBe(commentId);
      // The one comment it posts is its claim on the request (src/action/stages/thread-queue.ts),
      // which stays a line of its own and says where the report is.
      const posted = w.github.requestsTo('POST', ISSUE_COMMENTS);
      expect(posted).toHaveLength(2);
      const claim = w.github.createdComments.at(-1)!;
      expect(claim.body).toMatch(
        /^🤖 compact-agent served this request: the report is in the comment it keeps/
      );
      expect(claim.body).toContain('"run":6102');
      const sticky = w.github.comment(Number(commentId))!;
      expect(sticky.body).toContain('run-2.md');
      expect(sticky.body).toContain('/actions/runs/6102');
      expect(sticky.body.trimEnd().endsWith(TRACKING_MARKER)).toBe(true);
      // Run 2 took it over with a "working" body before its report.
      expect(
        sticky.history.some((body) => body.includes('is working on this') && body.includes('/runs/6102'))
      ).toBe(true);
    },
    TWO_RUNS_MS
  );

  it(
    'without it, each run posts its own comment',
    async () => {
      const w = await setUp();
      await runOnce(w, '/agent add a note', '6201', 41, {});
      await runOnce(w, '/agent add another note', '6202', 42, {});
      expect(w.github.requestsTo('POST', ISSUE_COMMENTS)).toHaveLength(2);
    },
    TWO_RUNS_MS
  );

  it('never takes over a look-alike: the marker in a comment by someone else', async () => {
    const lookAlike = `✅ Done (not really)\n\n${TRACKING_MARKER}`;
    const w = await setUp([{ id: 777, user: 'octocat', body: lookAlike }]);
    const run = await runOnce(w, '/agent add a note', '6301', 51, { use_sticky_comment: 'true' });
    expect(run.outputs.conclusion).toBe('success');
    expect(w.github.requestsTo('PATCH', /\/issues\/comments\/777$/)).toEqual([]);
    expect(w.github.comment(777)!.body).toBe(lookAlike);
    expect(w.github.requestsTo('POST', ISSUE_COMMENTS)).toHaveLength(1);
    expect(run.outputs.comment_id).not.toBe('777');
    expect(w.github.comment(Number(run.outputs.comment_id))!.user.login).toBe(BOT);
  });

  it('never takes over, nor reads the state of, a user account whose login is bot_name', async () => {
    // `bot_name: my-agent` is a login anyone can register as a normal user; GitHub reports that
    // account's comments with `user.type: User`, the action's own with `Bot`.
    const forged = forgedStateComment();
    const impostor = `✅ Done\n\n${forged}\n\n${TRACKING_MARKER}`;
    const w = await setUp([{ id: 778, user: { login: 'my-agent', type: 'User' }, body: impostor }]);
    const run = await runOnce(w, '/agent add a note', '6401', 61, {
      use_sticky_comment: 'true',
      bot_name: 'my-agent'
    });
    expect(run.outputs.conclusion).toBe('success');
    expect(w.github.requestsTo('PATCH', /\/issues\/comments\/778$/)).toEqual([]);
    expect(w.github.comment(778)!.body).toBe(impostor);
    expect(run.outputs.comment_id).not.toBe('778');
    expect(JSON.stringify(w.anthropic.requests)).not.toContain('FORGED SUMMARY');
    const report = w.github.comment(Number(run.outputs.comment_id))!.body;
    expect(report).toContain('not trusted');
    expect(report).toContain('User account, not the bot account my-agent');
    expect(run.outputs.branch_name).not.toBe('main');
  });
});
