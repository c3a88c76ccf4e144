/**
 * workflow-origin.ts: whether a run a state or claim names is a run of this workflow, through the
 * real Octokit reads (OctokitWorkflowRunReads) against the fake GitHub's Actions routes.
 */
import type { CarriedState } from '../../src/followup/carried-state.js';
import {
  ACTIONS_READ_HINT,
  MAX_LISTED_PAGES,
  MAX_RUN_LOOKUPS,
  ownWorkflowOrigin,
  type StateOrigin
} from '../../src/followup/workflow-origin.js';
import { OctokitWorkflowRunReads } from '../../src/github/api/workflow-runs.js';
import { startFakeGitHub, type FakeGitHub } from '../../test-support/fake-github/index.js';
import { buildZip } from '../audit/zip-builder.js';

const REPO = { owner: 'octo', name: 'repo', id: 4242 };
const OWN_REF = 'octo/repo/.github/workflows/agent.yml@refs/heads/main';

let github: FakeGitHub;
beforeEach(async () => {
  github = await startFakeGitHub({ repo: { ...REPO } });
});
afterEach(async () => {
  await github.close();
});

function origin(workflowRef: string | undefined, sharedWorkflowFiles: readonly string[] = []): StateOrigin {
  const reads = new OctokitWorkflowRunReads(github.token, REPO, github.url, {
    resilience: { serverErrorRetries: 0 },
    logger: { warning: () => {} }
  });
  return ownWorkflowOrigin(reads, { workflowRef, repositoryFullName: 'octo/repo', sharedWorkflowFiles });
}

const runLookups = () => github.requestsTo('GET', /^\/repos\/octo\/repo\/actions\/runs\/\d+$/).length;
const runListings = () => github.requestsTo('GET', /\/actions\/workflows\/[^/]+\/runs$/);

function stateOf(runId: string, artifactId: number | null): CarriedState {
  return {
    version: 1,
    repository: 'octo/repo',
    runId,
    runUrl: `https://github.com/octo/repo/actions/runs/${runId}`,
    task: 'Fix it.',
    summary: 'Fixed.',
    ledger: '',
    recentUserMessages: [],
    branch: null,
    pullRequest: null,
    artifactId,
    costUsd: 0,
    previousRuns: []
  };
}

function uploaded(run: number, artifactId: number): void {
  github.addArtifact({
    id: artifactId,
    name: `agent-transcripts-${run}-1`,
    bytes: buildZip([{ name: 'x', data: Buffer.from('x') }]),
    workflowRun: { id: run }
  });
}

