import type { GitHubApi, ThreadComment } from '../github/github-api.js';

/**
 * The thread's comments listed once per run: the follow-up lookup and the thread context both read
 * them, and a long thread costs a request per 100 comments. A listing that failed is not kept, so
 * a later reader asks again. Comments posted during the run (the action's own tracking comment) are
 * not in the shared listing; neither reader wants them.
 */
export function withSharedCommentListing(api: GitHubApi): GitHubApi {
  const listings = new Map<number, Promise<ThreadComment[]>>();
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
    getPullRequest: (number) => api.getPullRequest(number),
    listPullRequestFiles: (number) => api.listPullRequestFiles(number),
    createPullRequest: (request) => api.createPullRequest(request),
    updatePullRequest: (number, update) => api.updatePullRequest(number, update)
  };
}
