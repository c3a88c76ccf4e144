import * as core from '@actions/core';
import type { ActionEvent, Actor } from '../github/events/event.js';
import { decideCiFix } from '../github/events/workflow-run-trigger.js';
import type { GitHubApi } from '../github/api/github-api.js';
import { InputError } from '../config/inputs.js';
import type { RunnerEnv } from './runner-env.js';

/** The issue or PR the run answers in: the event's thread, or report_issue for dispatched runs. */
export function threadOf(event: ActionEvent, reportIssue: number | undefined): number | undefined {
  switch (event.kind) {
    case 'issue_comment':
    case 'issues':
      return event.issue.number;
    case 'pull_request_review_comment':
    case 'pull_request_review':
    case 'pull_request':
      return event.pullRequest.number;
    case 'workflow_run':
      return ciFixPullNumber(event);
    default:
      return reportIssue;
  }
}

/** The pull request the event is about, if any: a PR thread's comment, a review, a pull_request event. */
export function pullRequestNumberOf(event: ActionEvent): number | undefined {
  switch (event.kind) {
    case 'issue_comment':
      return event.issue.isPullRequest ? event.issue.number : undefined;
    case 'pull_request':
    case 'pull_request_review':
    case 'pull_request_review_comment':
      return event.pullRequest.number;
    case 'workflow_run':
      return ciFixPullNumber(event);
    default:
      return undefined;
  }
}

/** A failed CI run's pull request, where a CI fix reports and pushes (src/github/events/workflow-run-trigger.ts). */
function ciFixPullNumber(event: Extract<ActionEvent, { kind: 'workflow_run' }>): number | undefined {
  const decision = decideCiFix(event);
  return decision.run ? decision.pullNumber : undefined;
}

/** Who asked: the commenter or reviewer, or whoever opened, labeled or assigned the issue. */
export function actorOf(event: ActionEvent): Actor | undefined {
  switch (event.kind) {
    case 'issue_comment':
    case 'pull_request_review_comment':
      return event.comment.user;
    case 'pull_request_review':
      return event.review.user;
    case 'issues':
    case 'pull_request':
      return event.sender;
    default:
      return undefined;
  }
}

/** The comment that asked; a review is not one (its id is a review's, not an issue comment's). */
export function commentIdOf(event: ActionEvent): number | undefined {
  return event.kind === 'issue_comment' || event.kind === 'pull_request_review_comment'
    ? event.comment.id
    : undefined;
}

export function repositoryOf(
  event: ActionEvent,
  runner: RunnerEnv
): { owner: string; name: string; defaultBranch: string | undefined } {
  const fromEvent = event.kind === 'other' ? undefined : event.repository;
  if (fromEvent) return fromEvent;
  if (!runner.repository)
    throw new InputError(['GITHUB_REPOSITORY is not set: the action must run in a workflow.']);
  return { ...runner.repository, defaultBranch: undefined };
}

/**
 * 👀 on the comment that asked; a failure is only a warning. A review gets none: GitHub's REST API
 * has no reactions on pull request reviews, and the tracking comment answers it anyway.
 */
export async function reactToTrigger(event: ActionEvent, api: GitHubApi): Promise<void> {
  const target =
    event.kind === 'issue_comment'
      ? ({ kind: 'issue_comment', id: event.comment.id } as const)
      : event.kind === 'pull_request_review_comment'
        ? ({ kind: 'review_comment', id: event.comment.id } as const)
        : undefined;
  if (!target) return;
  await api
    .addReaction(target, 'eyes')
    .catch((error: unknown) => core.warning(`Could not react: ${String(error)}`));
}
