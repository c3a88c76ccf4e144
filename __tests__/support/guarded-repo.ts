import type { PublishOptions } from '../../src/action/publish-changes.js';
import type { TrustedGit } from '../../src/git/git-binary.js';
import { guardRepository, type RepositoryGuard } from '../../src/git/repository-guard.js';
import { GitRepository } from '../../src/git/repository.js';
import { createRepoWithRemote, createTempDir, type RepoWithRemote } from './temp-repo.js';

/**
 * A checkout with a local bare `origin`, as the action holds it when the agent's turn begins:
 * transcripts kept out of commits, the head noted as the base, and the repository guard taken.
 */
export interface GuardedRepo {
  readonly repo: RepoWithRemote;
  readonly git: GitRepository;
  readonly guard: RepositoryGuard;
  /** The head when the guard was taken: what the agent's branch starts from. */
  readonly base: string;
}

export interface GuardedRepoOptions {
  /** The git the action resolved at start; default git from PATH. */
  readonly binary?: TrustedGit;
  /** What the checkout looks like before the action starts (e.g. an authenticated remote). */
  readonly prepare?: (repo: RepoWithRemote) => void | Promise<void>;
}

export async function createGuardedRepo(options: GuardedRepoOptions = {}): Promise<GuardedRepo> {
  const repo = createRepoWithRemote();
  try {
    await options.prepare?.(repo);
    const git = new GitRepository(repo.root, options.binary ? { binary: options.binary } : {});
    await git.excludeFromCommits('.transcripts/');
    const base = await git.head();
    const guard = await guardRepository(git);
    return { repo, git, guard, base };
  } catch (error) {
    repo.remove();
    throw error;
  }
}

/**
 * `createGuardedRepo` for a test file whose tests each make one: registers an `afterEach` that
 * removes every repository (and its remote) the finished test made.
 */
export function guardedRepoPerTest(): (options?: GuardedRepoOptions) => Promise<GuardedRepo> {
  const made: GuardedRepo[] = [];
  afterEach(() => {
    for (const { repo } of made.splice(0)) repo.remove();
  });
  return async (options) => {
    const guarded = await createGuardedRepo(options);
    made.push(guarded);
    return guarded;
  };
}

/**
 * publishChanges' options as a run passes them: the bot's identity, a plain branch, workflows
 * read-only, transcripts excluded, nothing secret; a test overrides what it is about.
 */
export function publishOptions(
  guard: RepositoryGuard,
  overrides: Partial<PublishOptions> = {}
): PublishOptions {
  return {
    identity: { name: 'compact-agent[bot]', email: 'bot@example.com' },
    defaultBranch: 'main',
    pullRequestType: 'branch',
    commitTitle: 'agent: change',
    runUrl: 'https://github.com/octo/repo/actions/runs/1',
    runDir: createTempDir(),
    describe: () => '',
    readOnlyFolders: ['.github/workflows/'],
    excludedPaths: ['.transcripts/'],
    containsSecret: () => false,
    reclaimRepository: guard.reclaim,
    ...overrides
  };
}
