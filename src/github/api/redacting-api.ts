import type { GitHubApi } from './github-api.js';

/** Every text the action sends to GitHub passes the redactor first: comments, PR titles and bodies. */
export function redactingGitHubApi(api: GitHubApi, redact: (text: string) => string): GitHubApi {
  return {
    repository: api.repository,
    permission: (login) => api.permission(login),
    addReaction: (target, content) => api.addReaction(target, content),
    createComment: (issue, body) => api.createComment(issue, redact(body)),
    updateComment: (id, body) => api.updateComment(id, redact(body)),
    listComments: (issue) => api.listComments(issue),
    getPullRequest: (number) => api.getPullRequest(number),
    listPullRequestFiles: (number) => api.listPullRequestFiles(number),
    createPullRequest: (request) =>
      api.createPullRequest({ ...request, title: redact(request.title), body: redact(request.body) }),
    updatePullRequest: (number, update) => api.updatePullRequest(number, { body: redact(update.body) })
  };
}
