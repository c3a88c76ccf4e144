import type { MarkedPosts, Post } from '../github/api/marked-posts.js';
import { isActionBotAccount, type BotIdentity } from '../github/events/bot-author.js';
import type { StateOrigin } from '../followup/workflow-origin.js';
import { markOf, rollupMarker } from './rollup-marker.js';

/** At most this many pages of 100 issues are looked through for a plan's tracking issue. */
export const MAX_ISSUE_PAGES = 10;

export interface RollupTargetOptions {
  readonly posts: MarkedPosts;
  readonly planId: string;
  /** This land run's id (GITHUB_RUN_ID): the marker names it. */
  readonly runId: number;
  /** The action's own account (bot_name, and its id when known). */
  readonly bot: BotIdentity;
  /** Whether a run is one of this workflow's (ownWorkflowOrigin, src/followup/workflow-origin.ts). */
  readonly origin: Pick<StateOrigin, 'judgeRun'>;
  /** `report_issue`: the roll-up is one comment there. Absent: one tracking issue of the plan's own. */
  readonly reportIssue?: number;
  /** The tracking issue's title, when one is opened. */
  readonly issueTitle: string;
  /** Posts that carry the plan's marker but are not the action's own are passed over, and said here. */
  readonly warn: (message: string) => void;
}

export interface WrittenRollup {
  readonly kind: 'comment' | 'issue';
  /** The comment's id, or the issue's number. */
  readonly id: number;
  readonly url: string;
  /** True when this run made it; false when it edited the one an earlier land run made. */
  readonly created: boolean;
}

/**
 * Writes the roll-up where it lives: one comment on `reportIssue`, or one tracking issue per plan,
 * made by the first land run and edited by every later one (a re-run, a resume), never duplicated.
 * The post is found by its marker AND its author and origin, as the tracking comment finds its own
 * (src/github/report/tracking-comment.ts): the action's bot account, and a marker naming a run of
 * this workflow. With the default bot every workflow that writes with GITHUB_TOKEN writes as
 * github-actions[bot], and anyone can paste a marker; a post failing either check is left alone.
 * Writes go through the MarkedPosts client, which the land role builds with the run's write pacer.
 */
export async function writeRollup(options: RollupTargetOptions, body: string): Promise<WrittenRollup> {
  const marked = `${body}\n\n${rollupMarker({ plan: options.planId, run: options.runId })}`;
  const { posts } = options;
  if (options.reportIssue !== undefined) {
    const own = await findOwnPost(await posts.comments(options.reportIssue), options);
    const written = own
      ? await posts.updateComment(own.id, marked)
      : await posts.createComment(options.reportIssue, marked);
    return { kind: 'comment', id: written.id, url: written.url, created: own === undefined };
  }
  const issues = (await posts.recentIssues(MAX_ISSUE_PAGES)).reverse();
  const own = await findOwnPost(issues, options);
  const written = own
    ? await posts.updateIssue(own.id, marked)
    : await posts.createIssue(options.issueTitle, marked);
  return { kind: 'issue', id: written.id, url: written.url, created: own === undefined };
}

/** The oldest post (given oldest first) with the plan's marker, written by the bot in a run of this workflow. */
async function findOwnPost(posts: readonly Post[], options: RollupTargetOptions): Promise<Post | undefined> {
  for (const post of posts) {
    const marker = markOf(post.body);
    if (marker?.plan !== options.planId) continue;
    if (!isActionBotAccount(post.author, options.bot)) {
      options.warn(
        `Passed over ${post.url}: it carries the roll-up marker of plan ${options.planId}, but ${post.author.login} wrote it, not the action's bot.`
      );
      continue;
    }
    const verdict = await options.origin.judgeRun(marker.run);
    if (verdict.kind === 'ours') return post;
    options.warn(
      `Passed over ${post.url}: it carries the roll-up marker of plan ${options.planId}, but ${verdict.reason}.`
    );
  }
  return undefined;
}
