import * as core from '@actions/core';
import { restartWith } from '../../followup/start-on-thread.js';
import { chooseRun, type RunChoice } from '../kinds/choose-run.js';
import { startCiFix } from '../kinds/ci-fix-start.js';
import { dispatchKind } from '../kinds/dispatch.js';
import { startFanout } from '../kinds/fanout-start.js';
import { mayHoldVerb, requestKindOf, requestText, type RequestKind } from '../request-kind.js';
import { publishOutputs } from '../outputs.js';
import type { AcceptedRequest, ActionContext } from './action-context.js';
import { startRun } from './start-run.js';
import { withinThreadBudget } from './thread-budget.js';
import { takeTurn } from './thread-queue.js';
import { answerWithoutRun } from './answer-without-run.js';
import { runSharedStages } from './shared-stages.js';

/**
 * Which kind of run the request gets: a fix, a plan, the approved plan carried out, or a review. The
 * request's first word says most of it; the thread's previous run says whether there is a plan to
 * approve; require_plan_approval turns a task into a plan first.
 */
export async function runRequest(thisAction: ActionContext, accepted: AcceptedRequest): Promise<void> {
  const settings = thisAction.config.github;
  let action = thisAction;
  // A failed CI run: whether to fix it is decided before the thread's turn (a skip, a re-run or a
  // stop claims nothing and calls no model).
  const ciFix = action.event.kind === 'workflow_run' ? await startCiFix(action, accepted) : undefined;
  if (action.event.kind === 'workflow_run' && ciFix === undefined) return;
  // One run at a time on the thread, and one per request: before the thread's state is read.
  const turn = await takeTurn(action, accepted);
  if (!turn) return;
  const request: AcceptedRequest = { ...turn.request, claim: turn.claim };
  const kind: RequestKind = mayHoldVerb(action.event)
    ? requestKindOf(request.task)
    : { kind: 'fix', task: request.task };
  // `/agent fanout …` starts the fan-out workflow: no agent run, no thread state, no model call.
  if (kind.kind === 'fanout') return startFanout(action, request, kind.ask);
  let start = await startRun(action, { ...request, task: requestText(kind) });
  const choice: RunChoice = ciFix
    ? { run: 'ci-fix', plan: ciFix }
    : chooseRun(kind, start.previous, {
        requirePlanApproval: settings.requirePlanApproval,
        onThread: request.thread !== undefined,
        phrase: settings.triggerPhrase
      });
  // `go …` with no plan to approve is a task in its own words.
  if (kind.kind === 'go' && (choice.run === 'fix' || choice.run === 'plan'))
    start = restartWith(start, request.task);
  if (settings.requirePlanApproval && request.thread === undefined)
    core.warning(
      'require_plan_approval is on, but this run has no issue or pull request to post a plan on and be approved ' +
        'on, so it runs the task directly. Set report_issue to plan first.'
    );
  if (choice.run === 'refused') return refuse(action, request, choice.reason, start.refusal);
  // The thread's budget, before any model call: the run's own budget is what is left of it.
  const budgeted = await withinThreadBudget(action, request, start);
  if (budgeted === undefined) return;
  action = budgeted;
  const dispatched = dispatchKind(action, request, start, choice);
  if ('refused' in dispatched) return refuse(action, request, dispatched.refused, undefined);
  // A CI fix's attempt counts from here: a run refused above (its queue, its thread's budget) used none.
  if (ciFix) await ciFix.markAttempt();
  return runSharedStages(action, request, dispatched.start, dispatched.kind);
}

async function refuse(
  action: ActionContext,
  request: AcceptedRequest,
  refusal: string,
  stateRefusal: string | undefined
): Promise<void> {
  const reason =
    stateRefusal === undefined
      ? refusal
      : `${refusal} (the earlier run's state was not used: ${stateRefusal})`;
  await answerWithoutRun(action, request, `🚫 compact-agent did not start: ${reason}.`);
  publishOutputs({ conclusion: 'refused', noChangeReason: `refused: ${reason}` });
}
