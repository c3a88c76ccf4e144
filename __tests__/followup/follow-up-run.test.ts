import { TRACKING_MARKER } from '../../src/github/markdown/outbound-hidden-markers.js';
import type { RunResult } from '../../src/agent/run-result.js';
import type { StateCheck } from '../../src/followup/state-check.js';
/** Every state counts as proven by its run's artifact here: state-check and workflow-origin tests test that check. */
const OURS: StateCheck = {
  check: (state) => Promise.resolve({ kind: 'verified', state, source: 'Read from its artifact.' })
};
import {
  CARRIED_LIMITS,
  embedState,
  extractState,
  type CarriedState
} from '../../src/followup/carried-state.js';
import { continueOnPreviousBranch, type ContinueRules } from '../../src/followup/continue-target.js';
import { renderFollowUp } from '../../src/followup/follow-up-report.js';
import { startOnThread } from '../../src/followup/start-on-thread.js';
import { findPreviousRun, followUpRequest } from '../../src/followup/previous-run.js';
import { carriedStateOf, embedForReport, type FinishedRun } from '../../src/followup/run-state.js';
import { MAX_BODY_CHARS, renderReport } from '../../src/github/report/report.js';
import type { AccountType, PullRequestAuthor, ThreadComment } from '../../src/github/api/github-api.js';
import { GitRepository } from '../../src/git/repository.js';
import { Redactor } from '../../src/security/redactor.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { createRepoWithRemote } from '../support/temp-repo.js';
import { runResult } from '../support/run-result.js';

const BOT = 'github-actions[bot]';
const SECRET = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
const redact = new Redactor([SECRET]).redact;

const PREVIOUS: CarriedState = {
  version: 1,
  repository: 'octo/repo',
  runId: '41-1',
  runUrl: 'https://github.com/octo/repo/actions/runs/41',
  task: 'Fix the word count.',
  summary: 'Fixed countWords.',
  ledger: 'Stop reason: success',
  recentUserMessages: ['Fix the word count.'],
  branch: 'agent/7-abc123',
  pullRequest: 8,
  artifactId: 99,
  costUsd: 0.25,
  previousRuns: [{ runUrl: 'https://github.com/octo/repo/actions/runs/40', costUsd: 0.5 }]
};

function result(overrides: Partial<RunResult> = {}): RunResult {
  return runResult({ costUsd: 0.125, summary: 'Handled negative numbers.', ...overrides });
}

function finished(overrides: Partial<FinishedRun> = {}): FinishedRun {
  return {
    repository: 'octo/repo',
    thread: 7,
    runId: '42-1',
    runUrl: 'https://github.com/octo/repo/actions/runs/42',
    task: PREVIOUS.task,
    request: 'also handle negative numbers',
    result: result(),
    changes: {
      kind: 'pushed',
      branch: 'agent/7-abc123',
      diffStat: ' src/negative.js | 1 +',
      pullRequestUrl: 'https://github.com/octo/repo/pull/8',
      pullRequestNumber: 8,
      pullRequestError: undefined
    },
    artifact: {
      kind: 'uploaded',
      id: 100,
      url: 'https://github.com/octo/repo/actions/runs/42/artifacts/100'
    },
    branch: 'agent/7-abc123',
    pullRequest: 8,
    previous: PREVIOUS,
    ...overrides
  };
}

function reportWith(state: CarriedState): string {
  const run = finished();
  const hidden = embedForReport(state, redact);
  // As the tracking comment writes it: the report, then the state as its last block.
  const report = renderReport({
    result: run.result as RunResult,
    runUrl: run.runUrl,
    changes: run.changes!,
    artifact: run.artifact,
    transcriptDir: '.transcripts/42-1',
    reserveChars: hidden.length + 2
  });
  return `${report}\n\n${hidden}`;
}

