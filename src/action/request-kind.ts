import type { ActionEvent } from '../github/events/event.js';

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
