import type { CarriedState } from '../../src/followup/carried-state.js';
import { carriedStateOf } from '../../src/followup/run-state.js';
import { threadAllowance, threadBudgetReply, threadSpentUsd } from '../../src/followup/thread-budget.js';
import { runResult } from '../support/run-result.js';

const STATE: CarriedState = {
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
  artifactId: null,
  costUsd: 0.25,
  previousRuns: [{ runUrl: 'https://github.com/octo/repo/actions/runs/40', costUsd: 0.5 }]
};

describe("a thread's spend", () => {
  it('is nothing without a previous run', () => {
    expect(threadSpentUsd(undefined)).toBe(0);
  });

  it('is the runs it lists for a state written before the total was carried', () => {
    expect(threadSpentUsd(STATE)).toBe(0.75);
  });

  it('is the carried total, which counts runs the list no longer holds', () => {
    expect(threadSpentUsd({ ...STATE, threadCostUsd: 9.75 })).toBe(9.75);
  });

  it('is never less than the runs the state lists, whatever total it carries', () => {
    expect(threadSpentUsd({ ...STATE, threadCostUsd: 0 })).toBe(0.75);
  });

  it('is carried on by the next state: the total before it plus its own cost', () => {
    const next = carriedStateOf({
      repository: 'octo/repo',
      thread: 7,
      runId: '42-1',
      runUrl: 'https://github.com/octo/repo/actions/runs/42',
      task: STATE.task,
      request: 'more',
      result: runResult({ costUsd: 0.125 }),
      changes: { kind: 'none' },
      artifact: { kind: 'failed', error: 'x' },
      branch: null,
      pullRequest: null,
      previous: { ...STATE, threadCostUsd: 9.75 }
    });
    expect(next.threadCostUsd).toBe(9.875);
    expect(threadSpentUsd(next)).toBe(9.875);
  });
});

describe("a run's allowance", () => {
  it('is max_budget_usd while the thread has more than that left', () => {
    expect(threadAllowance(10, 50, 10)).toEqual({
      kind: 'run',
      budgetUsd: 10,
      byThread: false,
      spentUsd: 10,
      capUsd: 50
    });
  });

  it("is what is left of the thread's budget when that is less", () => {
    expect(threadAllowance(45, 50, 10)).toEqual({
      kind: 'run',
      budgetUsd: 5,
      byThread: true,
      spentUsd: 45,
      capUsd: 50
    });
  });

  it('is nothing once the thread has spent its budget, or more', () => {
    expect(threadAllowance(50, 50, 10)).toEqual({ kind: 'spent', spentUsd: 50, capUsd: 50 });
    expect(threadAllowance(50.2, 50, 10).kind).toBe('spent');
  });

  it('is refused with what was spent, the cap, and how a maintainer raises it', () => {
    expect(threadBudgetReply({ spentUsd: 50.2, capUsd: 50 })).toBe(
      '⏹️ compact-agent did not start: the runs on this thread have cost $50.2000 in all, which reaches its ' +
        "budget of $50 (`max_thread_budget_usd`). To go on here, a maintainer raises `max_thread_budget_usd` under the compact-agent step's " +
        '`with:` in the workflow file, then asks again; or open a new issue for new work, which starts with a budget of its own.'
    );
  });
});
