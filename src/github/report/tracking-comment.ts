import type { GitHubApi, ThreadComment } from '../api/github-api.js';
import { isActionBotComment } from '../events/bot-author.js';
import { FenceTracker } from '../markdown/code-fence.js';
import { GITHUB_COMMENT_LIMIT } from '../markdown/outbound-comment-limit.js';
import { CLAIM_MARKER_NAME, defuseMarkers, TRACKING_MARKER } from '../markdown/outbound-hidden-markers.js';
import { codeSpan } from '../markdown/outbound-neutralize.js';
import { errorMessage as describe } from '../../errors/error-message.js';

export { TRACKING_MARKER };

export interface TrackedProgress {
  readonly turn: number;
  readonly contextTokens: number;
  readonly compactions: number;
  readonly costUsd: number;
  readonly activity: string;
}

export interface TrackingOptions {
  readonly runUrl: string;
  /** Edits closer together than this are merged into the next one. */
  readonly minIntervalMs: number;
  readonly now: () => number;
  readonly warn: (message: string) => void;
  /**
   * `use_sticky_comment`: the newest earlier tracking comment on the thread by the Bot account of
   * `botLogin` (`bot_name`) whose state or claim a run of this workflow wrote (`isOwnReport`) is
   * edited instead of posting a new one. Other workflows comment as the same account: one of their
   * comments ending in the marker is never taken over (its hidden blocks would be carried on).
   */
  readonly reuse?:
    | {
        readonly botLogin: string;
        readonly isOwnReport: (comment: ThreadComment) => Promise<boolean>;
      }
    | undefined;
  /** The comment in which this run claimed its request (src/action/stages/thread-queue.ts). */
  readonly claim?: TrackingClaim | undefined;
}

/** What a claim says of its run: working, then served (a report) or failed (a fault report). */
export type TrackingClaimState = 'working' | 'served' | 'failed';

/**
 * A run's claim on its request: a comment the run posted before it waited for its turn. The
 * tracking comment takes it over, so the run shows in one comment; the claim's hidden marker stays in
 * it and says at the end whether the request was served. A reused sticky comment cannot take it
 * over: the claim then stays a comment of its own, and is edited to its end state with the report.
 */
export interface TrackingClaim {
  readonly commentId: number;
  /** The claim comment's body as the run last wrote it: taken over without an edit when it is the start. */
  readonly body: string;
  readonly marker: (state: TrackingClaimState) => string;
  /** The line naming bot comments whose claims were passed over (not of this workflow), for the report. */
  readonly passedOver?: string;
}

/**
 * The body a claim comment starts with: the tracking comment's own start, the claim's marker and
 * the tracking marker. A run that needs not wait takes it over as it is, without an edit.
 */
export function claimStartBody(runUrl: string, claimMarker: string): string {
  return `${defuseMarkers(workingText(runUrl, undefined))}\n\n${claimMarker}\n\n${TRACKING_MARKER}`;
}

/** The working comment's text (before its markers): the run's link, then its progress. */
function workingText(runUrl: string, progress: TrackedProgress | undefined): string {
  const lines = [`🤖 **compact-agent is working on this** · [workflow run](${runUrl})`, ''];
  if (!progress) {
    lines.push('Starting…');
  } else {
    lines.push(
      `Turn ${progress.turn} · ${progress.contextTokens.toLocaleString('en-US')} context tokens · ` +
        `${progress.compactions} compactions · $${progress.costUsd.toFixed(4)}`,
      '',
      `Now: ${codeSpan(progress.activity)}`
    );
  }
  return lines.join('\n');
}

/**
 * The hidden state that ends a final report. A finished run's report brings its own (`state`, as
 * embedState wrote it; absent when it did not fit) and replaces any earlier one; a report of a run
 * that failed before it had one (a fault) keeps the state an earlier run left hidden in the reused
 * comment (sticky comments), so the next follow-up can still continue.
 */
export type EarlierStateFate =
  { readonly replacedByReport: true; readonly state?: string } | { readonly replacedByReport: false };

/** Hidden blocks of a reused comment larger than this are not carried (the state is far smaller). */
const MAX_CARRIED_CHARS = 30_000;

/**
 * The comment that shows a run while it goes on, edited in place, and becomes its report. Edits are
 * throttled and serialized; a failed edit is a warning, never the end of the run.
 */
