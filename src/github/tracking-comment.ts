import type { GitHubApi } from './github-api.js';
import { codeSpan } from './neutralize.js';

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
}

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
  edits = 0;

  constructor(
    private readonly api: GitHubApi,
    private readonly issueNumber: number,
    private readonly options: TrackingOptions
  ) {}

  get id(): number | undefined {
    return this.commentId;
  }

  async start(): Promise<void> {
    try {
      const created = await this.api.createComment(this.issueNumber, this.render(undefined));
      this.commentId = created.id;
    } catch (error) {
      this.options.warn(`Could not post the tracking comment: ${describe(error)}`);
    }
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
   */
  async finish(report: string): Promise<void> {
    this.finished = true;
    this.enqueue(report);
    await this.chain;
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
    const lines = [`🤖 **compact-agent is working on this** · [workflow run](${this.options.runUrl})`, ''];
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
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
