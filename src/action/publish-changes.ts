import type { PullRequestType } from '../config/github-inputs.js';
import type { GitHubApi } from '../github/api/github-api.js';
import type { ChangesOutcome } from '../github/report/report.js';
import { fitSections, MAX_BODY_CHARS } from '../github/markdown/outbound-fit-body.js';
import { quoteBlock } from '../github/markdown/outbound-neutralize.js';
import type { GitIdentity, GitRepository } from '../git/repository.js';
import type { WorkTarget } from './work-target.js';
import { errorMessage } from '../errors/error-message.js';

export interface CoAuthor {
  readonly login: string;
  /** GitHub's numeric user id: the noreply address `id+login@` is what GitHub links to the account. */
  readonly id?: number;
}

export interface PublishOptions {
  readonly identity: GitIdentity;
  readonly defaultBranch: string;
  readonly pullRequestType: PullRequestType;
  readonly commitTitle: string;
  readonly runUrl: string;
  /** The run folder: a fork's patch is saved there, so it is in the artifact. */
  readonly runDir: string;
  /** The report so far, for the pull request's body. */
  readonly describe: () => string;
  /** Folders whose changes are withheld (kept as in the base commit), e.g. `.github/workflows/`. */
  readonly readOnlyFolders: readonly string[];
  /** Publish added or changed gitlinks and `.gitmodules` (allow_submodule_changes); else they are withheld. */
  readonly allowSubmoduleChanges?: boolean;
  /** Paths never committed (the run's transcripts). */
  readonly excludedPaths: readonly string[];
  /** True when a text holds a known secret or something shaped like one. */
  readonly containsSecret: (text: string) => boolean;
  /** Takes the repository back from the agent before any git command (see guardRepository). */
  readonly reclaimRepository: () => void;
  /** The person who asked, credited with a Co-authored-by trailer. */
  readonly coAuthor?: CoAuthor;
  /** Added to a failed push's error: what to check about the credential it carried. */
  readonly pushFailureHint?: string;
}

/**
 * Commits what the agent left and sends it where it belongs: a new branch and pull request, the
 * PR's own branch, or, for a fork, a patch in the report. It never throws: a fault is the outcome.
 *
 * The commit is made by the action, as its bot, on the base commit: the agent's own commits
 * (whatever author it gave them) are folded into it, and their messages are not reused, since a
 * "Fixes #N" in them would close issues on merge.
 */
export async function publishChanges(
  target: WorkTarget,
  baseCommit: string,
  git: GitRepository,
  api: GitHubApi,
  options: PublishOptions
): Promise<ChangesOutcome> {
  try {
    options.reclaimRepository();
  } catch (error) {
    return { kind: 'failed', error: errorMessage(error), diffStat: '' };
  }
  let published: Published;
  try {
    published = await commitAsBot(baseCommit, git, options);
  } catch (error) {
    return { kind: 'failed', error: errorMessage(error), diffStat: '' };
  }
  const extras = {
    ...(published.withheld.length > 0 ? { withheld: published.withheld } : {}),
    ...(published.withheldSubmodules.length > 0 ? { withheldSubmodules: published.withheldSubmodules } : {}),
    ...(published.leftOut ? { leftOut: published.leftOut } : {})
  };
  if (published.commit === undefined) return { kind: 'none', ...extras };
  return { ...(await send(target, baseCommit, published.commit, git, api, options)), ...extras };
}

interface Published {
  /** Undefined when the tree is the base's: nothing to publish. */
  readonly commit: string | undefined;
  readonly withheld: string[];
  readonly withheldSubmodules: string[];
  /** Why some of the agent's work is not in the commit. */
  readonly leftOut?: string;
}

/**
 * The working tree as the agent left it, committed as the bot. When that fails (a full disk, a
 * broken index), what the agent had already committed is published instead, and the outcome
 * says what was left out and why.
 */
async function commitAsBot(base: string, git: GitRepository, options: PublishOptions): Promise<Published> {
  const asInBase = [...options.excludedPaths, ...options.readOnlyFolders];
  const baseTree = await git.treeOf(base);
  const allowSubmodules = options.allowSubmoduleChanges ?? false;
  let staged: Awaited<ReturnType<GitRepository['treeToPublish']>>;
  let leftOut: string | undefined;
  try {
    staged = await git.treeToPublish(
      base,
      'working-tree',
      asInBase,
      options.readOnlyFolders,
      allowSubmodules
    );
  } catch (workingTreeError) {
    const reason = errorMessage(workingTreeError);
    let committed: typeof staged;
    try {
      committed = await git.treeToPublish(base, 'HEAD', asInBase, options.readOnlyFolders, allowSubmodules);
    } catch {
      throw new Error(`the changes could not be committed: ${reason}`);
    }
    if (committed.tree === baseTree) throw new Error(`the changes could not be committed: ${reason}`);
    staged = committed;
    leftOut = `the changes not yet committed by the agent could not be committed (${reason}); what it had committed was published`;
  }
  const withheld = { withheld: staged.withheld, withheldSubmodules: staged.withheldSubmodules };
  if (staged.tree === baseTree) return { commit: undefined, ...withheld, ...(leftOut ? { leftOut } : {}) };
  const commit = await git.commitTree(staged.tree, base, commitMessage(options), options.identity);
  return { commit, ...withheld, ...(leftOut ? { leftOut } : {}) };
}