export class TrackingComment {
  private commentId: number | undefined;
  private lastEditAt = -Infinity;
  private chain: Promise<void> = Promise.resolve();
  private lastEditSucceeded = false;
  private finished = false;
  /**
   * The hidden blocks (the carried state) of the reused comment. They stay in the comment until
   * this run's report brings its own, so a run that fails before it loses no earlier state.
   */
  private carried = '';
  private reusedComment = false;
  /** True once the claim comment is this tracking comment: its marker goes into every body. */
  private claimAdopted = false;
  private claimState: TrackingClaimState = 'working';
  edits = 0;

  constructor(
    private readonly api: GitHubApi,
    private readonly issueNumber: number,
    private readonly options: TrackingOptions
  ) {}

  get id(): number | undefined {
    return this.commentId;
  }

  /** The issue or pull request the comment is on. */
  get thread(): number {
    return this.issueNumber;
  }

  /** A new comment on the same thread, after the report; a failure is a warning. */
  async reply(body: string): Promise<void> {
    await this.api
      .createComment(this.issueNumber, body)
      .then(() => undefined)
      .catch((error: unknown) =>
        this.options.warn(`Could not post a reply on the thread: ${describe(error)}`)
      );
  }

  /** True when start() took over an earlier run's comment (use_sticky_comment). */
  get reused(): boolean {
    return this.reusedComment;
  }

  async start(): Promise<void> {
    if (this.options.reuse !== undefined && (await this.reuseEarlier(this.options.reuse))) return;
    if (await this.adoptClaim()) return;
    try {
      const created = await this.api.createComment(this.issueNumber, this.render(undefined));
      this.commentId = created.id;
    } catch (error) {
      this.options.warn(`Could not post the tracking comment: ${describe(error)}`);
    }
  }

  /**
   * Takes over the newest tracking comment on the thread written by `botLogin` that a run of this
   * workflow wrote. Nothing found, or the thread, the check or the edit failing, means a new
   * comment: the run must be visible either way.
   */
  private async reuseEarlier(reuse: NonNullable<TrackingOptions['reuse']>): Promise<boolean> {
    let comments: ThreadComment[];
    try {
      comments = await this.api.listComments(this.issueNumber);
    } catch (error) {
      this.options.warn(`Could not look for an earlier report comment to reuse: ${describe(error)}`);
      return false;
    }
    // Never a claim still at work: this run's own, or another's waiting for its turn.
    const candidates = comments.filter(
      (comment) => isTrackingComment(comment, reuse.botLogin) && !holdsWorkingClaim(comment.body)
    );
    let earlier: ThreadComment | undefined;
    for (const comment of candidates.reverse()) {
      const own = await reuse.isOwnReport(comment).catch((error: unknown) => {
        this.options.warn(`Could not check the earlier report comment ${comment.id}: ${describe(error)}`);
        return false;
      });
      if (own) {
        earlier = comment;
        break;
      }
    }
    if (!earlier) return false;
    const carried = hiddenBlocks(earlier.body);
    this.carried = carried.length <= MAX_CARRIED_CHARS ? carried : '';
    try {
      await this.api.updateComment(earlier.id, this.render(undefined));
    } catch (error) {
      this.carried = '';
      this.options.warn(
        `Could not reuse the earlier report comment ${earlier.id} (${describe(error)}); posting a new one.`
      );
      return false;
    }
    this.commentId = earlier.id;
    this.reusedComment = true;
    return true;
  }

  /** The claim comment becomes the tracking comment; false (a new comment then) if it cannot be edited. */
  private async adoptClaim(): Promise<boolean> {
    const claim = this.options.claim;
    if (claim === undefined) return false;
    this.claimAdopted = true;
    try {
      const start = this.render(undefined);
      if (claim.body !== start) await this.api.updateComment(claim.commentId, start);
    } catch (error) {
      this.claimAdopted = false;
      this.options.warn(`Could not take over the claim comment ${claim.commentId} (${describe(error)}).`);
      return false;
    }
    this.commentId = claim.commentId;
    return true;
  }

  /** Shows progress if the last edit is old enough (or `force`); a skipped update is superseded by the next. */
  update(progress: TrackedProgress, force = false): void {
    if (this.finished) return; // a late progress line must not overwrite the report
    if (!force && this.options.now() - this.lastEditAt < this.options.minIntervalMs) return;
    this.lastEditAt = this.options.now();
    const body = this.render(progress);
    this.enqueue(body);
  }

