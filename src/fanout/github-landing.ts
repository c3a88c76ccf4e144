import type { HeadPullRequests } from '../github/api/head-pull-requests.js';
import { WriteRateLimitError, type WritePacer } from '../github/api/paced-writes.js';
import { fitSections, MAX_BODY_CHARS } from '../github/markdown/outbound-fit-body.js';
import { codeSpan, inlineText, quoteBlock } from '../github/markdown/outbound-neutralize.js';
import type { GitIdentity, GitRepository } from '../git/repository.js';
import { botIdentity, isActionBotAccount } from '../github/events/bot-author.js';
import { errorMessage } from '../errors/error-message.js';
import type { Landing } from './land.js';
import type { FanoutManifest } from './manifest.js';
import { foreignTipReason } from './branch-tip-owner.js';

/**
 * What became of a branch's pull request on this land run:
 * - `opened`: there was none, this run opened it;
 * - `updated`: it was open, this run moved its branch (when the change differs) and its title and body;
 * - `merged`: it was merged, so the branch is left as it is and nothing is opened again;
 * - `closed`: someone closed it without merging, which declines the change: the branch is not pushed
 *   over and no second pull request is opened (a re-run must not propose again what a person
 *   turned down; reopening it brings it back, and the next land run then updates it). Reopening it
 *   ourselves is no option either: GitHub refuses to reopen a pull request whose branch was
 *   force-pushed after it was closed;
 * - `failed`: the push or the API call failed (`detail` says why); a re-run of the land job tries again.
 */
export type PullRequestState = 'opened' | 'updated' | 'merged' | 'closed' | 'failed';

export interface BranchPullRequest {
  readonly branch: string;
  /** The shards whose change the branch holds (one, or every landed shard for the combined branch). */
  readonly shardIds: readonly string[];
  readonly state: PullRequestState;
  readonly number: number | undefined;
  readonly url: string | undefined;
  /** Whether this run moved the branch on origin (false: unchanged, or left alone). */
  readonly pushed: boolean;
  readonly detail: string | undefined;
}

export interface PublishedLanding {
  readonly branches: readonly BranchPullRequest[];
  /** Each landed shard's branch and pull request. */
  readonly byShard: ReadonlyMap<string, BranchPullRequest>;
}

export interface GitHubLandingOptions {
  /** What landShards made: the deterministic local branches to push. */
  readonly landing: Landing;
  readonly manifest: FanoutManifest;
  /** The checkout, whose push carries the job's credential (guardRepository's `git`, or withPushConfig). */
  readonly git: GitRepository;
  /** Built with the same `writePacer` (OctokitGitHubApiOptions), so its writes are paced with the pushes. */
  readonly pulls: HeadPullRequests;
  readonly pacer: WritePacer;
  /** The branch the pull requests go into: the one the land job checked out. */
  readonly baseBranch: string;
  readonly defaultBranch: string;
  /**
   * Who the land job commits as (landShards' `identity`: bot_name and bot_email). A branch tip is
   * replaced only when this identity committed it, and a pull request is updated only when the
   * account of that name (the action's bot) opened it.
   */
  readonly identity: GitIdentity;
  /** The change's title (what landShards put in its commits). */
  readonly title: string;
  readonly runUrl: string;
  /** Where the roll-up is, once known (the issue or comment): linked from every pull request. */
  readonly rollupUrl?: string;
  readonly draft?: boolean;
}

/**
 * Pushes each deterministic branch the landing made (`fanout/<plan>/<shard>`, `.../combined`, or
 * `.../owner-<slug>`) and opens or updates its one pull request. A re-run of the land job
 * duplicates nothing: the pull request is found by its head branch, an open one is updated and
 * never joined by a second, a merged or declined one is left as it is (see PullRequestState), a
 * branch whose change is the same as on origin (same tree on the same base) is not pushed again,
 * and one someone else pushed to is never replaced. Pushes and API writes go through the one
 * pacer. A failure is that branch's `failed` row; a rate limit that outlasts the pacer's waits
 * fails the rest too, since every further write would meet it as well.
 */
export async function publishLandingOnGitHub(options: GitHubLandingOptions): Promise<PublishedLanding> {
  const branches: BranchPullRequest[] = [];
  let stopped: string | undefined;
  for (const target of branchesToPublish(options.landing)) {
    if (stopped !== undefined) {
      branches.push(row(target, 'failed', undefined, false, stopped));
      continue;
    }
    try {
      branches.push(await publishBranch(options, target));
    } catch (error) {
      if (error instanceof WriteRateLimitError) stopped = error.message;
      branches.push(row(target, 'failed', undefined, false, errorMessage(error).slice(0, 500)));
    }
  }
  const byShard = new Map<string, BranchPullRequest>();
  for (const branch of branches) for (const shardId of branch.shardIds) byShard.set(shardId, branch);
  return { branches, byShard };
}

interface Target {
  readonly branch: string;
  readonly shardIds: readonly string[];
}

/**
 * The branches to publish, each with the landed shards it holds: the combined branch with every
 * landed shard (none landed: nothing); otherwise each landed shard's own branch, shards that share
 * one (a per-owner landing: one branch per owner group) together, in the order they landed.
 */
