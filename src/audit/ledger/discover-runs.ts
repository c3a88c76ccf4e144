import type { ListedArtifact, OctokitAuditReads } from '../../github/api/audit-reads.js';
import { reportRecordOf, type ReportRecord } from './report-record.js';

/** A run found in the repository: by its report, by its transcript artifact, or by both. */
export interface RunCandidate {
  /** `123-1` (run and attempt), or `123` when only a later report's list of earlier runs names it. */
  readonly runId: string;
  readonly runNumber: number;
  readonly runUrl: string;
  readonly time: string | undefined;
  readonly report: ReportRecord | undefined;
  /**
   * Every other report comment that carries this run's state. A run writes one report; a second one
   * is a forgery (any workflow of the repository comments as the same bot), so the row says so.
   */
  readonly otherReports: readonly ReportRecord[];
  /** Its cost as a later run's report lists it, for a run whose own report was replaced (sticky comments). */
  readonly listedCostUsd: number | undefined;
  readonly artifact: ListedArtifact | undefined;
  /** Why its report or artifact could not be tied to the agent's workflow (the token, a lookup bound). */
  readonly unchecked: string | undefined;
}

export interface DiscoveryOptions {
  readonly botLogin: string;
  /** ISO 8601; runs before it are left out. */
  readonly since: string | undefined;
  readonly until: string | undefined;
  /** At most this many runs, the newest. */
  readonly limit: number | undefined;
  readonly runUrlOf: (runNumber: number) => string;
  readonly progress: (line: string) => void;
}

export interface Discovery {
  readonly runs: RunCandidate[];
  /** Runs found before --limit cut them. */
  readonly found: number;
}

/** A report or an artifact the ledger leaves out, and why: it is not the agent's record. */
export interface IgnoredRecord {
  /** The comment's URL, or `artifact <id> (<name>)`. */
  readonly source: string;
  readonly reason: string;
}

/** What the repository holds that looks like the agent's: report comments and transcript artifacts. */
export interface FoundRecords {
  readonly reports: readonly ReportRecord[];
  /** Transcript artifacts, each keyed by the run that uploaded it (`<workflow_run.id>-<attempt>`). */
  readonly artifacts: ReadonlyMap<string, ListedArtifact>;
  readonly ignored: readonly IgnoredRecord[];
}

/** The records found, with those that failed the check against the agent's workflow left out. */
export interface CheckedRecords extends FoundRecords {
  /** Run id → why it could not be checked. */
  readonly unchecked: ReadonlyMap<string, string>;
}

/** `agent-transcripts-<run>-<attempt>`: the name the action uploads its transcripts under (transcript-artifact.ts). */
export const TRANSCRIPT_ARTIFACT_NAME = /^agent-transcripts-(\d{1,20})-(\d{1,6})$/;

/**
 * Everything in the repository that looks like a record of the agent: the bot's report comments
 * (each carries its run's state) and the transcript artifacts. An artifact's name is whatever the
 * run that uploaded it chose, so it is keyed by that run (GitHub's `workflow_run.id`), and one
 * whose name names another run, or whose run is not this repository's (base and head), is left out
 * and said so: any workflow run, a fork's pull-request CI among them, can upload an artifact of any
 * name. Read a page at a time, with progress on the way.
 */
export async function findRecords(
  reads: OctokitAuditReads,
  options: Pick<DiscoveryOptions, 'botLogin' | 'since' | 'progress'> & { readonly repositoryId: number }
): Promise<FoundRecords> {
  const reports: ReportRecord[] = [];
  let comments = 0;
  for await (const page of reads.comments(options.since)) {
    comments += page.length;
    for (const comment of page) {
      const record = reportRecordOf(comment, options.botLogin);
      if (record) reports.push(record);
    }
    options.progress(`Read ${comments} comments: ${reports.length} reports of the agent so far.`);
  }
  const artifacts = new Map<string, ListedArtifact>();
  const ignored: IgnoredRecord[] = [];
  let listed = 0;
  for await (const page of reads.repositoryArtifacts()) {
    listed += page.length;
    for (const artifact of page) {
      const match = TRANSCRIPT_ARTIFACT_NAME.exec(artifact.name);
      if (!match) continue;
      const refusal = artifactRefusal(artifact, Number(match[1]), options.repositoryId);
      if (refusal !== undefined) {
        ignored.push({ source: `artifact ${artifact.id} (${artifact.name})`, reason: refusal });
        continue;
      }
      const key = `${artifact.runId}-${match[2]}`;
      const known = artifacts.get(key);
      // A name is unique per run; if GitHub lists it twice, the unexpired copy is the record.
      if (!known || (known.expired && !artifact.expired)) artifacts.set(key, artifact);
    }
    options.progress(`Read ${listed} artifacts: ${artifacts.size} transcript artifacts so far.`);
  }
  return { reports, artifacts, ignored };
}

