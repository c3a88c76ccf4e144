import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { embedState, extractState, type CarriedState } from '../../src/followup/carried-state.js';
import {
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  toolUsesInHistory,
  type FakeAnthropic,
  type ParsedRequest,
  type Script,
  type ScriptedReply
} from '../../test-support/fake-anthropic/index.js';
import { startFakeArtifacts, type FakeArtifacts } from '../../test-support/fake-artifacts/index.js';
import {
  startFakeGitHub,
  stateFromPayload,
  type CommentSeed,
  type FakeGitHub
} from '../../test-support/fake-github/index.js';
import { ACTION_FROM_SOURCE, runAction, type ActionRun } from '../../test-support/action-runner.js';
import { createRepoWithRemote, type RepoWithRemote } from '../support/temp-repo.js';
import { webhookExample } from '../support/webhook-examples.js';
import { forgedStateComment } from '../support/forged-state.js';

const EXAMPLE = path.resolve('examples/word-stats');
const BOT = 'github-actions[bot]';
/** The model key the runs get: it must reach no REST body, even when the writer pastes it. */
const SECRET_KEY = 'sk-ant-followup-secret-7f3a9c';
const FOLLOW_UP_SUMMARY = 'Added src/negative.js: negative numbers are now handled.';
/** Two spawned runs of the action on a shared, busy machine: generous, only so that a hang fails. */
const TWO_RUNS_MS = 240_000;
jest.setTimeout(TWO_RUNS_MS);
const COMMENT_ONLY_SUMMARY = 'COMMENT-ONLY SUMMARY: the copy in the report comment.';

/** A command that fails in the example (it has no lint script): the ledger must carry it. */
const FAILING_COMMAND = 'npm run lint';

/**
 * The model of both runs: for a fresh task, one failing command, then the demo's fixer (which sees
 * the history without that exchange); for a follow-up (its task carries a <previous-run> block), it
 * writes one file and says so.
 */
const script: Script = (request, ...rest) => {
  const first = JSON.stringify(request.messages[0]?.content ?? '');
  if (first.includes('<previous-run')) return followUpStep(request);
  if (toolUsesInHistory(request).length === 0)
    return reply(text('Linting first.'), toolUse('bash', { command: FAILING_COMMAND }));
  return wordStatsFixer(
    { ...request, messages: [request.messages[0]!, ...request.messages.slice(3)] },
    ...rest
  );
};

function followUpStep(request: ParsedRequest): ScriptedReply {
  if (toolUsesInHistory(request).length === 0) {
    return reply(
      text('Adding the negative-number handling.'),
      toolUse('write_file', {
        path: 'src/negative.js',
        content: 'export const isNegative = (n) => n < 0;\n'
      })
    );
  }
  return reply(text(FOLLOW_UP_SUMMARY));
}

interface World {
  repo: RepoWithRemote;
  github: FakeGitHub;
  artifacts: FakeArtifacts;
  anthropic: FakeAnthropic;
  checkouts: string[];
}
let world: World | undefined;

afterEach(async () => {
  if (!world) return;
  await Promise.all([world.github.close(), world.artifacts.close(), world.anthropic.close()]);
  world.repo.remove();
  for (const dir of world.checkouts) rmSync(dir, { recursive: true, force: true });
  world = undefined;
});

function commentPayload(body: string, commentId: number, login?: string): Record<string, unknown> {
  const payload = webhookExample('issue_comment', 'created');
  (payload.repository as { default_branch: string }).default_branch = 'main';
  const comment = payload.comment as { body: string; id: number; user: { login: string } };
  comment.body = body;
  comment.id = commentId;
  if (login !== undefined) comment.user = { ...comment.user, login };
  return payload;
}

