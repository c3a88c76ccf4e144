import { finishedConclusion } from '../../src/action/conclusion.js';
import { describeLimit } from '../../src/agent/limits.js';
import type { StopReason } from '../../src/agent/stop-reason.js';

const result = (stopReason: StopReason, cancelled = false) => ({
  stopReason,
  error: undefined,
  summary: 'Stopped here.',
  cancelled
});
const THREAD = { capUsd: 1, spentUsd: 0.75 };
const options = { limits: {}, failOnLimit: false, publishFailure: undefined };

describe('how a finished run ends', () => {
  it('is success when the model finished', () => {
    expect(finishedConclusion(result('success'), options)).toEqual({
      conclusion: 'success',
      limit: undefined,
      failStep: undefined
    });
  });

  it.each([
    ['error_max_turns', {}, 'turns'],
    ['error_timeout', {}, 'time'],
    ['error_max_budget_usd', {}, 'budget'],
    ['error_max_budget_usd', { thread: THREAD }, 'thread_budget']
  ] as const)('is a limit that passes the step: %s with %j is %s', (reason, limits, limit) => {
    expect(finishedConclusion(result(reason), { ...options, limits })).toEqual({
      conclusion: 'limit',
      limit,
      failStep: undefined
    });
  });

  it('fails the step at a limit with fail_on_limit, still as a limit', () => {
    expect(finishedConclusion(result('error_max_turns'), { ...options, failOnLimit: true })).toEqual({
      conclusion: 'limit',
      limit: 'turns',
      failStep: 'compact-agent stopped with error_max_turns: Stopped here. (fail_on_limit is on)'
    });
  });

  it('is a failure for an error, a cancelled run, or a publishing failure after a limit', () => {
    expect(finishedConclusion(result('error_during_execution'), options).conclusion).toBe('failure');
    expect(finishedConclusion(result('error_during_execution', true), options).conclusion).toBe('failure');
    expect(
      finishedConclusion(result('error_max_turns'), {
        ...options,
        publishFailure: 'GitHub refused the review'
      })
    ).toEqual({ conclusion: 'failure', limit: undefined, failStep: 'GitHub refused the review' });
  });
});

describe("a thread's budget stop", () => {
  it('names the thread budget, what the earlier runs spent and what this run had', () => {
    expect(
      describeLimit('error_max_budget_usd', {
        maxTurns: 5,
        timeoutMs: 60_000,
        maxBudgetUsd: 0.25,
        thread: THREAD
      })
    ).toBe(
      "Stopped at the thread's budget limit (max_thread_budget_usd = 1; the earlier runs on this thread cost $0.7500, so this run had $0.2500)."
    );
    expect(describeLimit('error_max_budget_usd', { maxTurns: 5, timeoutMs: 60_000, maxBudgetUsd: 10 })).toBe(
      'Stopped at the budget limit (max_budget_usd = 10).'
    );
  });
});