describe('a run a claim names (judgeRun)', () => {
  it('is ours when the Actions API says it ran this workflow file, whatever ref it ran at', async () => {
    github.setWorkflowRun(11, { status: 'completed' });
    github.setWorkflowRun(12, {
      status: 'completed',
      path: 'octo/repo/.github/workflows/agent.yml@refs/heads/dev'
    });
    await expect(origin(OWN_REF).judgeRun(11)).resolves.toEqual({ kind: 'ours' });
    await expect(origin(OWN_REF).judgeRun(12)).resolves.toEqual({ kind: 'ours' });
  });

  it("is foreign when it is another workflow's run, or no run of this repository", async () => {
    github.setWorkflowRun(21, { status: 'completed', path: '.github/workflows/welcome.yml' });
    await expect(origin(OWN_REF).judgeRun(21)).resolves.toEqual({
      kind: 'foreign',
      reason:
        'it names run 21 of .github/workflows/welcome.yml, not of this workflow (.github/workflows/agent.yml)'
    });
    await expect(origin(OWN_REF).judgeRun(22)).resolves.toEqual({
      kind: 'foreign',
      reason: 'it names run 22, which this repository does not have'
    });
  });

  it('is unchecked, with a line asking for `actions: read`, when GitHub answers 403', async () => {
    github.failAlways({ method: 'GET', path: /\/actions\/runs\/31$/, status: 403 });
    const verdict = await origin(OWN_REF).judgeRun(31);
    expect(verdict).toEqual({
      kind: 'unchecked',
      reason: `the token may not read run 31 to check it (GitHub answered 403; ${ACTIONS_READ_HINT})`
    });
    expect(ACTIONS_READ_HINT).toBe('give the workflow `actions: read`');
  });

  it('throws on any other failure, so the run says the thread could not be read', async () => {
    github.failAlways({ method: 'GET', path: /\/actions\/runs\/41$/, status: 500 });
    await expect(origin(OWN_REF).judgeRun(41)).rejects.toThrow(/^run 41 could not be looked up \(/);
  });

  it('is unchecked without a lookup when this run does not know its workflow (no GITHUB_WORKFLOW_REF)', async () => {
    github.setWorkflowRun(51, { status: 'completed' });
    for (const ref of [undefined, '', '  ']) {
      await expect(origin(ref).judgeRun(51)).resolves.toEqual({
        kind: 'unchecked',
        reason: 'this run does not know its own workflow file (GITHUB_WORKFLOW_REF is not set)'
      });
    }
    expect(runLookups()).toBe(0);
  });
});

describe('the lookups of one action run', () => {
  it('are cached per run id: a claim and a state of one run cost one lookup', async () => {
    github.setWorkflowRun(61, { status: 'completed' });
    uploaded(61, 610);
    const shared = origin(OWN_REF);
    await expect(shared.judgeRun(61)).resolves.toEqual({ kind: 'ours' });
    await expect(shared.judge(stateOf('61-1', 610))).resolves.toEqual({ kind: 'ours' });
    await expect(shared.judge(stateOf('61-1', 610))).resolves.toEqual({ kind: 'ours' });
    expect(runLookups()).toBe(1);
    expect(github.requestsTo('GET', /\/actions\/runs\/61\/artifacts$/)).toHaveLength(1);
  });

  it(`are bounded at ${MAX_RUN_LOOKUPS} runs: past it, this workflow's runs are listed once instead`, async () => {
    const ids = Array.from({ length: MAX_RUN_LOOKUPS + 2 }, (_, index) => 70 + index);
    for (const id of ids) github.setWorkflowRun(id, { status: 'completed' });
    const shared = origin(OWN_REF);
    const verdicts = [];
    for (const id of ids) verdicts.push(await shared.judgeRun(id));
    expect(verdicts).toEqual(Array(ids.length).fill({ kind: 'ours' }));
    expect(runLookups()).toBe(MAX_RUN_LOOKUPS);
    expect(runListings()).toHaveLength(1); // the two past the bound, from one page
    await expect(shared.judgeRun(ids[0]!)).resolves.toEqual({ kind: 'ours' });
    expect(runLookups()).toBe(MAX_RUN_LOOKUPS);
  });

  it("cannot be used up by another workflow's runs: the genuine run past the bound is still ours", async () => {
    // Another workflow's comments name six of its runs, newer than the genuine state's run 90.
    github.setWorkflowRun(90, { status: 'completed' });
    github.setWorkflowRun(200, { status: 'in_progress' }); // this very run: the list holds it too
    const theirs = Array.from({ length: MAX_RUN_LOOKUPS + 1 }, (_, index) => 100 + index);
    for (const id of theirs)
      github.setWorkflowRun(id, { status: 'completed', path: '.github/workflows/triage.yml' });
    const shared = origin(OWN_REF);
    for (const id of theirs) expect((await shared.judgeRun(id)).kind).toBe('foreign');
    await expect(shared.judgeRun(90)).resolves.toEqual({ kind: 'ours' });
    await expect(shared.judgeRun(999_999)).resolves.toMatchObject({
      kind: 'unchecked',
      reason: expect.stringContaining('newer than every run of this workflow listed')
    });
    expect(runListings().map((request) => request.path)).toEqual([
      '/repos/octo/repo/actions/workflows/agent.yml/runs'
    ]);
  });

  it(`list at most ${MAX_LISTED_PAGES} pages: a run older than those is unchecked, never taken as foreign`, async () => {
    const own = Array.from({ length: MAX_LISTED_PAGES * 100 + 1 }, (_, index) => 5_000 + index);
    for (const id of own) github.setWorkflowRun(id, { status: 'completed' });
    const shared = origin(OWN_REF);
    for (let index = 0; index < MAX_RUN_LOOKUPS; index++) await shared.judgeRun(900 + index); // the bound, used up
    await expect(shared.judgeRun(5_000)).resolves.toMatchObject({
      kind: 'unchecked',
      reason: `it names run 5000, older than the ${MAX_LISTED_PAGES * 100} newest runs of this workflow listed`
    });
    await expect(shared.judgeRun(5_001)).resolves.toEqual({ kind: 'ours' });
    expect(runListings()).toHaveLength(MAX_LISTED_PAGES);
  });

  it('do not keep a failed lookup: the next asking looks again', async () => {
    github.setWorkflowRun(81, { status: 'completed' });
    github.failNext({ method: 'GET', path: /\/actions\/runs\/81$/, status: 500 });
    const shared = origin(OWN_REF);
    await expect(shared.judgeRun(81)).rejects.toThrow(/run 81 could not be looked up/);
    await expect(shared.judgeRun(81)).resolves.toEqual({ kind: 'ours' });
  });
});

describe('the workflow files thread.workflows names', () => {
  const FIX_CI_REF = 'octo/repo/.github/workflows/fix-ci.yml@refs/heads/main';
  const SHARED = ['.github/workflows/agent.yml', '.github/workflows/fix-ci.yml'];

  it("make another file's run ours, both ways; unnamed, it stays foreign", async () => {
    github.setWorkflowRun(301, { status: 'completed' }); // agent.yml
    github.setWorkflowRun(302, { status: 'completed', path: '.github/workflows/fix-ci.yml' });
    github.setWorkflowRun(303, { status: 'completed', path: '.github/workflows/triage.yml' });
    await expect(origin(FIX_CI_REF).judgeRun(301)).resolves.toEqual({
      kind: 'foreign',
      reason:
        'it names run 301 of .github/workflows/agent.yml, not of this workflow (.github/workflows/fix-ci.yml)'
    });
    await expect(origin(FIX_CI_REF, SHARED).judgeRun(301)).resolves.toEqual({ kind: 'ours' });
    await expect(origin(OWN_REF, SHARED).judgeRun(302)).resolves.toEqual({ kind: 'ours' });
    await expect(origin(FIX_CI_REF, SHARED).judgeRun(303)).resolves.toMatchObject({
      kind: 'foreign',
      reason: expect.stringContaining(
        'not of this workflow (.github/workflows/fix-ci.yml, .github/workflows/agent.yml)'
      )
    });
  });

  it(`are listed too past the ${MAX_RUN_LOOKUPS} lookups, within the same ${MAX_LISTED_PAGES} pages`, async () => {
    github.setWorkflowRun(401, { status: 'completed' }); // agent.yml
    github.setWorkflowRun(402, { status: 'completed', path: '.github/workflows/fix-ci.yml' });
    github.setWorkflowRun(400, { status: 'completed', path: '.github/workflows/triage.yml' });
    const shared = origin(FIX_CI_REF, SHARED);
    for (let index = 0; index < MAX_RUN_LOOKUPS; index++) await shared.judgeRun(900 + index); // the bound, used up
    await expect(shared.judgeRun(401)).resolves.toEqual({ kind: 'ours' });
    await expect(shared.judgeRun(402)).resolves.toEqual({ kind: 'ours' });
    await expect(shared.judgeRun(400)).resolves.toMatchObject({ kind: 'foreign' });
    expect(runListings().map((request) => request.path)).toEqual([
      '/repos/octo/repo/actions/workflows/fix-ci.yml/runs',
      '/repos/octo/repo/actions/workflows/agent.yml/runs'
    ]);
  });

  it(`share one budget of ${MAX_LISTED_PAGES} pages: a file left unlisted leaves its runs unchecked, not foreign`, async () => {
    const own = Array.from({ length: MAX_LISTED_PAGES * 100 + 1 }, (_, index) => 5_000 + index);
    for (const id of own)
      github.setWorkflowRun(id, { status: 'completed', path: '.github/workflows/fix-ci.yml' });
    github.setWorkflowRun(4_000, { status: 'completed' }); // agent.yml, never listed
    const shared = origin(FIX_CI_REF, SHARED);
    for (let index = 0; index < MAX_RUN_LOOKUPS; index++) await shared.judgeRun(900 + index);
    await expect(shared.judgeRun(4_000)).resolves.toMatchObject({ kind: 'unchecked' });
    expect(runListings()).toHaveLength(MAX_LISTED_PAGES);
  });
});

describe('a state (judge)', () => {
  it('is ours when its run of this workflow uploaded the transcript artifact it names', async () => {
    github.setWorkflowRun(91, { status: 'completed' });
    uploaded(91, 910);
    await expect(origin(OWN_REF).judge(stateOf('91-1', 910))).resolves.toEqual({ kind: 'ours' });
  });

  it('naming no artifact is ours-without-artifact: what it says cannot be checked', async () => {
    github.setWorkflowRun(92, { status: 'completed' });
    await expect(origin(OWN_REF).judge(stateOf('92-1', null))).resolves.toEqual({
      kind: 'ours-without-artifact',
      reason: 'it names run 92 of this workflow but no transcript artifact, so what it says cannot be checked'
    });
  });

  it("naming an artifact its run did not upload (another run's) is foreign", async () => {
    github.setWorkflowRun(93, { status: 'completed' });
    github.setWorkflowRun(94, { status: 'completed' });
    uploaded(94, 940);
    await expect(origin(OWN_REF).judge(stateOf('93-1', 940))).resolves.toEqual({
      kind: 'foreign',
      reason: 'it names the transcript artifact 940, which run 93 did not upload'
    });
  });

  it("is unchecked, asking for `actions: read`, when the run's artifacts may not be listed (403)", async () => {
    github.setWorkflowRun(95, { status: 'completed' });
    github.failAlways({ method: 'GET', path: /\/actions\/runs\/95\/artifacts$/, status: 403 });
    const verdict = await origin(OWN_REF).judge(stateOf('95-1', 950));
    expect(verdict.kind).toBe('unchecked');
    expect(verdict.kind === 'unchecked' && verdict.reason).toContain(ACTIONS_READ_HINT);
  });

  it('naming no numeric run id is foreign without a lookup', async () => {
    await expect(origin(OWN_REF).judge(stateOf('latest', 1))).resolves.toEqual({
      kind: 'foreign',
      reason: 'it names no numeric run id'
    });
    expect(runLookups()).toBe(0);
  });
});