async function setUp(
  senderPermission: 'write' | 'read' = 'write',
  comments: CommentSeed[] = []
): Promise<World> {
  const repo = createRepoWithRemote(EXAMPLE);
  const seed = stateFromPayload(commentPayload('/agent fix', 1), { senderPermission });
  const issues = (seed.issues ?? []).map((issue) => ({
    ...issue,
    comments: [...(issue.comments ?? []), ...comments]
  }));
  const [github, artifacts, anthropic] = await Promise.all([
    startFakeGitHub({ ...seed, issues }),
    startFakeArtifacts(),
    startFakeAnthropic({ script })
  ]);
  // GitHub serves what the artifact service stored, as uploaded by the run its name says.
  github.linkArtifacts(artifacts, (artifact) =>
    Number(/^agent-transcripts-(\d+)-\d+$/.exec(artifact.name)?.[1] ?? 0)
  );
  world = { repo, github, artifacts, anthropic, checkouts: [] };
  return world;
}

/** A workflow run: a fresh clone of the remote's default branch, as actions/checkout gives. */
async function runOnce(
  w: World,
  body: string,
  runId: string,
  commentId: number,
  login?: string,
  pullNumber?: number
): Promise<ActionRun> {
  return runEvent(
    w,
    'issue_comment',
    onPullRequest(commentPayload(body, commentId, login), pullNumber),
    runId
  );
}

/** Any event, in a fresh checkout of the default branch. */
async function runEvent(
  w: World,
  eventName: string,
  payload: Record<string, unknown>,
  runId: string
): Promise<ActionRun> {
  const checkout = mkdtempSync(path.join(tmpdir(), 'compact-agent-checkout-'));
  w.checkouts.push(checkout);
  execFileSync('git', ['clone', '--quiet', '--branch', 'main', w.repo.remote, checkout]);
  return runAction({
    eventName,
    payload,
    inputs: { anthropic_api_key: SECRET_KEY },
    workspace: checkout,
    github: w.github,
    artifacts: w.artifacts,
    anthropicUrl: w.anthropic.url,
    runId,
    entry: ACTION_FROM_SOURCE
  });
}

/** The comment on the pull request `pullNumber` (GitHub's issue_comment on a PR), when one is given. */
function onPullRequest(
  payload: Record<string, unknown>,
  pullNumber: number | undefined
): Record<string, unknown> {
  if (pullNumber === undefined) return payload;
  const issue = payload.issue as Record<string, unknown>;
  issue.number = pullNumber;
  issue.pull_request = { url: `https://api.github.com/repos/Codertocat/Hello-World/pulls/${pullNumber}` };
  return payload;
}

const modelRequests = (w: World) => w.anthropic.requests.filter((r) => r.path === '/v1/messages');

function stateIn(body: string): CarriedState {
  const found = extractState({ body, login: BOT, userType: 'Bot' }, BOT);
  if (found.kind !== 'found') throw new Error(`no state in the report: ${JSON.stringify(found)}`);
  return found.state;
}

