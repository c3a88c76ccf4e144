import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PullRequestType } from '../config/github-inputs.js';
import type { GitHubApi } from '../github/github-api.js';
import type { ChangesOutcome } from '../github/report.js';
import { fitSections, MAX_BODY_CHARS } from '../github/fit-body.js';
import { quoteBlock } from '../github/neutralize.js';
import type { GitIdentity, GitRepository } from '../git/repository.js';
import type { WorkTarget } from './work-target.js';

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
  /** Folders whose changes are withheld (reverted before the commit), e.g. `.github/workflows/`. */
  readonly readOnlyFolders: readonly string[];
  /** True when a text holds a known secret or something shaped like one. */
  readonly containsSecret: (text: string) => boolean;
}

/**
 * Commits what the agent changed (the action commits, not the agent) and sends it where it belongs:
 * a new branch and pull request, the PR's own branch, or, for a fork, a patch in the report.
 */
export async function publishChanges(
  target: WorkTarget,
  baseCommit: string,
  git: GitRepository,
  api: GitHubApi,
  options: PublishOptions
): Promise<ChangesOutcome> {
  // The tools refuse these folders, but bash can write anywhere: the commit is the last gate.
  const withheld: string[] = [];
  for (const folder of options.readOnlyFolders) {
    const changed = await git.changedUnder(baseCommit, folder).catch(() => []);
    if (changed.length === 0) continue;
    withheld.push(...changed);
    await git.revertFolder(baseCommit, folder);
  }
  const outcome = await commitAndSend(target, baseCommit, git, api, options);
  return withheld.length > 0 ? { ...outcome, withheld } : outcome;
}

async function commitAndSend(
  target: WorkTarget,
  baseCommit: string,
  git: GitRepository,
  api: GitHubApi,
  options: PublishOptions
): Promise<ChangesOutcome> {
  let diffStat = '';
  try {
    if (target.kind === 'new-branch') await git.createBranch(target.branch);
    await git.commitAll(`${options.commitTitle}\n\nRun: ${options.runUrl}`, options.identity);
    if ((await git.head()) === baseCommit) return { kind: 'none' };
    diffStat = await git.diffStat(baseCommit);
    // Whatever the agent read, it must not publish it: a diff holding a secret stays here.
    if (options.containsSecret(await git.patch(baseCommit))) {
      return {
        kind: 'failed',
        error:
          'the changes contain what looks like a secret (a token, a key or a private key), so nothing was pushed',
        diffStat
      };
    }
    if (target.kind === 'fork') {
      const patch = await git.patch(baseCommit);
      await writeFile(path.join(options.runDir, 'changes.patch'), patch);
      return {
        kind: 'patch',
        reason: `the pull request comes from the fork ${target.headRepo}`,
        diffStat,
        patch
      };
    }
    await git.push(target.branch, options.defaultBranch);
    if (target.kind === 'pull-request-branch' || options.pullRequestType === 'branch') {
      return {
        kind: 'pushed',
        branch: target.branch,
        diffStat,
        pullRequestUrl: undefined,
        pullRequestError: undefined
      };
    }
    return {
      kind: 'pushed',
      branch: target.branch,
      diffStat,
      ...(await openPullRequest(target, api, options))
    };
  } catch (error) {
    return { kind: 'failed', error: error instanceof Error ? error.message : String(error), diffStat };
  }
}

async function openPullRequest(
  target: Extract<WorkTarget, { kind: 'new-branch' }>,
  api: GitHubApi,
  options: PublishOptions
): Promise<{ pullRequestUrl: string | undefined; pullRequestError: string | undefined }> {
  const link = target.issueNumber
    ? `For #${target.issueNumber}, by compact-agent ([run](${options.runUrl})).`
    : `By compact-agent ([run](${options.runUrl})).`;
  // The summary is the model's: neutralized, so only our own line can refer to the issue.
  const body = fitSections([link, quoteBlock(options.describe())], MAX_BODY_CHARS, '');
  try {
    const created = await api.createPullRequest({
      title: options.commitTitle,
      head: target.branch,
      base: target.base,
      body,
      draft: options.pullRequestType === 'draft'
    });
    return { pullRequestUrl: created.url, pullRequestError: undefined };
  } catch (error) {
    return {
      pullRequestUrl: undefined,
      pullRequestError: error instanceof Error ? error.message : String(error)
    };
  }
}
