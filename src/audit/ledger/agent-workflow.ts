import { numericRunId, workflowFileOf } from '../../followup/workflow-origin.js';
import type { OctokitAuditReads } from '../../github/api/audit-reads.js';
import type { FoundRecords } from './discover-runs.js';

/** `--workflow` was not given and the records name runs of several workflows (or of none). */
export class WorkflowChoiceError extends Error {}

/** How many reports' runs are looked up to find the agent's workflow: half the newest, half spread over the older. */
export const WORKFLOW_SAMPLE = 20;

/** `agent.yml` or `.github/workflows/agent.yml` → `.github/workflows/agent.yml`; undefined when it is neither. */
export function workflowPath(given: string): string | undefined {
  const file = given.includes('/') ? given.replace(/^\.\//, '') : `.github/workflows/${given}`;
  return /^\.github\/workflows\/[^/]+\.ya?ml$/.test(file) ? file : undefined;
}

/**
 * The agent's workflow file, when --workflow does not name it: the workflow of the runs the reports
 * name (the newest ten, and ten spread over the older ones, so a burst of recent forgeries does not
 * hide the agent's workflow from the sample) (else, with no report, of the runs that uploaded transcript artifacts). A forged report
 * names a run of another workflow, so when the runs looked up are of more than one workflow the user
 * must choose: the audit never guesses between them.
 */
export async function agentWorkflow(
  found: FoundRecords,
  reads: Pick<OctokitAuditReads, 'workflowRun'>,
  repositoryFullName: string,
  progress: (line: string) => void
): Promise<string | undefined> {
  const fromReports = [...found.reports]
    .sort((a, b) => b.reportedAt.localeCompare(a.reportedAt))
    .map((report) => numericRunId(report.runId));
  const fromArtifacts = [...found.artifacts.values()].map((artifact) => artifact.runId);
  const ids = [
    ...new Set((fromReports.length > 0 ? fromReports : fromArtifacts).filter((id) => id !== undefined))
  ];
  const files = new Map<string, number>();
  for (const id of sampleOf(ids)) {
    const run = await reads.workflowRun(id);
    const file = run && workflowFileOf(run.path, repositoryFullName);
    if (file !== undefined) files.set(file, (files.get(file) ?? 0) + 1);
  }
  if (ids.length === 0) return undefined;
  if (files.size === 0)
    throw new WorkflowChoiceError(
      `None of the runs the agent's records name is a run of this repository that the token can see. Give --workflow FILE, the workflow that runs compact-agent (e.g. --workflow .github/workflows/agent.yml).`
    );
  if (files.size > 1)
    throw new WorkflowChoiceError(
      `The agent's records name runs of ${files.size} workflows: ${[...files]
        .map(
          ([file, runs]) => `${file} (${runs} of the ${Math.min(ids.length, WORKFLOW_SAMPLE)} runs looked up)`
        )
        .join(
          ', '
        )}. Any workflow that comments as the same bot can post a report, so the audit does not guess: ` +
        'give --workflow FILE, the workflow that runs compact-agent (e.g. --workflow .github/workflows/agent.yml).'
    );
  const [file] = files.keys();
  progress(
    `Checking every record against ${file!}, the workflow of the runs the reports name (--workflow names another).`
  );
  return file;
}

/** All of `ids` (newest first) when few; else the newest half of the sample and the rest spread evenly over the older. */
function sampleOf(ids: readonly number[]): number[] {
  if (ids.length <= WORKFLOW_SAMPLE) return [...ids];
  const newest = WORKFLOW_SAMPLE / 2;
  const older = ids.slice(newest);
  const step = older.length / (WORKFLOW_SAMPLE - newest);
  return [
    ...ids.slice(0, newest),
    ...Array.from({ length: WORKFLOW_SAMPLE - newest }, (_, index) => older[Math.floor(index * step)]!)
  ];
}
