import { ownWorkflowOrigin } from '../../followup/workflow-origin.js';
import type { OctokitAuditReads } from '../../github/api/audit-reads.js';
import { agentWorkflow } from './agent-workflow.js';
import { auditRun } from './audit-run.js';
import { checkRecords } from './check-records.js';
import { discoverRuns, findRecords, type DiscoveryOptions } from './discover-runs.js';
import type { Ledger } from './ledger-records.js';
import type { LedgerRow } from './ledger-row.js';
import { ledgerTotals } from './ledger-totals.js';

export interface LedgerOptions extends DiscoveryOptions {
  readonly repository: string;
  /**
   * The agent's workflow files (`.github/workflows/agent.yml`, and those its config file's
   * `thread.workflows` names, such as fix-ci.yml); undefined: one, found from the records (agent-workflow.ts).
   */
  readonly workflows: readonly string[] | undefined;
  readonly now: () => Date;
}

/**
 * The ledger of a repository: every record found (discover-runs.ts), checked against the agent's
 * workflow (check-records.ts), each run audited in turn (one at a time: the downloads are the heavy
 * calls, and GitHub asks that they not run in parallel bursts), with a progress line per run.
 */
export async function buildLedger(reads: OctokitAuditReads, options: LedgerOptions): Promise<Ledger> {
  const repositoryId = await reads.repositoryId();
  const found = await findRecords(reads, { ...options, repositoryId });
  const workflow =
    options.workflows?.[0] ?? (await agentWorkflow(found, reads, options.repository, options.progress));
  const shared = options.workflows?.slice(1) ?? [];
  const origin = ownWorkflowOrigin(reads, {
    workflowRef: workflow,
    repositoryFullName: options.repository,
    sharedWorkflowFiles: shared
  });
  const checked = await checkRecords(found, origin, reads, options.progress);
  const { runs, found: inWindow } = discoverRuns(checked, options);
  if (options.limit !== undefined && inWindow > runs.length)
    options.progress(
      `Found ${inWindow} runs; auditing the newest ${runs.length} (--limit ${options.limit}).`
    );
  else options.progress(`Found ${inWindow} runs of the agent.`);
  const rows: LedgerRow[] = [];
  for (const [index, run] of runs.entries()) {
    const row = await auditRun(run, reads, repositoryId);
    rows.push(row);
    options.progress(`[${index + 1}/${runs.length}] run ${row.runId}: ${row.verdict}`);
  }
  return {
    repository: options.repository,
    generatedAt: options.now().toISOString(),
    since: options.since,
    until: options.until,
    workflow: workflow === undefined ? undefined : [workflow, ...shared].join(', '),
    found: inWindow,
    rows,
    ignored: checked.ignored,
    totals: ledgerTotals(rows)
  };
}
