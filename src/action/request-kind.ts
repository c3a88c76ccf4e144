import type { ActionEvent } from '../github/events/event.js';

/**
 * What a request asks for, read from its first word: `plan <task>`, `go [changes]` (approve the
 * thread's plan), `review [focus]`, `fanout <task>` or `fanout resume` (start or resume a fan-out
 * workflow, kinds/fanout-start.ts), or anything else: a task to carry out. The words are matched
 * whole and case-blind (`/agent Plan: …`, `/agent go, but …`); `planning` or `good` are no verbs.
 */
export type RequestKind =
  | { readonly kind: 'fix'; readonly task: string }
  | { readonly kind: 'plan'; readonly task: string }
  | { readonly kind: 'go'; readonly changes: string | undefined }
  | { readonly kind: 'review'; readonly focus: string | undefined }
  | { readonly kind: 'fanout'; readonly ask: FanoutRequest };

/** `fanout <task>` (the task '' when none was given: refused with what to write) or `fanout resume`. */
export type FanoutRequest = { readonly kind: 'start'; readonly task: string } | { readonly kind: 'resume' };

export function requestKindOf(task: string): RequestKind {
  // The verb stands alone: followed by a blank, a colon or a comma, or nothing (`go-live`, `Plan.md`,
  // `review-bot` and `fanout.yml` are no verbs).
  const verb = /^(plan|go|review|fanout)(?:$|[\s:,]+)/i.exec(task.trim());
  if (!verb) return { kind: 'fix', task };
  const rest = task.trim().slice(verb[0].length).trim();
  switch (verb[1]!.toLowerCase()) {
    case 'fanout':
      // `resume` alone (a full stop after it allowed) resumes; anything longer is a task.
      return /^resume[.!]?$/i.test(rest)
        ? { kind: 'fanout', ask: { kind: 'resume' } }
        : { kind: 'fanout', ask: { kind: 'start', task: rest } };
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
    case 'fanout':
      return kind.ask.kind === 'resume' ? 'fanout resume' : `fanout: ${kind.ask.task}`;
  }
}