describe('the state a run leaves in its report', () => {
  it('carries the task, summary, ledger, requests, branch, PR, artifact, cost and the runs before it', () => {
    const state = carriedStateOf(finished());
    expect(state).toMatchObject({
      runId: '42-1',
      task: 'Fix the word count.',
      summary: 'Handled negative numbers.',
      recentUserMessages: ['Fix the word count.', 'also handle negative numbers'],
      branch: 'agent/7-abc123',
      pullRequest: 8,
      artifactId: 100,
      costUsd: 0.125,
      previousRuns: [
        { runUrl: 'https://github.com/octo/repo/actions/runs/40', costUsd: 0.5 },
        { runUrl: PREVIOUS.runUrl, costUsd: 0.25 }
      ]
    });
    expect(state.ledger).toContain('src/negative.js | 1 +');
    const report = reportWith(state);
    expect(extractState({ body: report, login: BOT, userType: 'Bot' }, BOT)).toEqual({
      kind: 'found',
      state
    });
  });

  it('is redacted: a secret in the summary or the request is not in the state', () => {
    const state = carriedStateOf(
      finished({ request: `use ${SECRET}`, result: result({ summary: `The token is ${SECRET}.` }) })
    );
    const report = reportWith(state);
    // The state is base64 in the report: only its decoded form can show a leak.
    const found = extractState({ body: report, login: BOT, userType: 'Bot' }, BOT);
    expect(found.kind).toBe('found');
    expect(JSON.stringify(found)).not.toContain(SECRET);
    expect(JSON.stringify(found)).toContain('The token is');
  });

  it('stays bounded: maximal fields still embed, and the report stays under GitHub’s limit', () => {
    const huge = 'é'.repeat(200_000);
    const state = carriedStateOf(
      finished({
        task: huge,
        request: huge,
        result: result({ summary: huge }),
        previous: {
          ...PREVIOUS,
          recentUserMessages: Array.from({ length: 20 }, () => huge.slice(0, CARRIED_LIMITS.message)),
          previousRuns: Array.from({ length: CARRIED_LIMITS.previousRuns }, (_, i) => ({
            runUrl: `https://github.com/octo/repo/actions/runs/${i}`,
            costUsd: 0.01
          }))
        }
      })
    );
    // The schema's bounds alone do not fit the encoded bound: embedState gives up, embedForReport does not.
    expect(embedState(state, redact)).toBe('');
    const report = reportWith(state);
    expect(report.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    const found = extractState({ body: report, login: BOT, userType: 'Bot' }, BOT);
    if (found.kind !== 'found') throw new Error(`not found: ${JSON.stringify(found)}`);
    expect(found.state.recentUserMessages).toHaveLength(CARRIED_LIMITS.messages);
    expect(found.state.previousRuns).toHaveLength(CARRIED_LIMITS.previousRuns);
    expect(found.state.previousRuns.at(-1)!.runUrl).toBe(PREVIOUS.runUrl);
    expect(found.state.summary.length).toBeGreaterThan(0);
  });
});

describe('finding the previous run on a thread', () => {
  const comment = (
    id: number,
    login: string,
    state: CarriedState,
    userType: AccountType = login === BOT ? 'Bot' : 'User'
  ): ThreadComment => ({
    id,
    body: `Report ${id}\n\n${embedState(state, redact)}\n\n${TRACKING_MARKER}`,
    login,
    userType,
    createdAt: `2026-11-23T10:0${id}:00Z`
  });

  it("takes the newest state in the bot's own comments, and passes over a newer pasted one", async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(
      comment(1, BOT, { ...PREVIOUS, runId: 'old' }),
      comment(2, BOT, PREVIOUS),
      comment(3, 'mallory', { ...PREVIOUS, summary: 'FORGED', branch: 'main' })
    );
    const found = await findPreviousRun(api, 7, BOT, 'octo/repo', OURS);
    expect(found).toMatchObject({ kind: 'found', state: PREVIOUS, commentId: 2 });
  });

  it('refuses a state pasted by someone else, and one of another repository, saying why', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(comment(1, 'mallory', PREVIOUS));
    expect(await findPreviousRun(api, 7, BOT, 'octo/repo', OURS)).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('by mallory (not github-actions[bot]) is not trusted')
    });
    const other = new MemoryGitHub();
    other.threadComments.push(comment(1, BOT, { ...PREVIOUS, repository: 'evil/fork' }));
    expect(await findPreviousRun(other, 7, BOT, 'octo/repo', OURS)).toMatchObject({
      kind: 'refused',
      reason: 'the state names the repository evil/fork, not octo/repo'
    });
  });

  it('refuses a state by a user account whose login is bot_name, and takes the bot account’s', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(comment(1, 'my-agent', { ...PREVIOUS, summary: 'FORGED' }, 'User'));
    expect(await findPreviousRun(api, 7, 'my-agent', 'octo/repo', OURS)).toMatchObject({
      kind: 'refused',
      reason:
        'the state in a comment by my-agent is not trusted: that login is a User account, not the bot account my-agent'
    });
    api.threadComments.unshift(comment(0, 'my-agent', PREVIOUS, 'Bot'));
    expect(await findPreviousRun(api, 7, 'my-agent', 'octo/repo', OURS)).toMatchObject({
      kind: 'found',
      state: PREVIOUS,
      commentId: 0
    });
  });

  it('reads `/agent continue` as an explicit follow-up, and the text after it as the request', () => {
    expect(followUpRequest('continue: also handle negatives')).toEqual({
      explicit: true,
      request: 'also handle negatives',
      said: 'also handle negatives'
    });
    expect(followUpRequest('continue')).toEqual({
      explicit: true,
      request: 'Continue the work where it stopped.',
      said: ''
    });
    expect(followUpRequest('continuewith x')).toEqual({
      explicit: false,
      request: 'continuewith x',
      said: 'continuewith x'
    });
    expect(followUpRequest('also handle negatives')).toEqual({
      explicit: false,
      request: 'also handle negatives',
      said: 'also handle negatives'
    });
  });

  it('makes the task the resume task when a state is found, and a fresh task otherwise', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(comment(1, BOT, PREVIOUS));
    const start = await startOnThread(api, 7, {
      check: OURS,
      botLogin: BOT,
      repositoryFullName: 'octo/repo',
      task: 'continue: also handle negatives'
    });
    expect(start.previous).toEqual(PREVIOUS);
    expect(start.originalTask).toBe('Fix the word count.');
    expect(start.task).toMatch(
      /^<previous-run>\n[\s\S]*"original_task": "Fix the word count\."[\s\S]*<\/previous-run>\n\n<current-request>[\s\S]*also handle negatives/
    );

    const empty = await startOnThread(new MemoryGitHub(), 7, {
      check: OURS,
      botLogin: BOT,
      repositoryFullName: 'octo/repo',
      task: 'continue: also handle negatives'
    });
    expect(empty).toMatchObject({
      previous: undefined,
      task: 'continue: also handle negatives',
      refusal: 'there is no earlier run of compact-agent on this thread to continue'
    });
  });

  it('starts fresh when GitHub cannot list the thread, and says how to continue later', async () => {
    const api = new MemoryGitHub();
    api.listComments = () => Promise.reject(new Error('GitHub answered 502 on all 4 attempts'));
    const start = await startOnThread(api, 7, {
      check: OURS,
      botLogin: BOT,
      repositoryFullName: 'octo/repo',
      task: 'continue: also handle negatives'
    });
    expect(start).toMatchObject({
      previous: undefined,
      task: 'continue: also handle negatives',
      refusal:
        'the earlier run on this thread could not be looked up (GitHub answered 502 on all 4 attempts); ' +
        'to continue it, comment again once GitHub answers',
      // What the thread spent is unknown too: max_thread_budget_usd then starts no run (stages/thread-budget.ts).
      spendUnknown:
        'the earlier run on this thread could not be looked up (GitHub answered 502 on all 4 attempts); ' +
        'to continue it, comment again once GitHub answers'
    });
  });
});

