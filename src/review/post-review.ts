import { errorFirstLine } from '../errors/error-message.js';
import { ReviewRejectedError, type PullRequestReviews, type ReviewEvent } from '../github/api/review-api.js';
import { excerpt } from './excerpt.js';
import { location } from './finding.js';
import type { FindingsCollector } from './findings-collector.js';
import { planResolution } from './fixed-threads.js';
import { placeFindings, plainSuggestion, type PlacedFinding, type ReadHead } from './placement.js';
import { checkRepeats } from './repeat-check.js';
import { assembleReview, type ReviewSummary } from './review-body.js';
import type { ReviewContext } from './review-context.js';

/** What a review run posted: the review (or none, when nothing was new) and the threads it closed. */
export interface ReviewOutcome {
  readonly review: { readonly id: number; readonly url: string } | undefined;
  readonly summary: ReviewSummary;
  /** GitHub refused the line comments (422): they went into the body, and this is GitHub's reason. */
  readonly refusedInline: string | undefined;
  readonly resolved: number;
  /** Threads answered with "Fixed in …" because resolving was not allowed. */
  readonly replied: number;
  /** Threads neither resolved nor answered, with why. */
  readonly resolutionProblems: readonly string[];
  /** GitHub took no review at all (a second refusal, a 403): the report lists the findings instead. */
  readonly postError: string | undefined;
  /** Every finding the agent recorded, where it would have gone: for the report when nothing was posted. */
  readonly findings: readonly string[];
}

export interface PostReviewOptions {
  readonly botLogin: string;
  readonly redact: (text: string) => string;
  readonly focus: string | undefined;
  /** The model's overall assessment (its final answer): the review body starts with it. */
  readonly assessment: string;
  /** What a review with new findings is; one without is never posted. */
  readonly event: Exclude<ReviewEvent, 'APPROVE'>;
  /** The head's text of a file (for suggestions), read from git at the reviewed commit. */
  readonly readHead: ReadHead;
}

/**
 * Posts the run's findings as one review at the head the agent read. When GitHub refuses the line
 * comments as a whole (a 422, e.g. a line GitHub resolves differently than the patch showed), the
 * same findings are posted once more in the body alone, so a review is never lost to one bad line.
 */
export async function postReview(
  reviews: PullRequestReviews,
  context: ReviewContext,
  collector: FindingsCollector,
  options: PostReviewOptions
): Promise<ReviewOutcome> {
  const placed = placeFindings(collector.findings, context.files.diffs, options.readHead);
  let refusedInline: string | undefined;
  let posted: Awaited<ReturnType<typeof postOnce>>;
  const findings = placed.map(
    (item) => `${location(item.finding)}: ${excerpt(item.finding.body, FINDING_EXCERPT_CHARS)}`
  );
  try {
    try {
      posted = await postOnce(reviews, context, placed, options);
    } catch (error) {
      if (!(error instanceof ReviewRejectedError)) throw error;
      refusedInline = errorFirstLine(error);
      // Once more, with no line to refuse and as a plain comment (GitHub refuses to request changes
      // on a pull request its author opened, which is the bot's own).
      posted = await postOnce(reviews, context, allInBody(placed, refusedInline), {
        ...options,
        event: 'COMMENT'
      });
    }
  } catch (error) {
    // The agent's work is not lost with the post: the run still uploads its record and reports.
    const { summary } = assemble(context, placed, options);
    return {
      review: undefined,
      summary,
      refusedInline,
      resolved: 0,
      replied: 0,
      resolutionProblems: [],
      postError: errorFirstLine(error),
      findings
    };
  }
  const threads = await resolveThreads(reviews, context, collector, options.redact);
  return {
    review: posted.review,
    summary: posted.summary,
    refusedInline,
    ...threads,
    postError: undefined,
    findings
  };
}

async function postOnce(
  reviews: PullRequestReviews,
  context: ReviewContext,
  placed: readonly PlacedFinding[],
  options: PostReviewOptions
): Promise<{ review: { id: number; url: string } | undefined; summary: ReviewSummary }> {
  const { review, summary } = assemble(context, placed, options);
  if (review === undefined) return { review: undefined, summary };
  const created = await reviews.createReview(context.pullNumber, { ...review, event: options.event });
  return { review: created, summary };
}

function assemble(context: ReviewContext, placed: readonly PlacedFinding[], options: PostReviewOptions) {
  return assembleReview({
    commitId: context.headSha,
    checked: checkRepeats(placed, context.earlierComments, options.botLogin, context.earlierReviews),
    skippedFiles: context.files.skipped,
    reviewedFileCount: context.files.reviewed.length,
    redact: options.redact,
    focus: options.focus,
    assessment: options.assessment
  });
}

/** Every finding in the body, with GitHub's reason; suggestions become plain text there. */
function allInBody(placed: readonly PlacedFinding[], reason: string): PlacedFinding[] {
  return placed.map((item) =>
    item.where === 'body'
      ? item
      : {
          where: 'body',
          finding: item.finding,
          reason: `GitHub refused the review's line comments (${reason})`,
          suggestion: plainSuggestion(item.finding, 'GitHub refused the line comments')
        }
  );
}

/** The threads the model said are fixed: resolved, or answered when the token may not resolve. */
async function resolveThreads(
  reviews: PullRequestReviews,
  context: ReviewContext,
  collector: FindingsCollector,
  redact: (text: string) => string
): Promise<Pick<ReviewOutcome, 'resolved' | 'replied' | 'resolutionProblems'>> {
  let resolved = 0;
  let replied = 0;
  const resolutionProblems: string[] = [];
  for (const request of collector.resolutions) {
    const plan = planResolution(request, context.candidates, context.headSha, redact);
    if (plan === undefined) continue;
    try {
      await reviews.resolveReviewThread(plan.threadId);
      resolved++;
    } catch (resolveError) {
      try {
        await reviews.replyToReviewComment(context.pullNumber, plan.commentId, plan.replyIfResolveFails);
        replied++;
      } catch (replyError) {
        resolutionProblems.push(
          `comment ${plan.commentId}: resolving failed (${errorFirstLine(resolveError)}), and so did the reply (${errorFirstLine(replyError)})`
        );
      }
    }
  }
  return { resolved, replied, resolutionProblems };
}

const FINDING_EXCERPT_CHARS = 500;
