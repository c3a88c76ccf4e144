import type { CarriedState } from '../followup/carried-state.js';
import { followUpRequest } from '../followup/previous-run.js';
import type { ActionEvent } from '../github/event.js';

/**
 * What a request asks for, read from its first word: `plan <task>`, `go [changes]` (approve the
 * thread's plan), `review [focus]`, or anything else: a task to carry out. The words are matched
 * whole and case-blind (`/agent Plan: …`, `/agent go, but …`); `planning` or `good` are no verbs.
 */
export type RequestKind =
  | { readonly kind: 'fix'; readonly task: string }
  | { readonly kind: 'plan'; readonly task: string }
  | { readonly kind: 'go'; readonly changes: string | undefined }
  | { readonly kind: 'review'; readonly focus: string | undefined };

export function requestKindOf(task: string): RequestKind {
  // The verb stands alone: followed by a blank, a colon or a comma, or nothing (`go-live`, `Plan.md`
  // and `review-bot` are no verbs).
  const verb = /^(plan|go|review)(?:$|[\s:,]+)/i.exec(task.trim());
  if (!verb) return { kind: 'fix', task };
  const rest = task.trim().slice(verb[0].length).trim();
  switch (verb[1]!.toLowerCase()) {
    case 'plan':
      // A bare `/agent plan` on an issue plans what the issue asks, as a bare `/agent` does it.
      return { kind: 'plan', task: rest === '' ? 'Do what this issue asks.' : rest };
    case 'go':
      return { kind: 'go', changes: rest === '' ? undefined : rest };
    default:
      return { kind: 'review', focus: rest === '' ? undefined : rest };
  }
}

/**
 * Whether the request's first word may be a verb: only when a person typed it after the trigger
 * phrase (a comment, a review, an issue body that asks). A workflow's prompt and an issue's text taken
 * whole (a label, an assignment) are tasks as they stand: "Review the dependencies" is work to do.
 */
export function mayHoldVerb(event: ActionEvent): boolean {
  switch (event.kind) {
    case 'issue_comment':
    case 'pull_request_review_comment':
    case 'pull_request_review':
    case 'pull_request':
      return true;
    case 'issues':
      return event.action === 'opened' || event.action === 'edited';
    default:
      return false;
  }
}

/** The text a run starts from on its thread (what the follow-up state records as this run's request). */
export function requestText(kind: RequestKind): string {
  switch (kind.kind) {
    case 'fix':
    case 'plan':
      return kind.task;
    case 'go':
      return kind.changes === undefined ? 'go' : `go: ${kind.changes}`;
    case 'review':
      return kind.focus === undefined ? 'review' : `review: ${kind.focus}`;
  }
}

/** The run a request gets, once the thread's previous run (if any) is known. */
export type RunChoice =
  | { readonly run: 'fix' }
  | { readonly run: 'plan'; readonly why: 'asked' | 'required' }
  | { readonly run: 'approved-plan'; readonly plan: CarriedState; readonly changes: string | undefined }
  | { readonly run: 'review'; readonly focus: string | undefined }
  | { readonly run: 'refused'; readonly reason: string };

/**
 * `go`, and `continue …` after a plan, carry out the thread's last plan; `go` with no plan to approve
 * is refused (it would otherwise run "go" as a task). With require_plan_approval every other request
 * on a thread is planned first: a follow-up too, since it asks for new work.
 */
export function chooseRun(
  kind: RequestKind,
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