async function send(
  target: WorkTarget,
  base: string,
  commit: string,
  git: GitRepository,
  api: GitHubApi,
  options: PublishOptions
): Promise<ChangesOutcome> {
  let diffStat = '';
  try {
    diffStat = await git.diffStat(base, commit);
    const patch = await git.patch(base, commit);
    // Whatever the agent read, it must not publish it: a diff holding a secret stays here.
    if (options.containsSecret(patch)) {
      return {
        kind: 'failed',
        error:
          'the changes contain what looks like a secret (a token, a key or a private key), so nothing was pushed',
        diffStat
      };
    }
    if (target.kind === 'fork') {
      // The patch stays in memory: the artifact stages it from there (the run folder is the agent's to break).
      return {
        kind: 'patch',
        reason: `the pull request comes from the fork ${target.headRepo}`,
        diffStat,
        patch
      };
    }
    // The branch work starts from (base_branch, or the default branch) is the pull request's
    // target: it is never the branch pushed to, whatever name a follow-up carried.
    if (target.kind !== 'pull-request-branch' && target.branch === target.base) {
      return {
        kind: 'failed',
        error: `the work was to go to \`${target.branch}\`, the base branch itself, so nothing was pushed`,
        diffStat
      };
    }
    await git.moveBranchTo(target.branch, commit);
    try {
      await git.push(target.branch, options.defaultBranch);
    } catch (error) {
      if (!options.pushFailureHint) throw error;
      throw new Error(`${errorMessage(error)} (${options.pushFailureHint})`);
    }
    if (target.kind === 'pull-request-branch' || options.pullRequestType === 'branch') {
      return {
        kind: 'pushed',
        branch: target.branch,
        diffStat,
        pullRequestUrl: undefined,
        pullRequestError: undefined
      };
    }
    if (target.kind === 'continued-branch' && target.pullNumber !== undefined) {
      return {
        kind: 'pushed',
        branch: target.branch,
        base: target.base,
        diffStat,
        ...(await updatePullRequest(target.pullNumber, target.issueNumber, api, options))
      };
    }
    return {
      kind: 'pushed',
      branch: target.branch,
      base: target.base,
      diffStat,
      ...(await openPullRequest(target, api, options))
    };
  } catch (error) {
    return { kind: 'failed', error: errorMessage(error), diffStat };
  }
}

function commitMessage(options: PublishOptions): string {
  const message = `${options.commitTitle}\n\nRun: ${options.runUrl}`;
  const author = options.coAuthor;
  // A login is letters, digits and hyphens (bots end in [bot]); anything else could forge a trailer.
  if (!author || !/^[A-Za-z0-9-]{1,39}(\[bot\])?$/.test(author.login)) return message;
  const id = author.id !== undefined && Number.isSafeInteger(author.id) ? `${author.id}+` : '';
  return `${message}\n\nCo-authored-by: ${author.login} <${id}${author.login}@users.noreply.github.com>`;
}

interface PullRequestOutcome {
  readonly pullRequestUrl: string | undefined;
  readonly pullRequestNumber?: number;
  readonly pullRequestError: string | undefined;
}

/** The PR body: our own line (the only one that may refer to the issue), then the model's summary, neutralized. */
function pullRequestBody(issueNumber: number | undefined, options: PublishOptions): string {
  const link = issueNumber
    ? `For #${issueNumber}, by compact-agent ([run](${options.runUrl})).`
    : `By compact-agent ([run](${options.runUrl})).`;
  return fitSections([link, quoteBlock(options.describe())], MAX_BODY_CHARS, '');
}

/** A follow-up's pull request is the previous run's: its body becomes this run's account. */
async function updatePullRequest(
  pullNumber: number,
  issueNumber: number | undefined,
  api: GitHubApi,
  options: PublishOptions
): Promise<PullRequestOutcome> {
  try {
    const updated = await api.updatePullRequest(pullNumber, {
      body: pullRequestBody(issueNumber, options)
    });
    return { pullRequestUrl: updated.url, pullRequestNumber: updated.number, pullRequestError: undefined };
  } catch (error) {
    return {
      pullRequestUrl: undefined,
      pullRequestNumber: pullNumber,
      pullRequestError: `the pull request #${pullNumber} could not be updated: ${errorMessage(error)}`
    };
  }
}

async function openPullRequest(
  target: Extract<WorkTarget, { kind: 'new-branch' | 'continued-branch' }>,
  api: GitHubApi,
  options: PublishOptions
): Promise<PullRequestOutcome> {
  const body = pullRequestBody(target.issueNumber, options);
  try {
    const created = await api.createPullRequest({
      title: options.commitTitle,
      head: target.branch,
      base: target.base,
      body,
      draft: options.pullRequestType === 'draft'
    });
    return { pullRequestUrl: created.url, pullRequestNumber: created.number, pullRequestError: undefined };
  } catch (error) {
    return {
      pullRequestUrl: undefined,
      pullRequestError: errorMessage(error)
    };
  }
}
