import type { GitHubApi } from '../github/api/github-api.js';
import type { GitRepository } from '../git/repository.js';
import type { WorkTarget } from '../action/work-target.js';
import { branchNameProblem } from '../config/branch-name.js';
import { errorMessage } from '../errors/error-message.js';
import { isActionBotAccount, type BotIdentity } from '../github/events/bot-author.js';
import type { BranchProtection } from '../github/api/branch-protection.js';
import type { CarriedState } from './carried-state.js';

/** Where a follow-up may continue: only a branch the action made, never one people rely on. */
export interface ContinueRules {
  readonly branchPrefix: string;
  readonly defaultBranch: string;
  readonly bot: BotIdentity;
  readonly protection: BranchProtection;
}

export interface ContinuedTarget {
  readonly target: WorkTarget;
  /** What the report says about where this run's work went, and why. */
  readonly note: string;
}

/**
 * Where a follow-up on an issue works: the previous run's branch, fetched from origin with whatever
 * people pushed on it since, and its open pull request. Only a branch under `branch_prefix`, whose
 * pull request (if any) the bot opened, and never the default branch, the base or a protected
 * branch (a protection that cannot be read counts as one). When the branch is gone or ruled out, or
 * the PR was merged or closed, the fresh target (a new branch from the base) stays, and the note
 * says why.
 */
export async function continueOnPreviousBranch(
  previous: CarriedState,
  fresh: Extract<WorkTarget, { kind: 'new-branch' }>,
  api: GitHubApi,
  git: GitRepository,
  rules: ContinueRules
): Promise<ContinuedTarget> {
  const startFresh = (why: string): ContinuedTarget => ({
    target: fresh,
    note: `${why}, so this run starts a new branch from \`${fresh.base}\`.`
  });
  const branch = previous.branch;
  if (branch === null) return startFresh('The previous run pushed no branch');
  if (branchNameProblem(branch) !== undefined)
    return startFresh(`The previous run's branch name \`${branch.slice(0, 60)}\` cannot be continued`);
  if (branch === rules.defaultBranch || branch === fresh.base)
    return startFresh(
      `The previous run's state names \`${branch}\`, the ${branch === rules.defaultBranch ? 'default' : 'base'} branch, which a follow-up never continues on`
    );
  if (!branch.startsWith(rules.branchPrefix))
    return startFresh(
      `The previous run's state names \`${branch.slice(0, 60)}\`, which is not under \`branch_prefix\` (\`${rules.branchPrefix}\`), so the action did not make it`
    );
  let pullNumber: number | undefined;
  if (previous.pullRequest !== null) {
    const pull = await api.getPullRequest(previous.pullRequest).catch(() => undefined);
    if (pull === undefined) return startFresh(`The pull request #${previous.pullRequest} could not be read`);
    if (pull.merged) return startFresh(`The pull request #${pull.number} was merged`);
    if (pull.state === 'closed') return startFresh(`The pull request #${pull.number} was closed`);
    if (pull.headRef !== branch)
      return startFresh(`The pull request #${pull.number} no longer comes from \`${branch}\``);
    if (pull.author === undefined || !isActionBotAccount(pull.author, rules.bot))
      return startFresh(
        `The pull request #${pull.number} was opened by ${pull.author?.login ?? 'an unknown account'}, not by ${rules.bot.login}`
      );
    pullNumber = pull.number;
  }
  let isProtected: boolean;
  try {
    isProtected = await rules.protection.isProtected(branch);
  } catch (error) {
    return startFresh(
      `Whether \`${branch}\` is a protected branch could not be read (${errorMessage(error).split('\n')[0]!.slice(0, 160)}), so it is not continued`
    );
  }
  if (isProtected)
    return startFresh(`The branch \`${branch}\` is protected, and a follow-up never continues on one`);
  if (!(await git.remoteHasBranch(branch))) return startFresh(`The branch \`${branch}\` was deleted`);
  // The full ref: a bare name could fetch a tag of the same name.
  await git.checkoutFromOrigin(`refs/heads/${branch}`, branch);
  return {
    target: {
      kind: 'continued-branch',
      branch,
      base: fresh.base,
      issueNumber: fresh.issueNumber,
      pullNumber
    },
    note: `Continued on \`${branch}\`${pullNumber !== undefined ? ` (pull request #${pullNumber})` : ''}, on top of its latest commit.`
  };
}
