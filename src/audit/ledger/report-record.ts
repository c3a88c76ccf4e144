import { extractState, type CarriedState } from '../../followup/carried-state.js';
import type { RepositoryComment } from '../../github/api/audit-reads.js';
import type { RunKindName } from './ledger-row.js';

/** What one report comment of the action says of its run. */
export interface ReportRecord {
  /** `123-1`: the workflow run and its attempt. */
  readonly runId: string;
  readonly runNumber: number;
  readonly runUrl: string;
  readonly reportUrl: string;
  readonly reportedAt: string;
  readonly thread: number | undefined;
  readonly requester: string | undefined;
  readonly kind: RunKindName;
  readonly outcome: string | undefined;
  readonly pullRequest: number | undefined;
  readonly costUsd: number;
  readonly artifactId: number | undefined;
  readonly transcriptHead: string | undefined;
  /** Earlier runs on the same thread, as the state lists them (a sticky comment keeps only the last). */
  readonly previousRuns: CarriedState['previousRuns'];
  /** The state block as read: what the check against the agent's workflow (workflow-origin.ts) judges. */
  readonly state: CarriedState;
}

/**
 * The run a comment reports, when it is the action's report: the bot's own comment whose trailing
 * state block reads (extractState: the same trust rules a follow-up applies). Anything else, a
 * person's comment or a pasted marker, is not a report.
 */
export function reportRecordOf(comment: RepositoryComment, botLogin: string): ReportRecord | undefined {
  const extracted = extractState(comment, botLogin);
  if (extracted.kind !== 'found') return undefined;
  const { state } = extracted;
  const runNumber = Number(/^(\d+)(?:-\d+)?$/.exec(state.runId)?.[1] ?? NaN);
  if (!Number.isSafeInteger(runNumber)) return undefined;
  return {
    runId: state.runId,
    runNumber,
    runUrl: state.runUrl,
    reportUrl: comment.url,
    reportedAt: comment.updatedAt,
    thread: state.thread ?? comment.issueNumber,
    requester: requesterOf(comment.body),
    kind: kindOf(state, comment.body),
    outcome: statusOf(comment.body),
    pullRequest: state.pullRequest ?? undefined,
    costUsd: state.costUsd,
    artifactId: state.artifactId ?? undefined,
    transcriptHead: state.transcriptHead ?? undefined,
    previousRuns: state.previousRuns,
    state
  };
}

/** The run's kind: its mode, and a fix run whose report has the CI fix's section is a CI fix. */
function kindOf(state: CarriedState, body: string): RunKindName {
  const mode = state.mode ?? 'fix';
  return mode === 'fix' && CI_FIX_SECTION.test(body) ? 'ci-fix' : mode;
}

/** The heading ciFixSection writes, at the start of a line (quoted text in a report starts with `>`). */
const CI_FIX_SECTION = /^### CI fix \(attempt \d+ of \d+\)$/m;

/**
 * The requester as the report's request line names them (report-top.ts renderRequest):
 * `📝 @login asked: …`, `Asked by @login.`, or a login in backticks when it is no plain user's.
 */
function requesterOf(body: string): string | undefined {
  const match =
    /^(?:📝 (?:@([A-Za-z0-9-]{1,39})|`([^`\n]{1,60})`) asked:|Asked by (?:@([A-Za-z0-9-]{1,39})|`([^`\n]{1,60})`)\.)/mu.exec(
      body
    );
  return match ? (match[1] ?? match[2] ?? match[3] ?? match[4]) : undefined;
}

/** The report's status line without its links: `✅ Done · success · 1 min 2 s`. */
function statusOf(body: string): string | undefined {
  const first = body.split('\n').find((line) => line.trim() !== '');
  if (!first) return undefined;
  return (
    first
      .replace(/\s*·\s*\[workflow run\]\([^)]*\)/, '')
      .replace(/`/g, '')
      // The status emoji says what the words say; a terminal or CSV without the glyph shows a box.
      .replace(/^[^\p{L}\p{N}]+/u, '')
      .trim()
      .slice(0, 120)
  );
}
