import { OctokitPullRequestReviews } from '../../github/octokit-reviews.js';
import type { PullRequestReviews } from '../../github/review-api.js';
import { repositoryOf } from '../event-parts.js';
import type { ActionContext } from './action-context.js';

/** The review routes of the run's repository, with the run's token, resilience and warnings. */
export function reviewsOf(action: ActionContext): PullRequestReviews {
  return OctokitPullRequestReviews.fromToken(
    action.config.github.token,
    repositoryOf(action.event, action.runner),
    action.runner.apiUrl,
    { logger: { warning: action.commands.warning } }
  );
}