function branchesToPublish(landing: Landing): Target[] {
  const landed = landing.shards.filter((shard) => shard.status === 'landed');
  if (landing.combinedBranch !== undefined)
    return landed.length === 0
      ? []
      : [{ branch: landing.combinedBranch, shardIds: landed.map((shard) => shard.shardId) }];
  const byBranch = new Map<string, string[]>();
  for (const shard of landed) {
    if (shard.branch === undefined) continue;
    const shards = byBranch.get(shard.branch) ?? [];
    shards.push(shard.shardId);
    byBranch.set(shard.branch, shards);
  }
  return [...byBranch].map(([branch, shardIds]) => ({ branch, shardIds }));
}

function row(
  target: Target,
  state: PullRequestState,
  pull: { number: number; url: string } | undefined,
  pushed: boolean,
  detail?: string
): BranchPullRequest {
  return { ...target, state, number: pull?.number, url: pull?.url, pushed, detail };
}

async function publishBranch(options: GitHubLandingOptions, target: Target): Promise<BranchPullRequest> {
  const pulls = await options.pulls.forHead(target.branch);
  const open = pulls.find((pull) => pull.state === 'open');
  if (open === undefined) {
    const merged = pulls.find((pull) => pull.merged);
    if (merged) return row(target, 'merged', merged, false);
    const declined = pulls.find((pull) => pull.state === 'closed');
    if (declined)
      return row(
        target,
        'closed',
        declined,
        false,
        `#${declined.number} was closed without merging, so this change is not proposed again; reopen it to have the next land run update it`
      );
  }
  if (open && !isActionBotAccount(open.author, botIdentity(options.identity.name, options.identity.email)))
    return row(
      target,
      'failed',
      open,
      false,
      `#${open.number} from ${target.branch} was opened by ${open.author.login}, not by the action's bot, so ` +
        `neither the branch nor that pull request was changed. Close it (or rename its branch), then re-run the land job.`
    );
  const pushed = await pushBranch(options, target.branch);
  const title = pullRequestTitle(options, target);
  const body = pullRequestBody(options, target);
  if (open) {
    if (open.title !== title || open.body !== body) await options.pulls.update(open.number, { title, body });
    return row(target, 'updated', open, pushed);
  }
  const created = await options.pulls.create({
    title,
    head: target.branch,
    base: options.baseBranch,
    body,
    draft: options.draft ?? false
  });
  return row(target, 'opened', created, pushed);
}

/**
 * Moves origin's branch to the local one, unless origin already holds the same change (the same
 * tree on the same parent: a re-run's new commit would only differ in its date). The lease replaces
 * only the commit just seen there.
 */
async function pushBranch(options: GitHubLandingOptions, branch: string): Promise<boolean> {
  const { git } = options;
  const local = (await git.run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).trim();
  const remote = await git.remoteBranchHead(branch);
  if (remote !== undefined) {
    if (remote === local) return false;
    const [theirs, ours] = await Promise.all([
      git.commitShape(remote, branch),
      git.commitShape(local, branch)
    ]);
    if (theirs && ours && theirs.tree === ours.tree && theirs.parent === ours.parent) return false;
    const foreign = await foreignTipReason(git, {
      remote,
      local,
      planId: options.manifest.planId,
      identity: options.identity
    });
    if (foreign !== undefined)
      throw new Error(
        `origin's ${branch} ends in a commit the land job did not make (${foreign}), so it was not ` +
          `replaced. Move that work to a branch of its own (or merge it), delete ${branch} on GitHub, ` +
          'and re-run the land job.'
      );
  }
  // Spaced with the API writes, but no content-generating API request: not in the minute or hour count.
  await options.pacer.pace(
    `git push ${branch}`,
    () => git.pushReplacingFanoutBranch(branch, remote, options.defaultBranch),
    { counted: false }
  );
  return true;
}

/** GitHub's limit on a pull request's title is 256 characters (the fake refuses longer ones as GitHub does). */
const MAX_TITLE_CHARS = 256;

/** The title, with the branch's own part (`shard-01`, `owner-octo-org-docs`) unless it holds every shard. */
function pullRequestTitle(options: GitHubLandingOptions, target: Target): string {
  const suffix = options.landing.combinedBranch !== undefined ? '' : ` (${target.branch.split('/').at(-1)!})`;
  const title = inlineText(options.title.split('\n')[0] ?? '') || 'compact-agent fan-out';
  return `${[...title].slice(0, MAX_TITLE_CHARS - suffix.length).join('')}${suffix}`;
}

/** Our own lines first (the only ones that link anything), then the units, then the prompt, quoted. */
function pullRequestBody(options: GitHubLandingOptions, target: Target): string {
  const { manifest } = options;
  const shards = manifest.shards.filter((shard) => target.shardIds.includes(shard.id));
  const units = shards.flatMap((shard) => shard.paths);
  const which =
    target.shardIds.length === 1
      ? `shard ${codeSpan(target.shardIds[0]!)}`
      : `${shards.length} shards (${target.shardIds.join(', ')})`;
  const intro =
    `Fan-out ${codeSpan(manifest.planId)}, ${which}: ${units.length} unit(s), by compact-agent ` +
    `([run](${options.runUrl})).` +
    (options.rollupUrl ? ` The [roll-up](${options.rollupUrl}) follows every shard.` : '');
  const unitList = [
    `<details><summary>Units (${units.length})</summary>`,
    '',
    ...units.map((unit) => `- ${codeSpan(unit)}`),
    '',
    '</details>'
  ].join('\n');
  return fitSections(
    [intro, unitList, quoteBlock(manifest.prompt, 'The change asked for: ')],
    MAX_BODY_CHARS,
    ''
  );
}
