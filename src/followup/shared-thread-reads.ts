import type { GitHubApi, PullRequestDetails, ThreadComment } from '../github/api/github-api.js';

/**
 * The thread's reads made once per run. The follow-up lookup, the work target and the thread context
 * all read the thread's comments and, on a pull request, the pull request; a long thread costs a
 * request per 100 comments, and a failing call costs four attempts over 14 s of backoff.
 *
 * - A comment listing that failed is not kept, so a later reader asks again: without it the run
 *   only loses context.
 * - A pull request lookup is kept even when it failed: asking again after every retry has failed
 *   only made the job wait another 14 s. The work target cannot go on without it (the run ends
 *   with a report of what failed); the follow-up check starts fresh and the thread context says
 *   the pull request could not be read.
 *
 * Comments posted during the run (the action's own tracking comment) are not in the shared listing;
 * no reader wants them.
 */
export function withSharedThreadReads(
  api: GitHubApi,
  /** A listing the run already made (the thread queue's), so the thread is not listed twice. */
  listed?: { readonly issue: number; readonly comments: readonly ThreadComment[] }
): GitHubApi {
  const listings = new Map<number, Promise<ThreadComment[]>>();
  if (listed) listings.set(listed.issue, Promise.resolve([...listed.comments]));
  const pulls = new Map<number, Promise<PullRequestDetails>>();
  return {
    repository: api.repository,
    permission: (login) => api.permission(login),
    addReaction: (target, content) => api.addReaction(target, content),
    createComment: (issue, body) => api.createComment(issue, body),
    updateComment: (id, body) => api.updateComment(id, body),
    listComments: (issue) => {
      let listing = listings.get(issue);
      if (listing === undefined) {
        listing = api.listComments(issue);
        listings.set(issue, listing);
        listing.catch(() => listings.delete(issue));
      }
      return listing.then((comments) => [...comments]);
    },
    getPullRequest: (number) => {
      let pull = pulls.get(number);
      if (pull === undefined) {
        pull = api.getPullRequest(number);
        pulls.set(number, pull);
      }
      return pull;
    },
    listPullRequestFiles: (number) => api.listPullRequestFiles(number),
    createPullRequest: (request) => api.createPullRequest(request),
    updatePullRequest: (number, update) => api.updatePullRequest(number, update)
  };
}
