import * as core from '@actions/core';
import { restartWith } from '../../followup/follow-up.js';
import { approvedPlanTask } from '../../followup/resume-task.js';
import {
  chooseRun,
  mayHoldVerb,
  requestKindOf,
  requestText,
  type RequestKind,
  type RunChoice
} from '../request-kind.js';
import { publishOutputs } from '../outputs.js';
import type { AcceptedRequest, ActionContext } from './action-context.js';
import { fixRun } from '../kinds/fix.js';
import { planRun } from '../kinds/plan.js';
import { reviewRun } from '../kinds/review.js';
import { startRun } from './start-on-thread.js';
import { withinThreadBudget } from './thread-budget.js';
import { takeTurn } from './thread-queue.js';
import { answerWithoutRun } from './answer-without-run.js';
import { pullRequestNumberOf } from '../event-parts.js';

/**
 * Which kind of run the request gets: a fix, a plan, the approved plan carried out, or a review. The
 * request's first word says most of it; the thread's previous run says whether there is a plan to
 * approve; require_plan_approval turns a task into a plan first.
 */
export async function runRequest(thisAction: ActionContext, accepted: AcceptedRequest): Promise<void> {
  const settings = thisAction.config.github;
  let action = thisAction;
  // One run at a time on the thread, and one per request: before the thread's state is read.
  const turn = await takeTurn(action, accepted);
  if (!turn) return;
  const request: AcceptedRequest = { ...turn.request, claim: turn.claim };
  const kind: RequestKind = mayHoldVerb(action.event)
    ? requestKindOf(request.task)
    : { kind: 'fix', task: request.task };
  let start = await startRun(action, { ...request, task: requestText(kind) });
  const choice = chooseRun(kind, start.previous, {
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
  if (choice.run !== 'refused') {
    // The thread's budget, before any model call: the run's own budget is what is left of it.
    const budgeted = await withinThreadBudget(action, request, start);
    if (budgeted === undefined) return;
    action = budgeted;
  }
  switch (choice.run) {
    case 'fix':
      return fixRun(action, request, start);
    case 'plan':
      return planRun(action, request, start, choice.why);
    case 'approved-plan':
      return fixRun(
        action,
        request,
        { ...start, task: approvedPlanTask(choice.plan, choice.changes) },
        { commitTitle: start.originalTask }
      );
    case 'review': {
      const pull = pullRequestNumberOf(action.event);
      if (pull === undefined)
        return refuse(
          action,
          request,
          {
            run: 'refused',
            reason: `${settings.triggerPhrase} review works on a pull request, and this is not one: comment it on the pull request to review`
          },
          undefined
        );
      return reviewRun(action, request, start, pull, choice.focus);
    }
    case 'refused':
      return refuse(action, request, choice, start.refusal);
  }
}

async function refuse(
  action: ActionContext,
  request: AcceptedRequest,
  choice: Extract<RunChoice, { run: 'refused' }>,
  stateRefusal: string | undefined
): Promise<void> {
  const reason =
    stateRefusal === undefined
      ? choice.reason
      : `${choice.reason} (the earlier run's state was not used: ${stateRefusal})`;
  await answerWithoutRun(action, request, `🚫 compact-agent did not start: ${reason}.`);
  publishOutputs({ conclusion: 'refused', noChangeReason: `refused: ${reason}` });
}
