import { terminalSafe } from '../terminal-text.js';
import type { Ledger } from './ledger-records.js';
import type { CostGroup } from './ledger-totals.js';

/** The ledger for a terminal: one line per run, the runs whose record does not hold with why, and the totals. */
export function renderLedgerTerminal(ledger: Ledger): string {
  // Requesters, outcomes and details come from comments and zips: no control character reaches the terminal.
  return terminalSafe(renderLines(ledger));
}

function renderLines(ledger: Ledger): string {
  const { totals } = ledger;
  const header = ['run', 'date', 'requester', 'kind', 'outcome', 'PR', 'turns', 'cost', 'record'];
  const table = ledger.rows.map((row) => [
    row.runId,
    row.time?.slice(0, 10) ?? '?',
    row.requester ?? '?',
    row.kind,
    (row.outcome ?? '?').slice(0, 28),
    row.pullRequest === undefined ? '' : `#${row.pullRequest}`,
    row.turns === undefined ? '' : String(row.turns),
    row.costUsd === undefined ? '' : `$${row.costUsd.toFixed(2)}`,
    row.verdict
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...table.map((cells) => cells[column]!.length))
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const problems = ledger.rows.filter((row) => row.verdict !== 'intact');
  const ignored = ledger.ignored.map((record) => `  ${record.source}: ${record.reason}`);
  return [
    `Agent runs of ${ledger.repository}: ${totals.runs}${
      ledger.found > totals.runs ? ` (the newest of ${ledger.found} found; --limit)` : ''
    }, $${totals.costUsd.toFixed(2)} in all`,
    '',
    line(header),
    ...table.map(line),
    ...(problems.length > 0
      ? [
          '',
          'Records that do not hold:',
          ...problems.map((row) => `  ${row.runId} ${row.verdict}: ${row.detail}`)
        ]
      : []),
    ...(ignored.length > 0
      ? [
          '',
          `Left out, not the agent's records (checked against ${ledger.workflow ?? 'no workflow'}):`,
          ...ignored
        ]
      : []),
    '',
    `Records: ${Object.entries(totals.verdicts)
      .map(([verdict, count]) => `${count} ${verdict}`)
      .join(', ')}`,
    groupLine('Cost per month', totals.byMonth),
    groupLine('Cost per requester', totals.byRequester),
    groupLine('Cost per kind', totals.byKind)
  ].join('\n');
}

function groupLine(title: string, groups: readonly CostGroup[]): string {
  return `${title}: ${groups.map((group) => `${group.key} $${group.costUsd.toFixed(2)} (${group.runs})`).join(', ') || 'none'}`;
}
