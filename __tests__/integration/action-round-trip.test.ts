import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import type { ActionRun } from '../../test-support/action-runner.js';
import { stateFromPayload, type PayloadSeedOptions } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

const EXAMPLE = path.resolve('examples/word-stats');

const startWorld = actionWorldPerTest();

async function start(
  eventName: string,
  payload: Record<string, unknown>,
  seed: PayloadSeedOptions = { senderPermission: 'write' },
  inputs: Record<string, string> = {},
  anthropicUrl?: string
): Promise<{ run: ActionRun; world: ActionWorld }> {
  // A schedule payload names no repository: seed the one GITHUB_REPOSITORY names.
  const state =
    'repository' in payload
      ? stateFromPayload(payload, seed)
      : { repo: { owner: 'Codertocat', name: 'Hello-World', default_branch: 'main' } };
  // The issue a dispatched run reports to, when the test names one.
  const issues = inputs.report_issue
    ? [{ number: Number(inputs.report_issue), title: 'Weekly agent runs', user: 'octocat' }]
    : [];
  const world = await startWorld({
    seed: EXAMPLE,
    github: { ...state, issues: [...(state.issues ?? []), ...issues] },
    anthropic: { script: wordStatsFixer }
  });
  const run = await world.run({
    eventName,
    payload,
    // Our micro layer (the old default), so a run this short shows a row of the compaction log: the
    // API's context editing, the default, clears only past 0.7x the threshold (context-editing-cli).
    inputs: { micro_keep_recent: '1', micro_clear_at_least: '1', micro_by: 'client', ...inputs },
    anthropicUrl
  });
  return { run, world };
}

describe('an /agent comment from a writer on an issue', () => {
  it('reacts, tracks, pushes a fixed branch, opens a PR, reports, uploads the transcripts', async () => {
    const payload = examplePayload(
      'issue_comment',
      'created',
      '/agent the word count test fails, please fix it'
    );
    const { run, world: w } = await start('issue_comment', payload);
    expect(run.stderr.trim()).toBe(''); // the resume of workflow commands ends stderr's last line
    expect(run.code).toBe(0);

    const commentId = (payload.comment as { id: number }).id;
    expect(w.github.reactions.map((r) => [r.content, r.subject])).toEqual([
      ['eyes', expect.objectContaining({ id: commentId })]
    ]);

    // The tracking comment: posted at once, edited as the run went, and now the report.
    const [tracking] = w.github.createdComments;
    expect(w.github.createdComments).toHaveLength(1);
    expect(tracking!.history[0]).toContain('compact-agent is working on this');
    expect(tracking!.history.length).toBeGreaterThanOrEqual(2);
    const report = tracking!.body;
    expect(report).toMatch(/^✅ Done · `success`/);
    expect(report).toContain('Fixed `countWords`');
    expect(report).toContain('<details><summary>Compaction log');
    expect(report).toContain('| micro |');
    // The chart's frontmatter (its colours) comes before the diagram's keyword.
    expect(report).toMatch(/```mermaid\n(?:---\n[^`]*\n---\n)?xychart-beta\n/);
    expect(report).toContain('/actions/runs/4242/artifacts/');

    // A branch with the fix, and a draft PR that links the issue.
    const branch = run.outputs.branch_name!;
    expect(branch).toMatch(/^agent\/1-[0-9a-f]{6}$/);
    expect(w.repo.remoteGit('show', `${branch}:src/word-count.js`)).toContain('split(/\\s+/)');
    expect(w.repo.remoteGit('log', '-1', '--format=%an|%s', branch).trim()).toBe(
      'github-actions[bot]|agent: the word count test fails, please fix it'
    );
    expect(w.github.createdPulls).toEqual([
      expect.objectContaining({
        head: expect.objectContaining({ ref: branch }),
        base: expect.objectContaining({ ref: 'main' }),
        draft: true
      })
    ]);
    expect(w.github.createdPulls[0]!.body).toContain('For #1');
    expect(report).toContain(`Pull request: ${run.outputs.pr_url}`);

    expect(run.outputs).toMatchObject({
      conclusion: 'success',
      stop_reason: 'success',
      comment_id: String(tracking!.id),
      num_turns: '5'
    });
    expect(Number(run.outputs.compaction_count)).toBeGreaterThan(0);
    expect(run.summary).toContain('✅ Done');

    // The artifact unpacks to the transcript files.
    const files = w.artifacts.files('agent-transcripts-4242-1');
    expect(run.outputs.artifact_id).toBe(String(w.artifacts.artifact('agent-transcripts-4242-1')!.id));
    const transcript = files.get('4242-1/transcript.jsonl')!.toString('utf8').trimEnd().split('\n');
    expect(JSON.parse(transcript[0]!)).toMatchObject({ type: 'run_start' });
    expect(JSON.parse(transcript.at(-1)!)).toMatchObject({ type: 'run_end', stop_reason: 'success' });
    expect(files.has('4242-1/compaction-log.jsonl')).toBe(true);
  });
});