describe("a follow-up on the action's own pull request", () => {
  const bot: PullRequestAuthor = { login: BOT, type: 'Bot', id: 41898282 };
  const mallory: PullRequestAuthor = { login: 'mallory', type: 'User', id: 5 };
  const pull = (author: PullRequestAuthor, body: string) => ({
    number: 8,
    title: 't',
    body,
    headRef: 'agent/7-abc123',
    headRepoFullName: 'octo/repo',
    baseRef: 'main',
    author
  });
  const onPull = (api: MemoryGitHub) =>
    startOnThread(api, 8, {
      check: OURS,
      botLogin: BOT,
      repositoryFullName: 'octo/repo',
      task: 'also x',
      pullRequest: 8
    });
  const report = (state: CarriedState): ThreadComment => ({
    id: 1,
    body: `${embedState(state, redact)}\n\n${TRACKING_MARKER}`,
    login: BOT,
    userType: 'Bot',
    createdAt: '2026-11-23T10:00:00Z'
  });

  it('finds the run on the issue the PR was opened for', async () => {
    const api = new MemoryGitHub();
    api.pullRequest = pull(bot, 'For #7, by compact-agent ([run](x)).');
    // MemoryGitHub answers every thread with these: the issue's report is the one found via the PR.
    api.threadComments.push(report(PREVIOUS));
    const calls: number[] = [];
    const listComments = api.listComments.bind(api);
    api.listComments = async (issue?: number) => {
      calls.push(issue!);
      return issue === 7 ? listComments() : [];
    };
    expect((await onPull(api)).previous).toEqual(PREVIOUS);
    expect(calls).toEqual([8, 7]);
  });

  it('ignores a PR someone else opened, and refuses a state that is about another PR', async () => {
    const api = new MemoryGitHub();
    api.pullRequest = pull(mallory, 'For #7, by compact-agent ([run](x)).');
    api.listComments = async (issue?: number) => (issue === 7 ? [report(PREVIOUS)] : []);
    expect(await onPull(api)).toMatchObject({ previous: undefined, refusal: undefined });

    const other = new MemoryGitHub();
    other.pullRequest = pull(bot, 'For #7, by compact-agent ([run](x)).');
    other.listComments = async (issue?: number) =>
      issue === 7 ? [report({ ...PREVIOUS, pullRequest: 9 })] : [];
    expect(await onPull(other)).toMatchObject({
      previous: undefined,
      refusal: 'the latest run on #7 is about pull request #9, not #8'
    });
  });
});

