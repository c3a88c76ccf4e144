import * as core from '@actions/core';
import type { RunStart } from '../../followup/start-on-thread.js';
import { spentBeforeUsd, threadAllowance, threadBudgetReply } from '../../followup/thread-budget.js';
import { publishOutputs } from '../outputs.js';
import type { AcceptedRequest, ActionContext } from './action-context.js';
import { answerWithoutRun } from './answer-without-run.js';

/**
 * max_thread_budget_usd, before any model call: the run gets what is left of its thread's budget (at
 * most max_budget_usd) as its own budget, in the context the later stages read their limits from. A
 * thread that has spent its budget, or whose spend so far cannot be read, starts no run: the thread
 * gets a reply that says why and what to do, the outputs say the same, and the context is undefined.
 */
export async function withinThreadBudget(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart
): Promise<ActionContext | undefined> {
  const settings = action.config.github;
  const limits = action.config.agent.limits;
  if (start.spendUnknown !== undefined) {
    const reason =
      `what this thread has spent so far cannot be read, so max_thread_budget_usd cannot be applied: ` +
      start.spendUnknown;
    await answerWithoutRun(action, request, `🚫 compact-agent did not start: ${reason}.`);
    if (start.spendLookupFailed) {
      // GitHub did not answer: a fault to see and re-run, not a refusal that passes quietly.
      publishOutputs({ conclusion: 'failure', noChangeReason: `failed: ${reason}` });
      core.setFailed(action.redact(`compact-agent did not start: ${reason}.`));
    } else publishOutputs({ conclusion: 'refused', noChangeReason: `refused: ${reason}` });
    return undefined;
  }
  const allowance = threadAllowance(spentBeforeUsd(start), settings.maxThreadBudgetUsd, limits.maxBudgetUsd);
  if (allowance.kind === 'spent') {
    const text = threadBudgetReply(allowance);
    await answerWithoutRun(action, request, text);
    publishOutputs({
      conclusion: 'limit',
      limit: 'thread_budget',
      threadCostUsd: allowance.spentUsd,
      noChangeReason: `did not start: the thread's budget is spent ($${allowance.spentUsd.toFixed(4)} of max_thread_budget_usd = ${allowance.capUsd})`
    });
    if (settings.failOnLimit) core.setFailed(action.redact(text));
    return undefined;
  }
  if (!allowance.byThread) return action;
  core.info(
    `This thread has spent $${allowance.spentUsd.toFixed(4)} of max_thread_budget_usd = ${allowance.capUsd}: ` +
      `this run's budget is what is left, $${allowance.budgetUsd.toFixed(4)}.`
  );
  const agent = {
    ...action.config.agent,
    limits: {
      ...limits,
      maxBudgetUsd: allowance.budgetUsd,
      thread: { capUsd: allowance.capUsd, spentUsd: allowance.spentUsd }
    }
  };
  return { ...action, config: { ...action.config, agent } };
}
