import type { OctokitAuditReads } from '../../github/api/audit-reads.js';
import { auditRun } from './audit-run.js';
import { discoverRuns, type DiscoveryOptions } from './discover-runs.js';
import type { Ledger } from './ledger-records.js';
import type { LedgerRow } from './ledger-row.js';
import { ledgerTotals } from './ledger-totals.js';

export interface LedgerOptions extends DiscoveryOptions {
  readonly repository: string;
  readonly now: () => Date;
}

/**
 * The ledger of a repository: every run found (discover-runs.ts), each audited in turn (one at a
 * time: the downloads are the heavy calls, and GitHub asks that they not run in parallel bursts),
 * with a progress line per run.
 */
export async function buildLedger(reads: OctokitAuditReads, options: LedgerOptions): Promise<Ledger> {
  const repositoryId = await reads.repositoryId();
  const { runs, found } = await discoverRuns(reads, options);
  if (options.limit !== undefined && found > runs.length)
    options.progress(`Found ${found} runs; auditing the newest ${runs.length} (--limit ${options.limit}).`);
  else options.progress(`Found ${found} runs of the agent.`);
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
    found,
    rows,
    totals: ledgerTotals(rows)
  };
}
