/**
 * The branch route of the fake GitHub: "Get a branch", GET /repos/{owner}/{repo}/branches/{branch}
 * (https://docs.github.com/en/rest/branches/branches#get-a-branch, read 2026-11-28). The answer is
 * the description's `branch-with-protection`; `protected` is true for the branches a test protects.
 * A branch is there when the seed lists no branches (the fake does not track them then) or lists it.
 */
import { fakeSha, WEB_URL, type RepoInfo } from './render.js';

const DOC = 'https://docs.github.com/rest/branches/branches#get-a-branch';

export interface BranchAnswer {
  readonly status: number;
  readonly body: unknown;
}

export function branchAnswer(
  api: string,
  repo: RepoInfo,
  name: string,
  known: ReadonlySet<string> | undefined,
  protectedBranches: ReadonlySet<string>
): BranchAnswer {
  if (known !== undefined && !known.has(name) && !protectedBranches.has(name))
    return { status: 404, body: { message: 'Branch not found', documentation_url: DOC, status: '404' } };
  const full = `${repo.owner.login}/${repo.name}`;
  const sha = fakeSha(`branch:${name}`);
  const commitApi = `${api}/repos/${full}/commits/${sha}`;
  const branchApi = `${api}/repos/${full}/branches/${encodeURIComponent(name)}`;
  const isProtected = protectedBranches.has(name);
  return {
    status: 200,
    body: {
      name,
      commit: {
        sha,
        node_id: `C_${sha.slice(0, 20)}`,
        url: commitApi,
        html_url: `${WEB_URL}/${full}/commit/${sha}`,
        comments_url: `${commitApi}/comments`,
        commit: {
          url: `${api}/repos/${full}/git/commits/${sha}`,
          author: null,
          committer: null,
          message: 'A commit',
          comment_count: 0,
          tree: {
            sha: fakeSha(`tree:${name}`),
            url: `${api}/repos/${full}/git/trees/${fakeSha(`tree:${name}`)}`
          }
        },
        author: null,
        committer: null,
        parents: []
      },
      _links: { html: `${WEB_URL}/${full}/tree/${encodeURIComponent(name)}`, self: branchApi },
      protected: isProtected,
      protection: { enabled: isProtected },
      protection_url: `${branchApi}/protection`
    }
  };
}
