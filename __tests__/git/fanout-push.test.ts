import { GitRepository } from '../../src/git/repository.js';
import { createRepoWithRemote, type RepoWithRemote } from '../support/temp-repo.js';

/** The one push that replaces a branch, against a local bare remote. */
let repo: RepoWithRemote;
let git: GitRepository;

beforeEach(() => {
  repo = createRepoWithRemote();
  git = new GitRepository(repo.root);
});
afterEach(() => repo.remove());

const commitOn = (branch: string, message: string) => {
  repo.git('commit', '-q', '--allow-empty', '-m', message);
  const sha = repo.git('rev-parse', 'HEAD').trim();
  repo.git('update-ref', `refs/heads/${branch}`, sha);
  repo.git('reset', '-q', '--hard', 'main');
  return sha;
};
const remoteHead = (branch: string) => repo.remoteGit('rev-parse', `refs/heads/${branch}`).trim();

describe('pushReplacingFanoutBranch', () => {
  const branch = 'fanout/abcdef12/shard-01';

  it('creates the branch, then replaces it with a commit that is no fast-forward, under the lease', async () => {
    const first = commitOn(branch, 'first landing');
    await git.pushReplacingFanoutBranch(branch, undefined, 'main');
    expect(remoteHead(branch)).toBe(first);
    expect(await git.remoteBranchHead(branch)).toBe(first);
    const second = commitOn(branch, 'second landing, on the base again');
    await git.pushReplacingFanoutBranch(branch, first, 'main');
    expect(remoteHead(branch)).toBe(second);
  });

  it('refuses when origin moved since it looked, and when the branch is not a fan-out branch', async () => {
    const first = commitOn(branch, 'first landing');
    await git.pushReplacingFanoutBranch(branch, undefined, 'main');
    const again = commitOn(branch, 'another landing');
    // Created twice: the lease says the branch must not exist yet.
    await expect(git.pushReplacingFanoutBranch(branch, undefined, 'main')).rejects.toThrow(
      /stale info|rejected/
    );
    expect(remoteHead(branch)).toBe(first);
    await expect(git.pushReplacingFanoutBranch(branch, 'f'.repeat(40), 'main')).rejects.toThrow(
      /stale info|rejected/
    );
    expect(remoteHead(branch)).not.toBe(again);
    commitOn('feature', 'a feature');
    await expect(git.pushReplacingFanoutBranch('feature', undefined, 'main')).rejects.toThrow(
      /refusing to replace feature: only fan-out branches/
    );
    await expect(git.pushReplacingFanoutBranch('main', undefined, 'main')).rejects.toThrow(
      /refusing to replace main/
    );
    expect(await git.remoteBranchHead('feature')).toBeUndefined();
  });
});