/** Why an artifact named as a transcript is not the transcript of the run it names, or undefined. */
export function artifactRefusal(
  artifact: ListedArtifact,
  namedRun: number,
  repositoryId: number
): string | undefined {
  if (artifact.runId !== namedRun)
    return `its name says run ${namedRun}, but run ${artifact.runId ?? '(unknown)'} uploaded it`;
  if (artifact.repositoryId !== repositoryId || artifact.headRepositoryId !== repositoryId)
    return "it was uploaded by a run of another repository's code (a fork's pull request, or another repository)";
  return undefined;
}

/**
 * Every run of the agent in the repository, from the records that passed the check (check-records.ts):
 * the reports, the runs their states list as earlier runs of the thread, and the transcript
 * artifacts of runs no report names.
 */
export function discoverRuns(records: CheckedRecords, options: DiscoveryOptions): Discovery {
  const reports = new Map<string, ReportRecord[]>();
  for (const record of records.reports)
    reports.set(record.runId, [...(reports.get(record.runId) ?? []), record]);
  const runs = merge(reports, records.artifacts, options).map((run) => ({
    ...run,
    unchecked: records.unchecked.get(run.runId)
  }));
  const inRange = runs
    .filter((run) => inWindow(run.time, options))
    .sort((a, b) => (b.time ?? '').localeCompare(a.time ?? '') || b.runNumber - a.runNumber);
  return {
    runs: options.limit === undefined ? inRange : inRange.slice(0, options.limit),
    found: inRange.length
  };
}

function merge(
  reports: ReadonlyMap<string, readonly ReportRecord[]>,
  artifacts: ReadonlyMap<string, ListedArtifact>,
  options: DiscoveryOptions
): RunCandidate[] {
  const runs = new Map<string, RunCandidate>();
  for (const [runId, all] of reports) {
    // The newest names the row; the others are flagged (audit-run.ts), never silently replaced.
    const [report, ...otherReports] = [...all].sort((a, b) => b.reportedAt.localeCompare(a.reportedAt));
    runs.set(runId, {
      runId,
      runNumber: report!.runNumber,
      runUrl: report!.runUrl,
      time: report!.reportedAt,
      report,
      otherReports,
      listedCostUsd: undefined,
      artifact: artifacts.get(runId),
      unchecked: undefined
    });
  }
  for (const [runId, artifact] of artifacts) {
    if (runs.has(runId)) continue;
    const runNumber = Number(runId.split('-')[0]);
    runs.set(runId, {
      runId,
      runNumber,
      runUrl: options.runUrlOf(runNumber),
      time: artifact.createdAt,
      report: undefined,
      otherReports: [],
      listedCostUsd: undefined,
      artifact,
      unchecked: undefined
    });
  }
  // Earlier runs a thread's latest report lists: their own reports were replaced in a sticky comment.
  const byNumber = new Map([...runs.values()].map((run) => [run.runNumber, run.runId]));
  for (const report of [...reports.values()].flat()) {
    for (const previous of report.previousRuns) {
      const runNumber = Number(/\/actions\/runs\/(\d{1,20})\/?$/.exec(previous.runUrl)?.[1] ?? NaN);
      if (!Number.isSafeInteger(runNumber)) continue;
      const knownId = byNumber.get(runNumber);
      const known = knownId === undefined ? undefined : runs.get(knownId);
      if (known) {
        if (!known.report) runs.set(known.runId, { ...known, listedCostUsd: previous.costUsd });
        continue;
      }
      byNumber.set(runNumber, String(runNumber));
      runs.set(String(runNumber), {
        runId: String(runNumber),
        runNumber,
        runUrl: options.runUrlOf(runNumber),
        time: undefined,
        report: undefined,
        otherReports: [],
        listedCostUsd: previous.costUsd,
        artifact: undefined,
        unchecked: undefined
      });
    }
  }
  return [...runs.values()];
}

/** A run of unknown time is kept: leaving it out would hide it from the audit. */
function inWindow(time: string | undefined, options: Pick<DiscoveryOptions, 'since' | 'until'>): boolean {
  if (time === undefined) return true;
  if (options.since !== undefined && time < options.since) return false;
  return options.until === undefined || time <= options.until;
}
