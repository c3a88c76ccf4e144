import type { RunResult } from '../agent/run-result.js';
import type { ArtifactOutcome, ChangesOutcome } from '../github/report/report.js';
import { fittedPublished, renderCarriedLedger } from './carried-ledger.js';
import type { TranscriptWork } from './transcript-work.js';
import {
  boundedState,
  CARRIED_LIMITS,
  CARRIED_STATE_VERSION,
  embedState,
  requestsSoFar,
  type CarriedState
} from './carried-state.js';
import { spentBeforeUsd } from './thread-budget.js';

/** What the end of a run knows, from which the state for the next run is built. */
export interface FinishedRun {
  readonly repository: string;
  readonly runId: string;
  readonly runUrl: string;
  /** The original task of the whole thread's work (the previous state's, for a follow-up). */
  readonly task: string;
  /** What the person asked in this run. */
  readonly request: string;
  readonly result: Pick<RunResult, 'summary' | 'stopReason' | 'error' | 'costUsd'>;
  /** What was published; absent for a local run, which publishes nothing. */
  readonly changes: ChangesOutcome | undefined;
  readonly artifact: ArtifactOutcome;
  /** The issue or pull request the run served; null without one (a local run, a schedule). */
  readonly thread: number | null;
  /** The branch and PR the work lives on, when known (a follow-up's carry over when nothing was pushed). */
  readonly branch: string | null;
  readonly pullRequest: number | null;
  readonly previous: CarriedState | undefined;
  /** What the thread spent before this run, when more than the previous run's total (RunStart.spentUsd). */
  readonly spentUsd?: number | undefined;
  /** What the run's own transcript records of its work (files the tools wrote, failed commands). */
  readonly work?: Pick<TranscriptWork, 'filesChanged' | 'failedCommands'>;
  /** The transcript's last hash: the next run checks the artifact's transcript against it. */
  readonly transcriptHead?: string;
  /** A read-only run's kind (its summary is then a plan or a review's summary). */
  readonly mode?: 'plan' | 'review';
}

/** The state this run leaves for the next one on its thread (embedded in its report, then redacted). */
export function carriedStateOf(run: FinishedRun): CarriedState {
  const previous = run.previous;
  return {
    version: CARRIED_STATE_VERSION,
    repository: run.repository,
    runId: run.runId,
    runUrl: run.runUrl,
    task: run.task,
    summary: run.result.summary,
    ledger: ledgerOf(run),
    published: fittedPublished(publishedLines(run.changes)),
    recentUserMessages: requestsSoFar(previous, run.request),
    ...(run.mode ? { mode: run.mode } : {}),
    thread: run.thread,
    branch: run.branch,
    pullRequest: run.pullRequest,
    artifactId: run.artifact.kind === 'uploaded' ? run.artifact.id : null,
    transcriptHead: run.transcriptHead ?? null,
    costUsd: run.result.costUsd,
    previousRuns: previous
      ? [...previous.previousRuns, { runUrl: previous.runUrl, costUsd: previous.costUsd }].slice(
          -CARRIED_LIMITS.previousRuns
        )
      : [],
    threadCostUsd: spentBeforeUsd(run) + run.result.costUsd
  };
}

/** A short ledger: how the run ended, what it published (the diff stat), what it changed and what failed. */
function ledgerOf(run: FinishedRun): string {
  return renderCarriedLedger({
    stopReason: run.result.stopReason,
    error: run.result.error ?? undefined,
    published: publishedLines(run.changes),
    filesChanged: run.work?.filesChanged ?? [],
    failedCommands: run.work?.failedCommands ?? []
  });
}

function publishedLines(changes: ChangesOutcome | undefined): string[] {
  const lines: string[] = [];
  switch (changes?.kind) {
    case undefined:
      lines.push('Changes: left in the working tree (a local run publishes nothing)');
      break;
    case 'none':
      lines.push('Changes: none');
      break;
    case 'read-only':
      lines.push(`Changes: none (a read-only ${changes.mode} run)`);
      break;
    case 'pushed':
      lines.push(`Changes pushed to ${changes.branch}:`, ...changes.diffStat.split('\n'));
      break;
    case 'patch':
      lines.push(`Changes not pushed (${changes.reason}):`, ...changes.diffStat.split('\n'));
      break;
    case 'failed':
      lines.push(`Changes could not be published: ${changes.error}`, ...changes.diffStat.split('\n'));
      break;
  }
  if (changes?.withheld?.length) lines.push(`Withheld: ${changes.withheld.join(', ')}`);
  return lines.filter((line) => line.trim() !== '');
}

/**
 * The state as the report's hidden trailer. The field bounds alone can exceed the encoded bound
 * (base64 grows text by a third, and non-ASCII more), so the long texts are halved until it fits:
 * a follow-up with a shorter summary beats one that starts fresh.
 */
export function embedForReport(state: CarriedState, redact: (text: string) => string): string {
  let current = boundedState(state);
  for (let attempt = 0; attempt < 8; attempt++) {
    const embedded = embedState(current, redact);
    if (embedded !== '') return embedded;
    const half = (text: string) => (text.length <= 1 ? '' : `…${text.slice(Math.ceil(text.length / 2) + 1)}`);
    current = {
      ...current,
      summary: half(current.summary),
      ledger: half(current.ledger),
      task: current.task.slice(0, Math.ceil(current.task.length / 2)),
      recentUserMessages: current.recentUserMessages.map((message) =>
        message.slice(0, Math.ceil(message.length / 2))
      )
    };
  }
  return '';
}
