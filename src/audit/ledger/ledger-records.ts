import type { IgnoredRecord } from './discover-runs.js';
import type { LedgerRow } from './ledger-row.js';
import type { LedgerTotals } from './ledger-totals.js';

/** A ledger's rows and totals, with what was audited: what JSON, CSV and HTML write out. */
export interface Ledger {
  readonly repository: string;
  readonly generatedAt: string;
  readonly since: string | undefined;
  readonly until: string | undefined;
  /** Runs found in the window before --limit; rows holds at most the limit's newest. */
  readonly found: number;
  /** The agent's workflow file the records were checked against (undefined: there were none). */
  readonly workflow: string | undefined;
  readonly rows: readonly LedgerRow[];
  /** Reports and artifacts left out: not the agent's (another workflow's, a misnamed upload). */
  readonly ignored: readonly IgnoredRecord[];
  readonly totals: LedgerTotals;
}

/** The columns of a row in JSON and CSV, snake_case, one name each. */
export function rowRecord(row: LedgerRow) {
  return {
    run_id: row.runId,
    run_url: row.runUrl,
    time: row.time ?? null,
    thread: row.thread ?? null,
    thread_url: row.threadUrl ?? null,
    report_url: row.reportUrl ?? null,
    requester: row.requester ?? null,
    kind: row.kind,
    outcome: row.outcome ?? null,
    pull_request: row.pullRequest ?? null,
    turns: row.turns ?? null,
    input_tokens: row.usage?.input ?? null,
    cache_write_tokens: row.usage?.cache_write ?? null,
    cache_read_tokens: row.usage?.cache_read ?? null,
    output_tokens: row.usage?.output ?? null,
    cost_usd: row.costUsd ?? null,
    tools: row.tools.map((tool) => `${tool.name}×${tool.calls}`),
    denied_commands: row.deniedCommands,
    refused_hosts: row.refusedHosts,
    files_changed: row.filesChanged,
    verdict: row.verdict,
    detail: row.detail,
    published_head: row.publishedHead ?? null
  };
}

export type RowRecord = ReturnType<typeof rowRecord>;

export function ledgerJson(ledger: Ledger): string {
  return JSON.stringify(
    {
      repository: ledger.repository,
      generated_at: ledger.generatedAt,
      since: ledger.since ?? null,
      until: ledger.until ?? null,
      found: ledger.found,
      workflow: ledger.workflow ?? null,
      rows: ledger.rows.map(rowRecord),
      ignored: ledger.ignored,
      totals: {
        runs: ledger.totals.runs,
        cost_usd: ledger.totals.costUsd,
        verdicts: ledger.totals.verdicts,
        by_month: ledger.totals.byMonth,
        by_requester: ledger.totals.byRequester,
        by_kind: ledger.totals.byKind
      }
    },
    null,
    2
  );
}

/**
 * The rows as CSV (RFC 4180: quoted fields, doubled quotes, CRLF), lists joined by "; ". A cell a
 * spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe: a file
 * name the agent chose must not become a formula in the auditor's spreadsheet (OWASP, "CSV Injection").
 */
export function ledgerCsv(ledger: Ledger): string {
  const records = ledger.rows.map(rowRecord);
  const columns = Object.keys(rowRecord(EMPTY_ROW)) as (keyof RowRecord)[];
  const lines = [columns.join(',')];
  for (const record of records) {
    lines.push(columns.map((column) => csvCell(record[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvCell(value: RowRecord[keyof RowRecord]): string {
  if (value === null) return '';
  const text = Array.isArray(value) ? value.join('; ') : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value !== 'number' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const EMPTY_ROW: LedgerRow = {
  runId: '',
  runUrl: '',
  time: undefined,
  thread: undefined,
  threadUrl: undefined,
  reportUrl: undefined,
  requester: undefined,
  kind: 'unknown',
  outcome: undefined,
  pullRequest: undefined,
  turns: undefined,
  usage: undefined,
  costUsd: undefined,
  tools: [],
  deniedCommands: [],
  refusedHosts: [],
  filesChanged: [],
  verdict: 'missing',
  detail: '',
  publishedHead: undefined
};