  /**
   * Replaces the comment with the final report. If that edit fails (or the first post did), the
   * report is posted as a new comment: it must reach the thread. The working comment left behind is
   * then pointed at it, so it does not say "working" forever.
   *
   * The caller says what becomes of the state an earlier run left hidden in a reused comment; the
   * report's text is never read for it, since a report quotes text others wrote: every marker in it
   * is defused, and the state the caller hands in is appended after it, as the comment's last block.
   */
  async finish(finalReport: string, earlierState: EarlierStateFate): Promise<void> {
    this.finished = true;
    this.claimState = earlierState.replacedByReport ? 'served' : 'failed';
    const text = defuseMarkers(finalReport);
    const report = this.withMarker(text + this.claimBlock() + this.stateAfter(text, earlierState));
    this.enqueue(report);
    await this.chain;
    await this.endSeparateClaim();
    if (this.commentId !== undefined && this.lastEditSucceeded) return;
    const stale = this.commentId;
    try {
      const posted = await this.api.createComment(this.issueNumber, report);
      this.commentId = posted.id;
      if (stale !== undefined)
        await this.api
          .updateComment(stale, `🤖 compact-agent has finished: the report is in ${posted.url}.`)
          .catch((error: unknown) =>
            this.options.warn(`Could not point the tracking comment at the report: ${describe(error)}`)
          );
    } catch (error) {
      this.options.warn(`Could not post the report comment: ${describe(error)}`);
    }
  }

  /** A claim that stayed a comment of its own (a sticky comment was reused) says how the run ended. */
  private async endSeparateClaim(): Promise<void> {
    const claim = this.options.claim;
    if (claim === undefined || this.claimAdopted) return;
    const outcome =
      this.claimState === 'served'
        ? 'served this request: the report is in the comment it keeps on this thread'
        : 'ended before it could serve this request: the comment it keeps on this thread says why';
    await this.api
      .updateComment(
        claim.commentId,
        `🤖 compact-agent ${outcome} · [workflow run](${this.options.runUrl})\n\n${claim.marker(this.claimState)}`
      )
      .catch((error: unknown) => this.options.warn(`Could not update the claim comment: ${describe(error)}`));
  }

  /** The hidden block that ends the report: its own state, or the earlier one when both fit in a comment. */
  private stateAfter(text: string, fate: EarlierStateFate): string {
    if (fate.replacedByReport) return fate.state ? `\n\n${fate.state}` : '';
    return this.withMarker(text + this.claimBlock() + this.carried).length <= GITHUB_COMMENT_LIMIT
      ? this.carried
      : '';
  }

  private enqueue(body: string): void {
    this.chain = this.chain.then(async () => {
      if (this.commentId === undefined) return;
      try {
        await this.api.updateComment(this.commentId, body);
        this.edits++;
        this.lastEditSucceeded = true;
      } catch (error) {
        this.lastEditSucceeded = false;
        this.options.warn(`Could not edit the tracking comment: ${describe(error)}`);
      }
    });
  }

  private render(progress: TrackedProgress | undefined): string {
    return this.withMarker(
      defuseMarkers(workingText(this.options.runUrl, progress)) + this.claimBlock() + this.carried
    );
  }

  private withMarker(body: string): string {
    return `${body}\n\n${TRACKING_MARKER}`;
  }

  /** The claim's marker, while the claim is this comment: before any state, which must come last. */
  private claimBlock(): string {
    return this.claimAdopted && this.options.claim ? `\n\n${this.options.claim.marker(this.claimState)}` : '';
  }
}

/** A comment this action's tracking comment wrote: by the bot account, and ending with the marker. */
function isTrackingComment(comment: ThreadComment, botLogin: string): boolean {
  return isActionBotComment(comment, botLogin) && comment.body.trimEnd().endsWith(TRACKING_MARKER);
}

/** Whether a body holds a claim whose run has not ended (see src/action/duplicate-trigger.ts). */
function holdsWorkingClaim(body: string): boolean {
  return body
    .split('\n')
    .some((line) => line.startsWith(`<!-- ${CLAIM_MARKER_NAME} `) && line.includes('"state":"working"'));
}

/**
 * The HTML comments of a body outside fenced code. Report text is neutralized, so only the action
 * writes raw ones, except in a fence (a patch is shown byte for byte): a `<!--` there is the model's
 * and would otherwise swallow the report up to the state's `-->`.
 */
function hiddenBlocks(body: string): string {
  const fences = new FenceTracker();
  const outsideCode = body
    .split('\n')
    .map((line) => (fences.read(line) === 'outside' ? line : ''))
    .join('\n');
  // A claim belongs to the run that wrote it: a later run reusing the comment writes its own.
  const blocks = (outsideCode.match(/<!--[\s\S]*?-->/g) ?? []).filter(
    (block) => block !== TRACKING_MARKER && !block.startsWith(`<!-- ${CLAIM_MARKER_NAME} `)
  );
  return blocks.map((block) => `\n\n${block}`).join('');
}
