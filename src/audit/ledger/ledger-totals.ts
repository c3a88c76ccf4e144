import { VERDICTS, type LedgerRow, type Verdict } from './ledger-row.js';

export interface CostGroup {
  readonly key: string;
  readonly runs: number;
  readonly costUsd: number;
}

/** What the ledger adds up: cost per month, per requester and per kind, and runs per verdict. */
export interface LedgerTotals {
  readonly runs: number;
  readonly costUsd: number;
  readonly byMonth: readonly CostGroup[];
  readonly byRequester: readonly CostGroup[];
  readonly byKind: readonly CostGroup[];
  readonly verdicts: Readonly<Record<Verdict, number>>;
}

export function ledgerTotals(rows: readonly LedgerRow[]): LedgerTotals {
  const verdicts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<Verdict, number>;
  for (const row of rows) verdicts[row.verdict]++;
  return {
    runs: rows.length,
    costUsd: sum(rows),
    byMonth: groups(rows, (row) => row.time?.slice(0, 7) ?? 'unknown'),
    byRequester: groups(rows, (row) => row.requester ?? 'unknown'),
    byKind: groups(rows, (row) => row.kind),
    verdicts
  };
}

function groups(rows: readonly LedgerRow[], keyOf: (row: LedgerRow) => string): CostGroup[] {
  const byKey = new Map<string, LedgerRow[]>();
  for (const row of rows) byKey.set(keyOf(row), [...(byKey.get(keyOf(row)) ?? []), row]);
  return [...byKey.entries()]
    .map(([key, members]) => ({ key, runs: members.length, costUsd: sum(members) }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Summed in micro-dollars, so a hundred runs' cents add up without floating-point dust. */
function sum(rows: readonly LedgerRow[]): number {
  return rows.reduce((total, row) => total + Math.round((row.costUsd ?? 0) * 1e6), 0) / 1e6;
}