describe('comments on pull requests', () => {
  it("pushes a same-repository PR comment's work to the PR branch, without a new PR", async () => {
    const payload = examplePayload('issue_comment', 'created', '/agent fix the failing test');
    (payload.issue as Record<string, unknown>).pull_request = {
      url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/1'
    };
    const { run, world: w } = await startWithBranch('issue_comment', payload, 'fix-words');
    expect(run.code).toBe(0);
    expect(run.outputs.branch_name).toBe('fix-words');
    expect(w.repo.remoteGit('show', 'fix-words:src/word-count.js')).toContain('split(/\\s+/)');
    expect(w.github.createdPulls).toEqual([]);
  });

  it("gives the model a review comment's path and diff hunk", async () => {
    const payload = examplePayload('pull_request_review_comment', 'created', '/agent rename this');
    const pr = payload.pull_request as { head: { ref: string }; base: { ref: string } };
    // The base is the world's own branch, as on GitHub (the config file is read from it).
    pr.base.ref = 'main';
    const { run, world: w } = await startWithBranch('pull_request_review_comment', payload, pr.head.ref);
    expect(run.code).toBe(0);
    const firstRequest = w.anthropic.requests.find((r) => r.path === '/v1/messages')!;
    const task = JSON.stringify(firstRequest.request!.messages[0]);
    expect(task).toContain('review comment on README.md');
    expect(task).toContain((payload.comment as { diff_hunk: string }).diff_hunk.split('\n')[0]!);
  });
});

/** Like start(), with `branch` on the remote and the PR's head pointing at it. */
async function startWithBranch(eventName: string, payload: Record<string, unknown>, branch: string) {
  const world = await startWorld({
    seed: EXAMPLE,
    github: stateFromPayload(payload, {
      senderPermission: 'write',
      pull: { head: { ref: branch, repoFullName: 'Codertocat/Hello-World' } } as never
    }),
    anthropic: { script: wordStatsFixer }
  });
  world.repo.git('push', '-q', 'origin', `main:${branch}`);
  const run = await world.run({ eventName, payload });
  return { run, world };
}

describe('a scheduled run', () => {
  it('works from the prompt and reports to the job summary and the PR', async () => {
    const payload = { schedule: '0 3 * * 1' };
    const { run, world: w } = await start('schedule', payload, {}, { prompt: 'Make the test suite pass.' });
    expect(run.code).toBe(0);
    expect(run.summary).toContain('✅ Done');
    expect(run.summary).toContain('Fixed `countWords`');
    expect(w.github.createdComments).toEqual([]);
    expect(w.github.createdPulls[0]!.body).toContain('Fixed `countWords`');
    expect(run.outputs.branch_name).toMatch(/^agent\/run-[0-9a-f]{6}$/);
  });
});

describe('a dispatched run with report_issue', () => {
  it('tracks and reports on that issue, and opens a PR from the prompt', async () => {
    const payload = examplePayload('workflow_dispatch');
    const { run, world: w } = await start(
      'workflow_dispatch',
      payload,
      {},
      { prompt: 'Make the test suite pass.', report_issue: '7', pr_type: 'ready' }
    );
    expect(run.code).toBe(0);
    expect(w.github.createdComments.map((c) => c.issueNumber)).toEqual([7]);
    expect(w.github.createdComments[0]!.body).toMatch(/^✅ Done/);
    expect(w.github.createdPulls).toEqual([expect.objectContaining({ draft: false })]);
    expect(run.outputs.comment_id).toBe(String(w.github.createdComments[0]!.id));
  });
});

describe('who may not start a run', () => {
  it('answers a reader with a short reply, and runs nothing', async () => {
    const payload = examplePayload('issue_comment', 'created', '/agent delete everything');
    const { run, world: w } = await start('issue_comment', payload, { senderPermission: 'read' });
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('refused');
    expect(w.github.createdComments.map((c) => c.body)).toEqual([
      expect.stringMatching(/^🚫 compact-agent did not start: @Codertocat has read access/)
    ]);
    expect(w.modelCalls()).toBe(0);
    expect(w.repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim()).toBe('main');
  });

  it('refuses a bot that is not in allowed_bots', async () => {
    const payload = examplePayload('issue_comment', 'created', '/agent bump deps');
    (payload.comment as { user: { login: string; type: string } }).user = {
      ...(payload.comment as { user: object }).user,
      login: 'renovate[bot]',
      type: 'Bot'
    } as never;
    const { run, world: w } = await start('issue_comment', payload);
    expect(run.outputs.conclusion).toBe('refused');
    expect(w.modelCalls()).toBe(0);
  });

  it('ignores an edited comment without a single API call', async () => {
    const payload = examplePayload('issue_comment', 'edited', '/agent fix it');
    const { run, world: w } = await start('issue_comment', payload);
    expect(run.code).toBe(0);
    expect(run.outputs.conclusion).toBe('skipped');
    expect(run.stdout).toContain('compact-agent skipped: the comment was edited, not created.');
    expect(w.github.requests).toEqual([]);
    expect(w.modelCalls()).toBe(0);
  });
});

describe('a failed run', () => {
  it('still uploads the transcripts and posts a report that says what failed', async () => {
    const payload = examplePayload('issue_comment', 'created', '/agent fix it');
    // Nothing listens on port 9: the model API is down.
    const { run, world: w } = await start(
      'issue_comment',
      payload,
      { senderPermission: 'write' },
      { api_max_retries: '0' },
      'http://127.0.0.1:9'
    );
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ conclusion: 'failure', stop_reason: 'error_during_execution' });
    const report = w.github.createdComments[0]!.body;
    expect(report).toMatch(/^❌ Failed · `error_during_execution`/);
    expect(report).toMatch(/\*\*What failed:\*\* .*Connection error/);
    expect(report).toContain('No files changed');
    const files = w.artifacts.files('agent-transcripts-4242-1');
    expect(
      JSON.parse(files.get('4242-1/transcript.jsonl')!.toString('utf8').trimEnd().split('\n').at(-1)!)
    ).toMatchObject({
      type: 'run_end',
      stop_reason: 'error_during_execution'
    });
  });
});
