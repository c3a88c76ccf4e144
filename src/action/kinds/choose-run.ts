import type { CarriedState } from '../../followup/carried-state.js';
import { followUpRequest } from '../../followup/previous-run.js';
import type { RequestKind } from '../request-kind.js';
import type { CiFixPlan } from './ci-fix-start.js';

/** The run a request gets, once the thread's previous run (if any) is known. */
export type RunChoice =
  | { readonly run: 'fix' }
  | { readonly run: 'plan'; readonly why: 'asked' | 'required' }
  | { readonly run: 'approved-plan'; readonly plan: CarriedState; readonly changes: string | undefined }
  | { readonly run: 'review'; readonly focus: string | undefined }
  /** A failed CI run on a pull request, decided before the request is read (ci-fix-start.ts). */
  | { readonly run: 'ci-fix'; readonly plan: CiFixPlan }
  | { readonly run: 'refused'; readonly reason: string };

/**
 * `go`, and `continue …` after a plan, carry out the thread's last plan; `go` with no plan to approve
 * is refused (it would otherwise run "go" as a task). With require_plan_approval every other request
 * on a thread is planned first: a follow-up too, since it asks for new work.
 */
export function chooseRun(
  // A fan-out starts its own workflow (fanout-start.ts) before a run would be chosen.
  kind: Exclude<RequestKind, { readonly kind: 'fanout' }>,
  previous: CarriedState | undefined,
  options: { readonly requirePlanApproval: boolean; readonly onThread: boolean; readonly phrase: string }
): RunChoice {
  const plan = previous?.mode === 'plan' ? previous : undefined;
  switch (kind.kind) {
    case 'review':
      return { run: 'review', focus: kind.focus };
    case 'plan':
      return { run: 'plan', why: 'asked' };
    case 'go':
      if (plan) return { run: 'approved-plan', plan, changes: kind.changes };
      // `/agent go through every file and …` is a task when there is no plan to approve.
      if (kind.changes !== undefined)
        return options.requirePlanApproval && options.onThread
          ? { run: 'plan', why: 'required' }
          : { run: 'fix' };
      return {
        run: 'refused',
        reason:
          `there is no plan on this thread to approve (${previous ? `the latest run here was a ${previous.mode ?? 'fix'} run` : 'no run of compact-agent has reported here'}). ` +
          `Ask for one with \`${options.phrase} plan <task>\`, or ask for the change itself with \`${options.phrase} <task>\``
      };
    case 'fix': {
      // After a plan, `continue …` approves it, and its rest are changes to it.
      const continued = followUpRequest(kind.task);
      if (plan && continued.explicit)
        return { run: 'approved-plan', plan, changes: continued.said === '' ? undefined : continued.said };
      return options.requirePlanApproval && options.onThread
        ? { run: 'plan', why: 'required' }
        : { run: 'fix' };
    }
  }
}
