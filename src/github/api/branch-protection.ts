import { RepositoryClient } from './octokit-api.js';

/** Whether a branch is protected: a follow-up never continues on one. */
export interface BranchProtection {
  /** True when protected; false when not, or when there is no such branch. Throws when it cannot be read. */
  isProtected(branch: string): Promise<boolean>;
}

/**
 * "Get a branch", GET /repos/{owner}/{repo}/branches/{branch}
 * (https://docs.github.com/en/rest/branches/branches#get-a-branch, read 2026-11-28 in
 * @octokit/openapi's description: the `branch-with-protection` answer requires a boolean
 * `protected`). It needs only read access to the contents (the job's `contents: read`, which a run
 * that pushes has anyway); a 404 is a branch that is not there.
 */
export class OctokitBranchProtection extends RepositoryClient implements BranchProtection {
  async isProtected(branch: string): Promise<boolean> {
    try {
      const { data } = await this.octokit.rest.repos.getBranch({ ...this.repo, branch });
      if (typeof data.protected !== 'boolean')
        throw new Error(`GitHub answered the branch ${branch} without its \`protected\` field`);
      return data.protected;
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return false;
      throw error;
    }
  }
}
