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
  /** Its cost as a later run's report lists it, for a run whose own report was replaced (sticky comments). */
  readonly listedCostUsd: number | undefined;
  readonly artifact: ListedArtifact | undefined;
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

/** `agent-transcripts-<run>-<attempt>`: the name the action uploads its transcripts under (transcript-artifact.ts). */
const ARTIFACT_NAME = /^agent-transcripts-(\d{1,20})-(\d{1,6})$/;

/**
 * Every run of the agent in the repository: the bot's report comments (each carries its run's state),
 * the runs their states list as earlier runs of the thread, and the transcript artifacts of runs no
 * report names. Read a page at a time, with progress on the way.
 */
export async function discoverRuns(reads: OctokitAuditReads, options: DiscoveryOptions): Promise<Discovery> {
  const reports = new Map<string, ReportRecord>();
  let comments = 0;
  for await (const page of reads.comments(options.since)) {
    comments += page.length;
    for (const comment of page) {
      const record = reportRecordOf(comment, options.botLogin);
      const known = record && reports.get(record.runId);
      if (record && (!known || known.reportedAt < record.reportedAt)) reports.set(record.runId, record);
    }
    options.progress(`Read ${comments} comments: ${reports.size} reports of the agent so far.`);
  }
  const artifacts = new Map<string, ListedArtifact>();
  let listed = 0;
  for await (const page of reads.repositoryArtifacts()) {
    listed += page.length;
    for (const artifact of page) {
      const match = ARTIFACT_NAME.exec(artifact.name);
      if (!match) continue;
      const key = `${match[1]}-${match[2]}`;
      const known = artifacts.get(key);
      // A name is unique per run; if GitHub lists it twice, the unexpired copy is the record.
      if (!known || (known.expired && !artifact.expired)) artifacts.set(key, artifact);
    }
    options.progress(`Read ${listed} artifacts: ${artifacts.size} transcript artifacts so far.`);
  }
  const runs = merge(reports, artifacts, options);
  const inRange = runs
    .filter((run) => inWindow(run.time, options))
    .sort((a, b) => (b.time ?? '').localeCompare(a.time ?? '') || b.runNumber - a.runNumber);
  return {
    runs: options.limit === undefined ? inRange : inRange.slice(0, options.limit),
    found: inRange.length
  };
}

function merge(
  reports: ReadonlyMap<string, ReportRecord>,
  artifacts: ReadonlyMap<string, ListedArtifact>,
  options: DiscoveryOptions
): RunCandidate[] {
  const runs = new Map<string, RunCandidate>();
  for (const [runId, report] of reports) {
    runs.set(runId, {
      runId,
      runNumber: report.runNumber,
      runUrl: report.runUrl,
      time: report.reportedAt,
      report,
      listedCostUsd: undefined,
      artifact: artifacts.get(runId)
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
      listedCostUsd: undefined,
      artifact
    });
  }
  // Earlier runs a thread's latest report lists: their own reports were replaced in a sticky comment.
  const byNumber = new Map([...runs.values()].map((run) => [run.runNumber, run.runId]));
  for (const report of reports.values()) {
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
        listedCostUsd: previous.costUsd,
        artifact: undefined
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
