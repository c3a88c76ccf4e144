import { errorFirstLine } from '../errors/error-message.js';
import type { PostedReview, PostedReviewComment, PullRequestReviews } from '../github/api/review-api.js';
import { resolutionCandidates, type ResolutionCandidate } from './fixed-threads.js';
import { selectReviewedFiles, type ReviewedFiles } from './reviewed-files.js';

/** What a review run reads from GitHub before the agent's first turn. */
export interface ReviewContext {
  readonly pullNumber: number;
  /** The pull request's head when the run started: the review is anchored there. */
  readonly headSha: string;
  readonly files: ReviewedFiles;
  /** Every review comment on the pull request: the repeat check reads the bot's own among them. */
  readonly earlierComments: readonly PostedReviewComment[];
  /** Every review on the pull request: the bot's bodies hold the findings that were off the diff. */
  readonly earlierReviews: readonly PostedReview[];
  /** The bot's earlier threads a push has outdated: the model says which are fixed. */
  readonly candidates: readonly ResolutionCandidate[];
}

/**
 * Reads the head, the changed files with their patches, the earlier review comments and threads.
 * The threads come from GraphQL; when that read fails the review goes on without resolving any.
 */
export async function readReviewContext(
  reviews: PullRequestReviews,
  pullNumber: number,
  botLogin: string,
  warn: (line: string) => void
): Promise<ReviewContext> {
  const [headSha, files, earlierComments, earlierReviews] = await Promise.all([
    reviews.headSha(pullNumber),
    reviews.listReviewFiles(pullNumber),
    reviews.listReviewComments(pullNumber),
    reviews.listReviews(pullNumber)
  ]);
  let candidates: ResolutionCandidate[] = [];
  try {
    candidates = resolutionCandidates(await reviews.listReviewThreads(pullNumber), earlierComments, botLogin);
  } catch (error) {
    warn(
      `The review threads of #${pullNumber} could not be read (${errorFirstLine(error)}); ` +
        'no earlier thread is resolved in this run.'
    );
  }
  return {
    pullNumber,
    headSha,
    files: selectReviewedFiles(files),
    earlierComments,
    earlierReviews,
    candidates
  };
}