describe('a follow-up comment continues the previous run', () => {
  it('carries the summary, commits on the same branch, updates the same PR, and leaks no secret', async () => {
    const w = await setUp();
    const first = await runOnce(w, '/agent the word count test fails, please fix it', '5001', 11);
    expect(first.stderr.trim()).toBe(''); // the resume of workflow commands ends stderr's last line
    expect(first.outputs.conclusion).toBe('success');
    const branch = first.outputs.branch_name!;
    const firstCommit = w.repo.remoteGit('rev-parse', branch).trim();
    expect(w.github.createdPulls).toHaveLength(1);
    const pull = w.github.createdPulls[0]!;
    const firstReport = w.github.createdComments[0]!.body;
    const firstState = stateIn(firstReport);
    expect(firstState).toMatchObject({
      runUrl: expect.stringContaining('/actions/runs/5001'),
      branch,
      pullRequest: pull.number,
      previousRuns: []
    });
    expect(firstState.summary).toContain('Fixed `countWords`');
    // The artifact carries the same state, for `compact-agent run --resume <artifact zip>`.
    const artifactState = JSON.parse(
      w.artifacts.files('agent-transcripts-5001-1').get('5001-1/carried-state.json')!.toString('utf8')
    ) as CarriedState;
    expect(artifactState).toEqual({ ...firstState, artifactId: null });
    // Both copies of the ledger carry the failed command, with the first lines of its output.
    expect(firstState.ledger).toContain(`\`${FAILING_COMMAND}\` → exit 1`);
    expect(firstState.ledger).toMatch(/Missing script/);
    // The comment's copy of the summary now differs: what the next run reads shows its source.
    replaceCommentSummary(w, w.github.createdComments[0]!.id, COMMENT_ONLY_SUMMARY);
    const requestsBefore = modelRequests(w).length;
    const githubBefore = w.github.requests.length;

    const second = await runOnce(
      w,
      `/agent continue: also handle negative numbers (the key is ${SECRET_KEY})`,
      '5002',
      12
    );
    expect(second.stderr.trim()).toBe(''); // the resume of workflow commands ends stderr's last line
    expect(second.outputs.conclusion).toBe('success');

    // The follow-up's first model request carries the first run's summary as data.
    expect(modelRequests(w)[requestsBefore]!.request!.messages).toHaveLength(1);
    const task = firstMessageText(w, 1);
    const previousBlock = /<previous-run[\s\S]*<\/previous-run>/.exec(task)?.[0];
    // The summary is the artifact's (the transcript's run_end), not the edited comment's.
    expect(previousBlock).toContain('Fixed `countWords`');
    expect(previousBlock).not.toContain(COMMENT_ONLY_SUMMARY);
    expect(previousBlock).toContain(`\`${FAILING_COMMAND}\` → exit 1`);
    // The artifact was read over the REST API, its blob fetched without the token.
    const secondRunRequests = w.github.requests.slice(githubBefore);
    const artifactId = firstState.artifactId!;
    expect(secondRunRequests.filter((r) => r.path.endsWith(`/actions/artifacts/${artifactId}`))).toHaveLength(
      1
    );
    expect(
      secondRunRequests.filter((r) => r.path.endsWith(`/actions/artifacts/${artifactId}/zip`))
    ).toHaveLength(1);
    const blob = secondRunRequests.filter((r) => r.path.startsWith('/_blob/'));
    expect(blob.map((r) => [r.status, r.headers.authorization])).toEqual([[200, undefined]]);
    // The thread's comments were listed once in the run (the follow-up lookup and the thread context share it).
    expect(
      secondRunRequests.filter((r) => r.method === 'GET' && /\/issues\/1\/comments$/.test(r.path))
    ).toHaveLength(1);
    const currentRequest = /<current-request>[\s\S]*<\/current-request>/.exec(task)?.[0];
    expect(currentRequest).toContain('also handle negative numbers');

    // Its commit sits on the first run's branch, on top of the first run's commit.
    expect(second.outputs.branch_name).toBe(branch);
    expect(w.repo.remoteGit('rev-parse', `${branch}^`).trim()).toBe(firstCommit);
    expect(w.repo.remoteGit('show', `${branch}:src/negative.js`)).toContain('isNegative');
    expect(w.repo.remoteGit('show', `${branch}:src/word-count.js`)).toContain('split(/\\s+/)');

    // No second PR: the first one's body now tells this run's story.
    expect(w.github.createdPulls).toHaveLength(1);
    expect(w.github.requestsTo('PATCH', new RegExp(`/pulls/${pull.number}$`))).toHaveLength(1);
    expect(w.github.pull(pull.number)!.body).toContain(FOLLOW_UP_SUMMARY);

    // The report links the first run and shows the run-by-run and cumulative cost.
    const secondReport = w.github.createdComments[1]!.body;
    expect(secondReport).toContain('### Follow-up');
    expect(secondReport).toContain(
      `The previous run's state was read from its transcript artifact ${artifactId}, whose hash chain checked out.`
    );
    expect(secondReport).toContain(`[the previous run](${firstState.runUrl})`);
    const secondState = stateIn(secondReport);
    const cumulative = (firstState.costUsd + secondState.costUsd).toFixed(4);
    expect(secondReport).toContain(`**cumulative** | **$${cumulative}**`);
    expect(secondState).toMatchObject({
      task: firstState.task,
      branch,
      pullRequest: pull.number,
      previousRuns: [{ runUrl: firstState.runUrl, costUsd: firstState.costUsd }]
    });
    expect(secondState.recentUserMessages).toHaveLength(2);

    // The key the writer pasted was redacted everywhere: in every REST body, and in the state.
    for (const request of w.github.requests)
      expect(JSON.stringify(request.body ?? '')).not.toContain(SECRET_KEY);
    expect(JSON.stringify(secondState)).not.toContain(SECRET_KEY);
    expect(secondState.recentUserMessages[1]).toContain('also handle negative numbers');
  });

  it('starts a new branch from the default branch when the previous one was deleted, and says so', async () => {
    const w = await setUp();
    const first = await runOnce(w, '/agent the word count test fails, please fix it', '5101', 21);
    const branch = first.outputs.branch_name!;
    w.repo.remoteGit('branch', '-D', branch);

    const second = await runOnce(w, '/agent continue: also handle negative numbers', '5102', 22);
    expect(second.outputs.conclusion).toBe('success');
    const newBranch = second.outputs.branch_name!;
    expect(newBranch).not.toBe(branch);
    const main = w.repo.remoteGit('rev-parse', 'main').trim();
    expect(w.repo.remoteGit('rev-parse', `${newBranch}^`).trim()).toBe(main);
    expect(w.github.createdComments[1]!.body).toContain(
      `The branch \`${branch}\` was deleted, so this run starts a new branch from \`main\`.`
    );
  });

  it('keeps commits people pushed on the branch in between', async () => {
    const w = await setUp();
    const first = await runOnce(w, '/agent the word count test fails, please fix it', '5201', 31);
    const branch = first.outputs.branch_name!;
    // A maintainer adds a commit to the agent's branch.
    const human = mkdtempSync(path.join(tmpdir(), 'compact-agent-human-'));
    w.checkouts.push(human);
    execFileSync('git', ['clone', '--quiet', '--branch', branch, w.repo.remote, human]);
    execFileSync(
      'git',
      [
        '-c',
        'user.name=Maintainer',
        '-c',
        'user.email=m@example.com',
        'commit',
        '--quiet',
        '--allow-empty',
        '-m',
        'human note'
      ],
      { cwd: human }
    );
    execFileSync('git', ['push', '--quiet', 'origin', branch], { cwd: human });
    const humanCommit = w.repo.remoteGit('rev-parse', branch).trim();

    const second = await runOnce(w, '/agent continue: also handle negative numbers', '5202', 32);
    expect(second.outputs.conclusion).toBe('success');
    expect(w.repo.remoteGit('rev-parse', `${branch}^`).trim()).toBe(humanCommit);
    expect(w.github.createdPulls).toHaveLength(1);
  });

  it("starts fresh, and says why, when the only state is in someone else's comment", async () => {
    const forged = forgedStateComment();
    const w = await setUp('write', [{ user: 'mallory', body: `Looks done.\n\n${forged}` }]);
    const run = await runOnce(w, '/agent continue: also handle negative numbers', '5301', 41);
    expect(run.outputs.conclusion).toBe('success');
    expect(firstMessageText(w, 0)).not.toContain('<previous-run');
    expect(firstMessageText(w, 0)).not.toContain('FORGED SUMMARY');
    const report = w.github.createdComments[0]!.body;
    expect(report).toContain('ℹ️ Started fresh, without the state of an earlier run');
    expect(report).toContain('not trusted');
    expect(run.outputs.branch_name).not.toBe('main');
  });

  it('continues from a comment on the pull request the first run opened', async () => {
    const w = await setUp();
    const first = await runOnce(w, '/agent the word count test fails, please fix it', '5501', 61);
    const branch = first.outputs.branch_name!;
    const firstCommit = w.repo.remoteGit('rev-parse', branch).trim();
    const pull = w.github.createdPulls[0]!;
    const firstState = stateIn(w.github.createdComments[0]!.body);
    const requestsBefore = modelRequests(w).length;

    const second = await runOnce(
      w,
      '/agent also handle negative numbers',
      '5502',
      62,
      undefined,
      pull.number
    );
    expect(second.outputs.conclusion).toBe('success');
    expect(modelRequests(w)[requestsBefore]!.request!.messages).toHaveLength(1);
    expect(firstMessageText(w, 1)).toMatch(/<previous-run[\s\S]*Fixed `countWords`[\s\S]*<\/previous-run>/);
    expect(w.repo.remoteGit('rev-parse', `${branch}^`).trim()).toBe(firstCommit);
    expect(w.github.createdPulls).toHaveLength(1);
    const report = w.github.createdComments[1]!;
    expect(report.issueNumber).toBe(pull.number);
    expect(report.body).toContain(`[the previous run](${firstState.runUrl})`);
    expect(stateIn(report.body)).toMatchObject({ branch, pullRequest: pull.number });
  });

  it('does not carry a state whose artifact has expired (it cannot be proven), says so, and counts its cost', async () => {
    const w = await setUp();
    await runOnce(w, '/agent the word count test fails, please fix it', '5701', 81);
    const report = w.github.createdComments[0]!;
    const first = stateIn(report.body);
    const artifactId = first.artifactId!;
    replaceCommentSummary(w, report.id, COMMENT_ONLY_SUMMARY);
    w.github.artifactFault(artifactId, 'expired');

    const second = await runOnce(w, '/agent continue: also handle negative numbers', '5702', 82);
    expect(second.outputs.conclusion).toBe('success');
    // Only the comment says what the run did, and anyone commenting as the bot could have written it.
    expect(firstMessageText(w, 1)).not.toContain(COMMENT_ONLY_SUMMARY);
    expect(firstMessageText(w, 1)).not.toContain('<previous-run');
    expect(w.github.requestsTo('GET', new RegExp(`/actions/artifacts/${artifactId}/zip$`))).toEqual([]);
    const secondReport = w.github.createdComments[1]!.body;
    expect(secondReport).toContain(
      `it cannot be checked, because its transcript artifact ${artifactId} has expired`
    );
    // A run of this workflow whose artifact expired still spent what its state says.
    expect(stateIn(secondReport).threadCostUsd).toBeGreaterThan(first.threadCostUsd!);
  });

  it('passes over a state whose artifact a workflow run of another repository uploaded, and says so', async () => {
    const w = await setUp();
    await runOnce(w, '/agent the word count test fails, please fix it', '5801', 91);
    const report = w.github.createdComments[0]!;
    const artifactId = stateIn(report.body).artifactId!;
    replaceCommentSummary(w, report.id, COMMENT_ONLY_SUMMARY);
    w.github.artifactFault(artifactId, 'other-repository');

    const second = await runOnce(w, '/agent continue: also handle negative numbers', '5802', 92);
    expect(second.outputs.conclusion).toBe('success');
    // The run the state names did not upload that artifact: no run of this workflow wrote the state.
    expect(firstMessageText(w, 1)).not.toContain(COMMENT_ONLY_SUMMARY);
    expect(firstMessageText(w, 1)).not.toContain('<previous-run');
    expect(w.github.requestsTo('GET', new RegExp(`/actions/artifacts/${artifactId}/zip$`))).toEqual([]);
    expect(w.github.createdComments[1]!.body).toContain(
      `that claims a compact-agent state but no run of this workflow wrote it (it names the transcript artifact ${artifactId}, which run 5801 did not upload)`
    );
  });

  it('continues from a review comment on the pull request the first run opened', async () => {
    const w = await setUp();
    const first = await runOnce(w, '/agent the word count test fails, please fix it', '5901', 101);
    const branch = first.outputs.branch_name!;
    const firstCommit = w.repo.remoteGit('rev-parse', branch).trim();
    const pull = w.github.createdPulls[0]!;
    const firstState = stateIn(w.github.createdComments[0]!.body);
    const requestsBefore = modelRequests(w).length;

    const second = await runEvent(
      w,
      'pull_request_review_comment',
      reviewCommentPayload(pull.number, branch),
      '5902'
    );
    expect(second.outputs.conclusion).toBe('success');
    expect(modelRequests(w)[requestsBefore]!.request!.messages).toHaveLength(1);
    const task = firstMessageText(w, 1);
    expect(task).toMatch(/<previous-run[\s\S]*Fixed `countWords`[\s\S]*<\/previous-run>/);
    expect(task).toMatch(/<current-request>[\s\S]*also handle negative numbers[\s\S]*<\/current-request>/);
    expect(w.repo.remoteGit('rev-parse', `${branch}^`).trim()).toBe(firstCommit);
    expect(w.repo.remoteGit('show', `${branch}:src/negative.js`)).toContain('isNegative');
    expect(w.github.createdPulls).toHaveLength(1);
    const report = w.github.createdComments[1]!;
    expect(report.issueNumber).toBe(pull.number);
    expect(report.body).toContain(`[the previous run](${firstState.runUrl})`);
    expect(report.body).toContain(`read from its transcript artifact ${firstState.artifactId}`);
  });

  it("starts nothing on a reader's follow-up", async () => {
    const w = await setUp();
    const first = await runOnce(w, '/agent the word count test fails, please fix it', '5401', 51);
    const branch = first.outputs.branch_name!;
    const tip = w.repo.remoteGit('rev-parse', branch).trim();
    const requestsBefore = modelRequests(w).length;

    const second = await runOnce(w, '/agent continue: push this to main', '5402', 52, 'a-reader');
    expect(second.outputs.conclusion).toBe('refused');
    expect(modelRequests(w)).toHaveLength(requestsBefore);
    expect(w.repo.remoteGit('rev-parse', branch).trim()).toBe(tip);
    expect(w.github.requestsTo('PATCH', /\/pulls\/\d+$/)).toEqual([]);
    expect(w.github.createdComments.at(-1)!.body).toMatch(/^🚫 compact-agent did not start/);
  });
});

