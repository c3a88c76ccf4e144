import { runIdParts } from '../../followup/artifact-state.js';
import type { Origin, StateOrigin } from '../../followup/workflow-origin.js';
import { transcriptArtifactName } from '../../artifacts/transcript-artifact.js';
import type { WorkflowRunReads } from '../../github/api/workflow-runs.js';
import type { ListedArtifact } from '../../github/api/audit-reads.js';
import type { CheckedRecords, FoundRecords, IgnoredRecord } from './discover-runs.js';
import type { ReportRecord } from './report-record.js';

/**
 * The records found, each checked as a follow-up checks a carried state (workflow-origin.ts, issue
 * #33): with the default bot every workflow that comments with GITHUB_TOKEN comments as
 * github-actions[bot], and any workflow run can upload an artifact of any name. So a report counts
 * only when the run it names is a run of the agent's workflow that uploaded the artifact it names,
 * and an artifact only when the run that uploaded it is a run of that workflow. Anything else is
 * left out and listed with why; what could not be checked (a token without `actions: read`, past
 * the lookup bound) is kept, marked unchecked.
 */
export async function checkRecords(
  found: FoundRecords,
  origin: StateOrigin,
  reads: Pick<WorkflowRunReads, 'runArtifacts'>,
  progress: (line: string) => void
): Promise<CheckedRecords> {
  const ignored: IgnoredRecord[] = [...found.ignored];
  const unchecked = new Map<string, string>();
  const reports: ReportRecord[] = [];
  for (const report of found.reports) {
    const verdict = await judgeReport(report, origin, reads);
    if (verdict.kind === 'foreign') {
      ignored.push({
        source: report.reportUrl,
        reason: `a report of run ${report.runId}, but ${verdict.reason}`
      });
      continue;
    }
    if (verdict.kind === 'unchecked')
      unchecked.set(report.runId, `its report could not be checked: ${verdict.reason}`);
    reports.push(report);
  }
  const artifacts = new Map<string, ListedArtifact>();
  for (const [runId, artifact] of found.artifacts) {
    // findRecords keyed it by its uploader, so runId is set.
    const verdict = await origin.judgeRun(artifact.runId!);
    if (verdict.kind === 'foreign') {
      ignored.push({ source: `artifact ${artifact.id} (${artifact.name})`, reason: verdict.reason });
      continue;
    }
    if (verdict.kind === 'unchecked')
      unchecked.set(runId, `its artifact's run could not be checked: ${verdict.reason}`);
    artifacts.set(runId, artifact);
  }
  progress(
    `Checked ${found.reports.length} reports and ${found.artifacts.size} artifacts against the agent's workflow: ` +
      `${ignored.length} left out as not the agent's.`
  );
  return { reports, artifacts, ignored, unchecked };
}

/**
 * The follow-ups' check of a state (workflow-origin.ts), with one difference: a run of the agent's
 * workflow whose transcript artifact is gone (deleted by hand; an expired one is still listed) keeps
 * its report, so the ledger shows the run as missing rather than its report as forged. A report that
 * names an artifact its run did not upload, while the run has another transcript artifact, is forged.
 */
async function judgeReport(
  report: ReportRecord,
  origin: StateOrigin,
  reads: Pick<WorkflowRunReads, 'runArtifacts'>
): Promise<Origin> {
  const verdict = await origin.judge(report.state);
  if (verdict.kind !== 'foreign') return verdict;
  const run = await origin.judgeRun(report.runNumber);
  if (run.kind !== 'ours') return verdict;
  const name = transcriptArtifactName(...runIdParts(report.runId));
  const uploaded = await reads.runArtifacts(report.runNumber, name);
  return uploaded.some((artifact) => artifact.name === name)
    ? verdict
    : { kind: 'ours-without-artifact', reason: 'its transcript artifact is gone' };
}
