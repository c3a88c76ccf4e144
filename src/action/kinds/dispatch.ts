import { approvedPlanTask } from '../../followup/resume-task.js';
import type { RunStart } from '../../followup/start-on-thread.js';
import { pullRequestNumberOf } from '../event-parts.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import type { RunChoice } from './choose-run.js';
import { ciFixKind } from './ci-fix.js';
import { findingFixKind } from './finding-fix.js';
import { asksToFixAll, fixAllKind } from './fix-all.js';
import { fixKind } from './fix.js';
import { planKind } from './plan.js';
import { reviewKind } from './review.js';
import type { RunKind } from './run-kind.js';

/** The kind a chosen run gets and the start it runs from, or why it cannot run here after all. */
export type DispatchedKind =
  { readonly kind: RunKind; readonly start: RunStart } | { readonly refused: string };

/**
 * The one place a chosen run meets its kind: a fix, a plan, the approved plan carried out (a fix of
 * the plan's task, titled by the task that asked for the plan), or a review (on a pull request only).
 */
export function dispatchKind(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart,
  choice: Exclude<RunChoice, { readonly run: 'refused' }>
): DispatchedKind {
  switch (choice.run) {
    case 'fix': {
      const pull = pullRequestNumberOf(action.event);
      if (pull !== undefined && asksToFixAll(request.task))
        return { kind: fixAllKind(action, request, start, pull), start };
      return {
        kind:
          action.event.kind === 'pull_request_review_comment'
            ? findingFixKind(action, request, start)
            : fixKind(action, request, start),
        start
      };
    }
    case 'plan':
      return { kind: planKind(action, choice.why), start };
    case 'approved-plan': {
      const approved = { ...start, task: approvedPlanTask(choice.plan, choice.changes) };
      return {
        kind: fixKind(action, request, approved, { commitTitle: start.originalTask }),
        start: approved
      };
    }
    case 'ci-fix':
      return { kind: ciFixKind(action, request, start, choice.plan), start };
    case 'review': {
      const pull = pullRequestNumberOf(action.event);
      if (pull === undefined)
        return {
          refused: `${action.config.github.triggerPhrase} review works on a pull request, and this is not one: comment it on the pull request to review`
        };
      return { kind: reviewKind(action, pull, choice.focus), start };
    }
  }
}