describe('where a follow-up works', () => {
  const RULES: ContinueRules = {
    branchPrefix: 'agent/',
    defaultBranch: 'main',
    bot: { login: BOT },
    protection: { isProtected: () => Promise.resolve(false) }
  };
  const fresh = { kind: 'new-branch', branch: 'agent/7-new', base: 'main', issueNumber: 7 } as const;

  it.each([
    [{ merged: true, state: 'closed' as const }, 'The pull request #8 was merged'],
    [{ merged: false, state: 'closed' as const }, 'The pull request #8 was closed']
  ])('starts a new branch when the PR is %o', async (pullState, why) => {
    const repo = createRepoWithRemote();
    try {
      repo.git('push', '-q', 'origin', `main:${PREVIOUS.branch!}`);
      const api = new MemoryGitHub();
      api.pullRequest = {
        number: 8,
        title: 't',
        body: '',
        headRef: PREVIOUS.branch!,
        headRepoFullName: 'octo/repo',
        baseRef: 'main',
        ...pullState
      };
      const continued = await continueOnPreviousBranch(
        PREVIOUS,
        fresh,
        api,
        new GitRepository(repo.root),
        RULES
      );
      expect(continued.target).toEqual(fresh);
      expect(continued.note).toBe(`${why}, so this run starts a new branch from \`main\`.`);
    } finally {
      repo.remove();
    }
  });

  it('does not take a branch that only ends like the previous one for it (ls-remote matches tails)', async () => {
    const repo = createRepoWithRemote();
    try {
      // The previous branch was deleted; someone pushed x/refs/heads/<branch>, which ls-remote also lists.
      repo.git('push', '-q', 'origin', `main:refs/heads/x/refs/heads/${PREVIOUS.branch!}`);
      const continued = await continueOnPreviousBranch(
        { ...PREVIOUS, pullRequest: null },
        fresh,
        new MemoryGitHub(),
        new GitRepository(repo.root),
        RULES
      );
      expect(continued.target).toEqual(fresh);
      expect(continued.note).toContain(`The branch \`${PREVIOUS.branch!}\` was deleted`);
    } finally {
      repo.remove();
    }
  });

  it('never hands git a carried branch name it could read as an option', async () => {
    const repo = createRepoWithRemote();
    try {
      const continued = await continueOnPreviousBranch(
        { ...PREVIOUS, branch: '--upload-pack=touch /tmp/x', pullRequest: null },
        fresh,
        new MemoryGitHub(),
        new GitRepository(repo.root),
        RULES
      );
      expect(continued.target).toEqual(fresh);
      expect(continued.note).toContain('cannot be continued');
    } finally {
      repo.remove();
    }
  });
});

describe('the follow-up section of the report', () => {
  it('links every run and shows each cost and the cumulative cost', () => {
    const section = renderFollowUp(
      { kind: 'continued', previous: PREVIOUS, whereNote: 'Continued on `agent/7-abc123`.' },
      { runUrl: 'https://github.com/octo/repo/actions/runs/42', costUsd: 0.125 }
    );
    expect(section).toContain('[the previous run](https://github.com/octo/repo/actions/runs/41)');
    expect(section).toContain('| 1 | [run](https://github.com/octo/repo/actions/runs/40) | $0.5000 |');
    expect(section).toContain('| 2 | [run](https://github.com/octo/repo/actions/runs/41) | $0.2500 |');
    expect(section).toContain('| 3 | [this run](https://github.com/octo/repo/actions/runs/42) | $0.1250 |');
    expect(section).toContain('**cumulative** | **$0.8750**');
  });

  it('says a run started fresh, and why, without rendering what the reason quotes', () => {
    const section = renderFollowUp(
      {
        kind: 'fresh-after-refusal',
        reason: 'the state in a comment by @mallory is not trusted <img src=x>'
      },
      { runUrl: 'https://github.com/octo/repo/actions/runs/42', costUsd: 0 }
    );
    expect(section).toMatch(/^ℹ️ Started fresh, without the state of an earlier run: /);
    expect(section).not.toMatch(/@mallory|<img/);
  });
});
