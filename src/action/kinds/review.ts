import * as core from '@actions/core';
import { FindingsCollector } from '../../review/findings-collector.js';
import { gitHeadReader } from '../../review/git-head-reader.js';
import { checkCandidateLines } from '../../review/fixed-threads.js';
import { postReview, type ReviewOutcome } from '../../review/post-review.js';
import { readReviewContext, type ReviewContext } from '../../review/review-context.js';
import { reviewMode } from '../../review/review-mode.js';
import { renderReviewSection } from '../../review/review-report.js';
import { reviewTask } from '../../review/review-task.js';
import { githubClientsOf } from '../stages/github-clients.js';
import type { ActionContext } from '../stages/action-context.js';
import type { RunKind } from './run-kind.js';

/**
 * `/agent review [focus]` on a pull request, or a pull request event with review_on_pull_request: a
 * read-only run whose findings are posted as one review at the head the agent read. The earlier
 * review comments and threads are read first, so that nothing is said twice and fixed threads close.
 */
export function reviewKind(action: ActionContext, pullNumber: number, focus: string | undefined): RunKind {
  const settings = action.config.github;
  const reviews = githubClientsOf(action).reviews();
  const collector = new FindingsCollector();
  let context: ReviewContext | undefined;
  return {
    prepare: async (workspace, progress) => {
      progress.step = 'reading the pull request to review';
      context = await readReviewContext(reviews, pullNumber, settings.botName, (line) =>
        action.commands.warning(action.redact(line))
      );
      checkReviewedHead(context, workspace.baseCommit);
      progress.step = 'checking which earlier threads the pushes changed';
      context = {
        ...context,
        candidates: await checkCandidateLines(workspace.git, context.candidates, context.headSha)
      };
      return {
        mode: reviewMode(context, collector),
        task: reviewTask(context, { botLogin: settings.botName, focus })
      };
    },
    publishStep: 'posting the review',
    publish: async (workspace, agent) => {
      if (context === undefined) throw new Error('the review was published before it was prepared');
      const outcome = await postReview(reviews, context, collector, {
        botLogin: settings.botName,
        redact: action.redact,
        focus,
        assessment: agent.session.result.summary,
        event: settings.reviewEvent,
        // Read from git at the reviewed commit (the agent's commands may have changed the working
        // tree), as the CLI's review reads it: a binary file takes no suggestion in either.
        readHead: await gitHeadReader(
          workspace.git,
          context.headSha,
          collector.findings.map((finding) => finding.path)
        )
      });
      if (outcome.postError === undefined) core.info(action.redact(reviewLogLine(outcome)));
      return {
        changes: { kind: 'read-only', mode: 'review' },
        report: {
          answerHeading: 'Review summary',
          section: renderReviewSection(outcome, settings.triggerPhrase)
        },
        review: outcome,
        // The record and the report still follow: the findings are in the report, the step fails.
        ...(outcome.postError !== undefined
          ? { failure: `The review could not be posted: ${outcome.postError}` }
          : {})
      };
    }
  };
}

/**
 * The agent reads the checkout; GitHub anchors the review at the head it names. When someone pushed
 * between the two reads they differ, and the review would describe code the agent never saw.
 */
function checkReviewedHead(context: ReviewContext, checkedOut: string): void {
  if (context.headSha === checkedOut) return;
  throw new Error(
    `the pull request's head moved while the review started (GitHub names ${context.headSha.slice(0, 12)}, ` +
      `the checkout is ${checkedOut.slice(0, 12)}); nothing was reviewed. Ask for the review again.`
  );
}

function reviewLogLine(outcome: ReviewOutcome): string {
  const { summary } = outcome;
  return outcome.review
    ? `compact-agent posted review ${outcome.review.id}: ${summary.inline} line comments, ${summary.inBody} in the body, ${summary.alreadySaid} already said.`
    : `compact-agent posted no review: nothing new (${summary.alreadySaid} already said).`;
}