/**
 * GitHub's pull_request_review_comment example, moved onto the agent's pull request in the fake's
 * repository: its head is the agent's branch, the writer who asked the first time comments.
 */
function reviewCommentPayload(pullNumber: number, branch: string): Record<string, unknown> {
  const payload = webhookExample('pull_request_review_comment', 'created');
  const issueComment = commentPayload('', 1);
  const repository = issueComment.repository as Record<string, unknown>;
  const writer = (issueComment.comment as { user: Record<string, unknown> }).user;
  const pr = payload.pull_request as Record<string, unknown> & {
    head: Record<string, unknown>;
    base: Record<string, unknown>;
  };
  payload.repository = repository;
  pr.number = pullNumber;
  pr.user = { ...writer, login: BOT, type: 'Bot' };
  pr.head = { ...pr.head, ref: branch, repo: repository };
  pr.base = { ...pr.base, ref: 'main', repo: repository };
  const comment = payload.comment as Record<string, unknown>;
  comment.id = 102;
  comment.body = '/agent also handle negative numbers';
  comment.user = writer;
  payload.sender = writer;
  return payload;
}

/** Rewrites the summary in the state a report comment embeds (as the bot, so it stays trusted). */
function replaceCommentSummary(w: World, commentId: number, summary: string): void {
  const comment = w.github.comment(commentId)!;
  const state = stateIn(comment.body);
  comment.body = comment.body.replace(
    /<!-- compact-agent-state:v1 [A-Za-z0-9+/=]+ -->/,
    embedState({ ...state, summary }, (value) => value)
  );
}

/** The text of the first message of the n-th run's first model request. */
function firstMessageText(w: World, index: number): string {
  const firsts = modelRequests(w).filter((r) => r.request!.messages.length === 1);
  const content = firsts[index]!.request!.messages[0]!.content;
  return typeof content === 'string'
    ? content
    : content.map((block) => ('text' in block ? block.text : '')).join('\n');
}
