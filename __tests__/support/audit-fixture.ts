import type { CompactionEvent, CompactionLayer } from '../../src/compaction/compactor.js';
import type { AuditToolCall, AuditTurn, RunAudit } from '../../src/audit/run-audit.js';
import type { UsageRecord } from '../../src/transcript/events.js';
import { mulberry32 } from '../../test-support/seeded-random.js';

/**
 * A realistic audit of a 40-turn run: the agent finds and fixes a quadratic matcher in a ledger
 * reconciliation job, writes a regression test, fights a timeout, a lint error and a type error, and
 * goes through every compaction layer on the way (4 micro clears, 2 spills, 2 auto and 2 manual
 * summaries, 2 fallbacks). Tool outputs are the tools' own formats (numbered reads, `exit code:` with
 * stdout and stderr, grep's `path:line:`), some of them long, some of them errors.
 */
export function auditFixture(): RunAudit {
  return buildAudit(1);
}

/**
 * The same story repeated until `turns` turns: turn numbers, tool ids, times and compactions carry on
 * from block to block. For size and structure checks on long runs.
 */
export function largeAuditFixture(turns: number): RunAudit {
  return buildAudit(Math.ceil(turns / SCRIPT.length), turns);
}

// ---------------------------------------------------------------------------------------------------
// The run

const RUN_ID = '9184467302-1';
const MODEL = 'claude-sonnet-5-5';
const CONTEXT_WINDOW = 200_000;
const THRESHOLD = 160_000;
const STARTED = Date.UTC(2025, 4, 3, 2, 14, 7, 412);
const PRICES = { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 };
const SYSTEM_PREFIX_TOKENS = 6_140;

const TASK = [
  'The nightly `reconcile` job times out on large accounts (issue #412): acct_7731 has ~42k ledger',
  'entries and the job is killed after an hour. Find out why, fix it, and add a regression test that',
  'reconciles 40,000 entries in a few seconds.',
  '',
  'Constraints:',
  '- Keep the public API of src/reconcile/ (findMatches, reconcileAccount, buildReport) unchanged.',
  '- Matching rules must not change: same currency, same amount to the cent, value date within the',
  '  tolerance, earliest booked entry first.',
  '- Run the linter, the type checker and the whole test suite before you finish.'
].join('\n');

const MATCHER_OLD = [
  "import type { BankLine, LedgerEntry, Match } from './types.js';",
  "import { amountsEqual, daysBetween, sameDay } from './money.js';",
  '',
  'export interface MatchOptions {',
  '  /** Days a bank line may lag the ledger entry it settles. */',
  '  readonly toleranceDays: number;',
  '}',
  '',
  '/**',
  ' * Pairs each bank line with the ledger entry it settles: same currency, same amount, value date',
  ' * within `toleranceDays` of the booking. The earliest booked entry wins; unmatched lines go to the',
  ' * exceptions report.',
  ' */',
  'export function findMatches(',
  '  ledger: readonly LedgerEntry[],',
  '  bank: readonly BankLine[],',
  '  options: MatchOptions',
  '): Match[] {',
  '  const matches: Match[] = [];',
  '  const used = new Set<string>();',
  '  for (const line of bank) {',
  '    let best: LedgerEntry | undefined;',
  '    for (const entry of ledger) {',
  '      if (used.has(entry.id)) continue;',
  '      if (entry.currency !== line.currency) continue;',
  '      if (!amountsEqual(entry.amount, line.amount)) continue;',
  '      if (daysBetween(entry.bookedAt, line.valueDate) > options.toleranceDays) continue;',
  '      if (!best || entry.bookedAt < best.bookedAt) best = entry;',
  '    }',
  '    if (best) {',
  '      used.add(best.id);',
  '      matches.push({ entryId: best.id, lineId: line.id, lagDays: daysBetween(best.bookedAt, line.valueDate) });',
  '    }',
  '  }',
  '  return matches;',
  '}',
  '',
  '/** Lines of the same day with the same amount are the usual duplicates a bank sends twice. */',
  'export function findDuplicateLines(bank: readonly BankLine[]): BankLine[][] {',
  '  const groups = new Map<string, BankLine[]>();',
  '  for (const line of bank) {',
  '    const key = `${line.currency}:${line.amount.cents}:${line.valueDate.slice(0, 10)}`;',
  '    const group = groups.get(key) ?? [];',
  '    group.push(line);',
  '    groups.set(key, group);',
  '  }',
  '  return [...groups.values()].filter((group) => group.length > 1 && group.every((l, i) =>',
  '    i === 0 || sameDay(l.valueDate, group[0]!.valueDate)));',
  '}',
  '',
  '/** The ledger entries no bank line settled, oldest first. */',
  'export function unmatchedEntries(ledger: readonly LedgerEntry[], matches: readonly Match[]): LedgerEntry[] {',
  '  const matched = new Set(matches.map((match) => match.entryId));',
  '  return ledger.filter((entry) => !matched.has(entry.id)).sort((a, b) => a.bookedAt.localeCompare(b.bookedAt));',
  '}'
];

const RECONCILE_INDEX = [
  "import { findDuplicateLines, findMatches, unmatchedEntries } from './matcher.js';",
  "import { buildReport, type ReconcileReport } from './report.js';",
  "import type { AccountSource } from './source.js';",
  "import { logger } from '../log.js';",
  '',
  'export { findMatches } from "./matcher.js";',
  'export { buildReport } from "./report.js";',
  '',
  'export interface ReconcileOptions {',
  '  readonly toleranceDays: number;',
  '  /** Stop after this many milliseconds and report what is done. */',
  '  readonly budgetMs?: number;',
  '}',
  '',
  '/** Reconciles one account: loads both sides, matches, and builds the report the job uploads. */',
  'export async function reconcileAccount(',
  '  source: AccountSource,',
  '  accountId: string,',
  '  options: ReconcileOptions',
  '): Promise<ReconcileReport> {',
  '  const started = Date.now();',
  '  const [ledger, bank] = await Promise.all([source.ledger(accountId), source.bankLines(accountId)]);',
  "  logger.info('reconcile: loaded', { accountId, ledger: ledger.length, bank: bank.length });",
  '  const matches = findMatches(ledger, bank, { toleranceDays: options.toleranceDays });',
  "  logger.info('reconcile: matched', { accountId, matches: matches.length, ms: Date.now() - started });",
  '  const duplicates = findDuplicateLines(bank);',
  '  const open = unmatchedEntries(ledger, matches);',
  '  return buildReport({ accountId, ledger, bank, matches, duplicates, open, elapsedMs: Date.now() - started });',
  '}'
];

function numbered(lines: readonly string[], first = 1, total?: number): string {
  const out = lines.map((line, index) => `${String(first + index).padStart(6)}\t${line}`);
  const last = first + lines.length - 1;
  if (total !== undefined && (first > 1 || last < total)) {
    out.push(`[lines ${first}-${last} of ${total}; use offset and limit to read more]`);
  }
  return out.join('\n');
}

function shell(exitCode: number, stdout: string, stderr = ''): string {
  return [`exit code: ${exitCode}`, '--- stdout ---', stdout, '--- stderr ---', stderr].join('\n');
}

function spillPreview(text: string, path: string): string {
  const half = 1_000;
  const lines = text.split('\n').length;
  return [
    text.slice(0, half),
    `\n[... ${text.length - 2 * half} characters omitted. The full output (${text.length} characters, ${lines} lines) is in ${path}:`,
    'read parts of it with read_file and offset/limit, or search it with grep and that path ...]\n',
    text.slice(text.length - half)
  ].join('\n');
}

/** The nightly log of the killed job: progress lines every 10 s for an hour, then the kill. */
function nightlyLog(): string {
  const lines: string[] = [];
  const start = Date.UTC(2025, 4, 2, 1, 0, 3);
  lines.push(
    `${iso(start)} INFO  reconcile: job started {"accounts":214,"toleranceDays":3,"worker":"recon-2"}`,
    `${iso(start + 2_100)} INFO  reconcile: loaded {"accountId":"acct_7731","ledger":41882,"bank":39950}`
  );
  for (let second = 10; second <= 3_600; second += 10) {
    const done = Math.min(39_950, Math.round(11 * second + (second * second) / 900));
    lines.push(
      `${iso(start + second * 1_000)} DEBUG reconcile: progress {"accountId":"acct_7731","bankLinesDone":${done},` +
        `"bankLines":39950,"heapUsedMb":${412 + (second % 170)},"eventLoopLagMs":${(second * 7) % 90}}`
    );
  }
  lines.push(
    `${iso(start + 3_600_000)} WARN  reconcile: budget exceeded {"accountId":"acct_7731","budgetMs":3600000}`,
    `${iso(start + 3_600_400)} ERROR job: killed by supervisor after 3600 s {"signal":"SIGTERM","exitCode":143}`,
    `${iso(start + 3_600_410)} INFO  reconcile: 0 of 214 accounts reported; 213 accounts never started`
  );
  return lines.join('\n');
}

/** `npm test` over the whole suite: 318 tests, verbose, all passing. */
function fullTestRun(): string {
  const suites = [
    [
      'test/money.test.ts',
      ['adds cents without float drift', 'rounds half to even', 'parses "1.234,56" in de-DE']
    ],
    [
      'test/reconcile/matcher.test.ts',
      ['matches same amount and currency', 'prefers the earliest booking', 'respects the tolerance']
    ],
    ['test/reconcile/large-account.test.ts', ['reconciles 40,000 entries within the budget']],
    ['test/reconcile/report.test.ts', ['lists open entries oldest first', 'flags duplicate bank lines']],
    ['test/source/csv.test.ts', ['reads the bank export', 'rejects a file with a missing header']],
    ['test/api/accounts.test.ts', ['GET /accounts/:id/report returns 404 for an unknown account']]
  ] as const;
  const lines: string[] = ['', '> ledger-service@3.14.0 test', '> jest --verbose', ''];
  let count = 0;
  for (let round = 0; round < 53; round++) {
    const [file, names] = suites[round % suites.length]!;
    lines.push(
      ` PASS  ${file.replace('.test.ts', round < suites.length ? '.test.ts' : `-${round}.test.ts`)}`
    );
    for (const name of names) {
      count++;
      lines.push(
        `    ✓ ${name}${round >= suites.length ? ` (case ${round})` : ''} (${3 + ((round * 7 + name.length) % 40)} ms)`
      );
    }
    lines.push('');
  }
  lines.push(
    'Test Suites: 53 passed, 53 total',
    `Tests:       ${count} passed, ${count} total`,
    'Snapshots:   0 total',
    'Time:        21.384 s',
    'Ran all test suites.'
  );
  // Verbose jest prints each suite's console output too; this project logs every reconcile.
  const noisy: string[] = [];
  for (let i = 0; i < 420; i++) {
    noisy.push(
      `    console.info`,
      `      reconcile: matched {"accountId":"acct_test_${i}","matches":${(i * 37) % 500},"ms":${i % 13}}`,
      `      at Object.info (src/log.ts:22:13)`
    );
  }
  return [...lines.slice(0, 4), ...noisy, ...lines.slice(4)].join('\n');
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

// ---------------------------------------------------------------------------------------------------
// The 40 turns

interface CallSpec {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly output: string;
  readonly error?: boolean;
  readonly ms: number;
}

interface TurnSpec {
  readonly text: string;
  readonly calls: readonly CallSpec[];
  /** Prompt tokens of this turn's response. */
  readonly context: number;
  readonly responseMs: number;
  readonly stop?: string;
}

/** A compaction after a turn of the script; ids name calls as `turn:index`, resolved when built. */
interface CompactionSpec {
  readonly turn: number;
  readonly layer: CompactionLayer;
  readonly reason: string;
  readonly before: number;
  readonly after: number;
  readonly clears?: readonly string[];
  readonly summary?: string;
  readonly focus?: string;
  readonly ms: number;
}

const SPILL_LOG_PATH = (id: string) => `.transcripts/${RUN_ID}/tool-results/${id}.txt`;
const LOG = nightlyLog();
const FULL_TESTS = fullTestRun();

const MATCHER_TEST_FAILURE = shell(
  1,
  [
    '',
    '> ledger-service@3.14.0 test',
    '> jest test/reconcile',
    '',
    ' FAIL  test/reconcile/matcher.test.ts',
    '  findMatches',
    '    ✓ matches same amount and currency (4 ms)',
    '    ✕ prefers the earliest booking (6 ms)',
    '    ✓ respects the tolerance (2 ms)',
    '    ✓ leaves a line unmatched when the currency differs (1 ms)',
    '    ✕ does not reuse an entry for two lines (3 ms)',
    '',
    '  ● findMatches › prefers the earliest booking',
    '',
    '    expect(received).toEqual(expected) // deep equality',
    '',
    '    - Expected  - 1',
    '    + Received  + 1',
    '',
    '      Array [',
    '        Object {',
    '    -     "entryId": "L-1002",',
    '    +     "entryId": "L-1003",',
    '          "lagDays": 1,',
    '          "lineId": "B-77",',
    '        },',
    '      ]',
    '',
    '      41 |     const bank = [line("B-77", "120.00", "2025-03-04")];',
    '      42 |     const matches = findMatches(ledger, bank, { toleranceDays: 3 });',
    '    > 43 |     expect(matches).toEqual([{ entryId: "L-1002", lineId: "B-77", lagDays: 1 }]);',
    '         |                     ^',
    '      44 |   });',
    '',
    '      at Object.<anonymous> (test/reconcile/matcher.test.ts:43:21)',
    '',
    '  ● findMatches › does not reuse an entry for two lines',
    '',
    '    expect(received).toHaveLength(expected)',
    '',
    '    Expected length: 2',
    '    Received length: 1',
    '    Received array:  [{"entryId": "L-2001", "lagDays": 0, "lineId": "B-90"}]',
    '',
    '      58 |     const matches = findMatches(ledger, bank, { toleranceDays: 3 });',
    '    > 59 |     expect(matches).toHaveLength(2);',
    '         |                     ^',
    '',
    '      at Object.<anonymous> (test/reconcile/matcher.test.ts:59:21)',
    '',
    ' PASS  test/reconcile/report.test.ts',
    '',
    'Test Suites: 1 failed, 1 passed, 2 total',
    'Tests:       2 failed, 9 passed, 11 total',
    'Snapshots:   0 total',
    'Time:        3.118 s',
    'Ran all test suites matching /test\\/reconcile/i.'
  ].join('\n')
);

const SCRIPT: readonly TurnSpec[] = [
  {
    // 1
    text: "I'll start with the reconcile module: its files, then the matcher the job spends its time in.",
    calls: [
      {
        name: 'glob',
        input: { pattern: 'src/reconcile/**/*.ts' },
        output: [
          'src/reconcile/index.ts',
          'src/reconcile/matcher.ts',
          'src/reconcile/money.ts',
          'src/reconcile/report.ts',
          'src/reconcile/source.ts',
          'src/reconcile/types.ts'
        ].join('\n'),
        ms: 38
      }
    ],
    context: 9_812,
    responseMs: 6_200
  },
  {
    // 2
    text: '',
    calls: [
      {
        name: 'read_file',
        input: { path: 'src/reconcile/index.ts' },
        output: numbered(RECONCILE_INDEX),
        ms: 4
      },
      {
        name: 'read_file',
        input: { path: 'src/reconcile/matcher.ts' },
        output: numbered(MATCHER_OLD),
        ms: 3
      }
    ],
    context: 18_455,
    responseMs: 4_900
  },
  {
    // 3
    text:
      'findMatches scans the whole ledger for every bank line: 39,950 × 41,882 ≈ 1.7 billion comparisons ' +
      'for acct_7731, each with a Set lookup and a date parse. That alone explains an hour. Let me check ' +
      'who else calls it and how the dates are compared before changing anything.',
    calls: [
      {
        name: 'grep',
        input: { pattern: 'findMatches\\(|daysBetween\\(', glob: '**/*.ts' },
        output: [
          'src/reconcile/index.ts:24: const matches = findMatches(ledger, bank, { toleranceDays: options.toleranceDays });',
          'src/reconcile/matcher.ts:14: export function findMatches(',
          'src/reconcile/matcher.ts:27: if (daysBetween(entry.bookedAt, line.valueDate) > options.toleranceDays) continue;',
          'src/reconcile/matcher.ts:32: matches.push({ entryId: best.id, lineId: line.id, lagDays: daysBetween(best.bookedAt, line.valueDate) });',
          'src/reconcile/money.ts:41: export function daysBetween(a: string, b: string): number {',
          'src/reconcile/report.ts:63: const lag = daysBetween(entry.bookedAt, asOf);',
          'src/api/accounts.ts:88: const preview = findMatches(ledger.slice(0, 500), bank.slice(0, 500), { toleranceDays });',
          'test/reconcile/matcher.test.ts:12: const matches = findMatches(ledger, bank, { toleranceDays: 3 });',
          'test/reconcile/matcher.test.ts:42: const matches = findMatches(ledger, bank, { toleranceDays: 3 });',
          'test/reconcile/matcher.test.ts:58: const matches = findMatches(ledger, bank, { toleranceDays: 3 });',
          'test/reconcile/report.test.ts:19: const matches = findMatches(ledger, bank, { toleranceDays: 5 });'
        ].join('\n'),
        ms: 212
      },
      {
        name: 'read_file',
        input: { path: 'src/reconcile/money.ts', offset: 30, limit: 30 },
        output: numbered(
          [
            '/** Amounts are integer cents with a currency; never floats. */',
            'export function amountsEqual(a: Amount, b: Amount): boolean {',
            '  return a.cents === b.cents;',
            '}',
            '',
            'const DAY_MS = 86_400_000;',
            '',
            '/** Whole calendar days from a to b (ISO dates), negative when b is earlier. */',
            '',
            '',
            '',
            'export function daysBetween(a: string, b: string): number {',
            '  return Math.round((Date.parse(b.slice(0, 10)) - Date.parse(a.slice(0, 10))) / DAY_MS);',
            '}',
            '',
            'export function sameDay(a: string, b: string): boolean {',
            '  return a.slice(0, 10) === b.slice(0, 10);',
            '}'
          ],
          30,
          47
        ),
        ms: 3
      }
    ],
    context: 29_730,
    responseMs: 11_400
  },
  {
    // 4
    text: 'Before changing the algorithm I want the baseline: the reconcile tests as they are.',
    calls: [
      {
        name: 'bash',
        input: { command: 'npm test -- test/reconcile 2>&1 | tail -40' },
        output: shell(
          0,
          [
            ' PASS  test/reconcile/matcher.test.ts',
            '  findMatches',
            '    ✓ matches same amount and currency (3 ms)',
            '    ✓ prefers the earliest booking (1 ms)',
            '    ✓ respects the tolerance (1 ms)',
            '    ✓ leaves a line unmatched when the currency differs',
            '    ✓ does not reuse an entry for two lines (1 ms)',
            ' PASS  test/reconcile/report.test.ts',
            '',
            'Test Suites: 2 passed, 2 total',
            'Tests:       11 passed, 11 total',
            'Time:        2.871 s'
          ].join('\n')
        ),
        ms: 5_930
      }
    ],
    context: 36_104,
    responseMs: 5_100
  },
  {
    // 5
    text: "Tests pass. Now the nightly log, to confirm where the job's hour goes.",
    calls: [
      {
        name: 'bash',
        input: { command: 'ls -la logs/ && wc -l logs/nightly-2025-05-02.log' },
        output: shell(
          0,
          [
            'total 2316',
            'drwxr-xr-x  2 runner runner    4096 May  3 02:11 .',
            'drwxr-xr-x 14 runner runner    4096 May  3 02:11 ..',
            '-rw-r--r--  1 runner runner  771203 May  3 02:11 nightly-2025-04-30.log',
            '-rw-r--r--  1 runner runner  780455 May  3 02:11 nightly-2025-05-01.log',
            '-rw-r--r--  1 runner runner  812094 May  3 02:11 nightly-2025-05-02.log',
            '7405 logs/nightly-2025-05-02.log'
          ].join('\n')
        ),
        ms: 41
      }
    ],
    context: 44_389,
    responseMs: 4_400
  },
  {
    // 6
    text: '',
    calls: [
      {
        name: 'bash',
        input: { command: "grep -n 'acct_7731\\|killed\\|budget' logs/nightly-2025-05-02.log" },
        output: spillPreview(shell(0, LOG), SPILL_LOG_PATH('toolu_01%6:0')),
        ms: 96
      }
    ],
    context: 40_876,
    responseMs: 3_800
  },
  {
    // 7
    text:
      'The output was saved to a file. The progress lines are what matter: bankLinesDone grows more slowly ' +
      'as the run goes on. Let me read the middle of it.',
    calls: [
      {
        name: 'read_file',
        input: { path: SPILL_LOG_PATH('toolu_01%6:0'), offset: 55, limit: 12 },
        output: numbered(LOG.split('\n').slice(54, 66), 55, LOG.split('\n').length + 4),
        ms: 5
      }
    ],
    context: 49_312,
    responseMs: 7_700
  },
  {
    // 8
    text:
      'After 30 minutes only ~40% of the lines are done, and each line costs more as `used` fills up and ' +
      'every skipped entry is still visited. Is there a benchmark script to measure this locally?',
    calls: [
      {
        name: 'glob',
        input: { pattern: 'scripts/*' },
        output: 'scripts/bench-reconcile.ts\nscripts/seed-dev-db.ts\nscripts/export-fixtures.ts',
        ms: 21
      },
      {
        name: 'read_file',
        input: { path: 'scripts/bench-reconcile.ts' },
        output: numbered([
          "import { findMatches } from '../src/reconcile/matcher.js';",
          "import { syntheticAccount } from '../test/support/synthetic.js';",
          '',
          "const entries = Number(process.argv[process.argv.indexOf('--entries') + 1] ?? 5000);",
          'const { ledger, bank } = syntheticAccount(entries, { seed: 7, duplicates: 0.01 });',
          'const started = performance.now();',
          'const matches = findMatches(ledger, bank, { toleranceDays: 3 });',
          'const ms = performance.now() - started;',
          'console.log(`matched ${matches.length} of ${bank.length} lines in ${(ms / 1000).toFixed(1)} s`);'
        ]),
        ms: 3
      }
    ],
    context: 61_807,
    responseMs: 6_900
  },
  {
    // 9
    text: '',
    calls: [
      {
        name: 'bash',
        input: { command: 'npx tsx scripts/bench-reconcile.ts --entries 5000', timeout_ms: 300000 },
        output: shell(0, 'matched 4941 of 4950 lines in 0.9 s'),
        ms: 2_310
      },
      {
        name: 'bash',
        input: { command: 'npx tsx scripts/bench-reconcile.ts --entries 20000', timeout_ms: 300000 },
        output: shell(0, 'matched 19762 of 19800 lines in 14.6 s'),
        ms: 16_020
      }
    ],
    context: 78_450,
    responseMs: 5_600
  },
  {
    // 10
    text:
      '4× the entries, 16× the time: quadratic, as expected. 42k entries would be ~65 s here and far more ' +
      'on the shared worker. The fix: index the ledger by currency and amount once, each bucket sorted by ' +
      'booking date, then for each bank line walk only its bucket. That keeps every matching rule.',
    calls: [
      {
        name: 'read_file',
        input: { path: 'src/reconcile/types.ts' },
        output: numbered([
          "export interface Amount { readonly cents: number; readonly currency: 'EUR' | 'USD' | 'GBP' | 'CHF'; }",
          '',
          'export interface LedgerEntry {',
          '  readonly id: string;',
          '  readonly currency: Amount["currency"];',
          '  readonly amount: Amount;',
          '  /** ISO date-time of the booking. */',
          '  readonly bookedAt: string;',
          '  readonly memo: string;',
          '}',
          '',
          'export interface BankLine {',
          '  readonly id: string;',
          '  readonly currency: Amount["currency"];',
          '  readonly amount: Amount;',
          '  readonly valueDate: string;',
          '  readonly reference: string;',
          '}',
          '',
          'export interface Match { readonly entryId: string; readonly lineId: string; readonly lagDays: number; }'
        ]),
        ms: 2
      }
    ],
    context: 95_233,
    responseMs: 19_800
  },
  {
    // 11
    text: 'Writing the indexed matcher.',
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'src/reconcile/matcher.ts',
          old_string: MATCHER_OLD.slice(19, 35).join('\n'),
          new_string: [
            '  const buckets = indexLedger(ledger);',
            '  const matches: Match[] = [];',
            '  for (const line of bank) {',
            '    const bucket = buckets.get(bucketKey(line.currency, line.amount.cents));',
            '    if (!bucket) continue;',
            '    for (let i = bucket.length - 1; i >= 0; i--) {',
            '      const entry = bucket[i]!;',
            '      if (daysBetween(entry.bookedAt, line.valueDate) > options.toleranceDays) continue;',
            '      bucket.splice(i, 1);',
            '      matches.push({ entryId: entry.id, lineId: line.id, lagDays: daysBetween(entry.bookedAt, line.valueDate) });',
            '      break;',
            '    }',
            '  }',
            '  return matches;',
            '}',
            '',
            'function bucketKey(currency: string, cents: number): string {',
            '  return `${currency}:${cents}`;',
            '}',
            '',
            '/** Ledger entries by currency and amount, each bucket sorted by booking date. */',
            'export function indexLedger(ledger: readonly LedgerEntry[]): Map<string, LedgerEntry[]> {',
            '  const buckets = new Map<string, LedgerEntry[]>();',
            '  for (const entry of ledger) {',
            '    const key = bucketKey(entry.currency, entry.amount.cents);',
            '    const bucket = buckets.get(key) ?? [];',
            '    bucket.push(entry);',
            '    buckets.set(key, bucket);',
            '  }',
            '  for (const bucket of buckets.values()) bucket.sort((a, b) => a.bookedAt.localeCompare(b.bookedAt));',
            '  return buckets;',
            '}'
          ].join('\n')
        },
        output: 'Edited src/reconcile/matcher.ts at line 20.',
        ms: 6
      }
    ],
    context: 88_960,
    responseMs: 24_300
  },
  {
    // 12
    text: '',
    calls: [
      {
        name: 'bash',
        input: { command: 'npm test -- test/reconcile 2>&1 | tail -60' },
        output: MATCHER_TEST_FAILURE,
        error: true,
        ms: 6_480
      }
    ],
    context: 121_304,
    responseMs: 3_900
  },
  {
    // 13
    text:
      'Two failures, both mine. I walk each bucket from the end, so the *latest* booking within the ' +
      'tolerance wins instead of the earliest; and when the latest is outside the tolerance but an earlier ' +
      'one is inside, the `continue` goes on correctly, but the splice shifts the indexes of the rest. ' +
      'Let me read the tests to be sure of the expected order.',
    calls: [
      {
        name: 'read_file',
        input: { path: 'test/reconcile/matcher.test.ts', offset: 30, limit: 40 },
        output: numbered(
          [
            "  it('prefers the earliest booking', () => {",
            '    const ledger = [',
            "      entry('L-1001', '120.00', '2025-02-20'),",
            "      entry('L-1002', '120.00', '2025-03-03'),",
            "      entry('L-1003', '120.00', '2025-03-04'),",
            '    ];',
            '    // L-1001 is outside the 3-day tolerance; L-1002 and L-1003 are inside; the earliest wins.',
            '',
            '',
            '',
            "    const bank = [line('B-77', '120.00', '2025-03-04')];",
            '    const matches = findMatches(ledger, bank, { toleranceDays: 3 });',
            "    expect(matches).toEqual([{ entryId: 'L-1002', lineId: 'B-77', lagDays: 1 }]);",
            '  });',
            '',
            "  it('does not reuse an entry for two lines', () => {",
            '    const ledger = [',
            "      entry('L-2001', '55.10', '2025-03-01'),",
            "      entry('L-2002', '55.10', '2025-03-02'),",
            '    ];',
            "    const bank = [line('B-90', '55.10', '2025-03-01'), line('B-91', '55.10', '2025-03-02')];",
            '',
            '',
            '',
            '',
            '',
            '',
            '',
            '    const matches = findMatches(ledger, bank, { toleranceDays: 3 });',
            '    expect(matches).toHaveLength(2);',
            '  });'
          ],
          30,
          96
        ),
        ms: 3
      }
    ],
    context: 146_720,
    responseMs: 21_000
  },
  {
    // 14
    text:
      'Fixing both: walk each bucket from the start (earliest first), skip entries booked too long ' +
      'before the value date, stop at the first one inside the window, and mark it used instead of ' +
      'splicing, with a per-bucket cursor past the used prefix so the walk stays short.',
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'src/reconcile/matcher.ts',
          old_string: '    for (let i = bucket.length - 1; i >= 0; i--) {',
          new_string: '    for (let i = cursor.get(bucket) ?? 0; i < bucket.length; i++) {'
        },
        output: 'Edited src/reconcile/matcher.ts at line 25.',
        ms: 4
      }
    ],
    context: 163_918,
    responseMs: 28_700
  },
  {
    // 15
    text: 'Context was compacted; the summary has the plan. Re-running the reconcile tests.',
    calls: [
      {
        name: 'bash',
        input: { command: 'npm test -- test/reconcile 2>&1 | tail -30' },
        output: shell(
          0,
          [
            ' PASS  test/reconcile/matcher.test.ts',
            '  findMatches',
            '    ✓ matches same amount and currency (3 ms)',
            '    ✓ prefers the earliest booking (1 ms)',
            '    ✓ respects the tolerance (1 ms)',
            '    ✓ leaves a line unmatched when the currency differs (1 ms)',
            '    ✓ does not reuse an entry for two lines',
            ' PASS  test/reconcile/report.test.ts',
            '',
            'Test Suites: 2 passed, 2 total',
            'Tests:       11 passed, 11 total',
            'Time:        2.904 s'
          ].join('\n')
        ),
        ms: 6_110
      }
    ],
    context: 36_245,
    responseMs: 8_900
  },
  {
    // 16
    text: '',
    calls: [
      {
        name: 'bash',
        input: { command: 'npx tsx scripts/bench-reconcile.ts --entries 40000', timeout_ms: 300000 },
        output: shell(0, 'matched 39517 of 39600 lines in 0.2 s'),
        ms: 3_420
      }
    ],
    context: 47_812,
    responseMs: 4_100
  },
  {
    // 17
    text:
      '40,000 entries in 0.2 s instead of minutes. src/api/accounts.ts also calls findMatches on a ' +
      '500-entry preview; the signature is unchanged so it keeps working. Checking the report builder, ' +
      'which uses the matcher module too.',
    calls: [
      {
        name: 'grep',
        input: { pattern: 'from \'./matcher.js\'|from "./matcher.js"', path: 'src' },
        output: [
          "src/reconcile/index.ts:1: import { findDuplicateLines, findMatches, unmatchedEntries } from './matcher.js';",
          'src/reconcile/index.ts:6: export { findMatches } from "./matcher.js";',
          "src/reconcile/report.ts:2: import { indexLedger, unmatchedEntries } from './matcher.js';"
        ].join('\n'),
        ms: 148
      }
    ],
    context: 63_390,
    responseMs: 9_300
  },
  {
    // 18
    text: '',
    calls: [
      {
        name: 'read_file',
        input: { path: 'src/reconcile/report.ts' },
        output: numbered(
          [
            "import type { BankLine, LedgerEntry, Match } from './types.js';",
            "import { indexLedger, unmatchedEntries } from './matcher.js';",
            "import { daysBetween } from './money.js';",
            '',
            'export interface ReconcileReport {',
            '  readonly accountId: string;',
            '  readonly matched: number;',
            '  readonly open: readonly OpenItem[];',
            '  readonly duplicates: readonly BankLine[][];',
            '  readonly byAge: Readonly<Record<AgeBucket, number>>;',
            '  readonly elapsedMs: number;',
            '}',
            '',
            "type AgeBucket = '0-7' | '8-30' | '31-90' | '90+';",
            '',
            '// … 60 lines of ageing rules …',
            '',
            'export function buildReport(input: ReportInput): ReconcileReport {',
            '  const open = input.open.map((entry) => openItem(entry, input.asOf ?? new Date().toISOString()));',
            '  const candidates = indexLedger(input.ledger);',
            '  return {',
            '    accountId: input.accountId,',
            '    matched: input.matches.length,',
            '    open,',
            '    duplicates: input.duplicates,',
            '    byAge: ageBuckets(open, candidates),',
            '    elapsedMs: input.elapsedMs',
            '  };',
            '}'
          ],
          1,
          96
        ),
        ms: 3
      }
    ],
    context: 81_004,
    responseMs: 6_200
  },
  {
    // 19
    text:
      'The matcher fix is done and verified. Before writing the regression test I will compact, keeping ' +
      'the design of the index and the tie-breaking rule.',
    calls: [
      {
        name: 'compact',
        input: { focus: 'the matcher index design and the tie-breaking rule' },
        output:
          'Compaction requested with focus "the matcher index design and the tie-breaking rule"; it runs once ' +
          "this turn's results are in.",
        ms: 1
      }
    ],
    context: 92_615,
    responseMs: 7_000
  },
  {
    // 20
    text: 'Now the regression test: a synthetic account of 40,000 entries that must reconcile within 5 s.',
    calls: [
      {
        name: 'write_file',
        input: {
          path: 'test/reconcile/large-account.test.ts',
          content: [
            "import { findMatches } from '../../src/reconcile/matcher.js';",
            "import type { BankLine, LedgerEntry } from '../../src/reconcile/types.js';",
            '',
            'function makeLedger(count: number): LedgerEntry[] {',
            '  let ledger: LedgerEntry[] = [];',
            '  for (let i = 0; i < count; i++) {',
            '    ledger = [...ledger, {',
            '      id: `L-${i}`,',
            "      currency: 'EUR',",
            "      amount: { cents: 1000 + (i % 997) * 13, currency: 'EUR' },",
            '      bookedAt: new Date(Date.UTC(2025, 0, 1) + (i % 120) * 86_400_000).toISOString(),',
            "      memo: 'synthetic'",
            '    }];',
            '  }',
            '  return ledger;',
            '}',
            '',
            'function bankFor(ledger: readonly LedgerEntry[]): BankLine[] {',
            '  return ledger.filter((_, i) => i % 50 !== 0).map((entry, i) => ({',
            '    id: `B-${i}`,',
            '    currency: entry.currency,',
            '    amount: entry.amount,',
            '    valueDate: entry.bookedAt.slice(0, 10),',
            '    reference: entry.id',
            '  }));',
            '}',
            '',
            "describe('a large account (issue #412)', () => {",
            "  it('reconciles 40,000 entries within the budget', () => {",
            '    const ledger = makeLedger(40_000);',
            '    const bank = bankFor(ledger);',
            '    const started = performance.now();',
            '    const matches = findMatches(ledger, bank, { toleranceDays: 3 });',
            '    expect(matches).toHaveLength(bank.length);',
            '    expect(performance.now() - started).toBeLessThan(5_000);',
            '  });',
            '});'
          ].join('\n')
        },
        output: 'Wrote 37 lines (1294 bytes) to test/reconcile/large-account.test.ts.',
        ms: 5
      }
    ],
    context: 29_870,
    responseMs: 17_200
  },
  {
    // 21
    text: '',
    calls: [
      {
        name: 'bash',
        input: { command: 'npx jest test/reconcile/large-account.test.ts 2>&1 | tail -40' },
        output: shell(
          1,
          [
            ' FAIL  test/reconcile/large-account.test.ts (6.412 s)',
            '  a large account (issue #412)',
            '    ✕ reconciles 40,000 entries within the budget (5003 ms)',
            '',
            '  ● a large account (issue #412) › reconciles 40,000 entries within the budget',
            '',
            '    thrown: "Exceeded timeout of 5000 ms for a test.',
            '    Add a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout."',
            '',
            "      27 | describe('a large account (issue #412)', () => {",
            "    > 28 |   it('reconciles 40,000 entries within the budget', () => {",
            '         |   ^',
            '      29 |     const ledger = makeLedger(40_000);',
            '',
            '      at test/reconcile/large-account.test.ts:28:3',
            '',
            'Test Suites: 1 failed, 1 total',
            'Tests:       1 failed, 1 total',
            'Time:        6.98 s'
          ].join('\n')
        ),
        error: true,
        ms: 7_640
      }
    ],
    context: 44_120,
    responseMs: 5_300
  },
  {
    // 22
    text:
      'The test times out before the matcher even runs: makeLedger copies the array on every push ' +
      '(`[...ledger, entry]`), which is quadratic itself. The test setup must not be the slow part.',
    calls: [
      {
        name: 'read_file',
        input: { path: 'test/setup.ts' },
        output: numbered([
          "import { jest } from '@jest/globals';",
          '',
          '// Reconcile logs every account; keep test output readable.',
          "jest.spyOn(console, 'debug').mockImplementation(() => undefined);",
          '',
          'process.env.TZ = "UTC";'
        ]),
        ms: 2
      }
    ],
    context: 58_731,
    responseMs: 9_900
  },
  {
    // 23
    text: '',
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'test/reconcile/large-account.test.ts',
          old_string:
            '  let ledger: LedgerEntry[] = [];\n  for (let i = 0; i < count; i++) {\n    ledger = [...ledger, {',
          new_string:
            '  const ledger: LedgerEntry[] = [];\n  for (let i = 0; i < count; i++) {\n    ledger.push({'
        },
        output: 'Edited test/reconcile/large-account.test.ts at line 5.',
        ms: 4
      },
      {
        name: 'edit_file',
        input: {
          path: 'test/reconcile/large-account.test.ts',
          old_string: '    }];\n  }',
          new_string: '    });\n  }'
        },
        output: 'Edited test/reconcile/large-account.test.ts at line 13.',
        ms: 3
      }
    ],
    context: 77_296,
    responseMs: 8_100
  },
  {
    // 24
    text: '',
    calls: [
      {
        name: 'bash',
        input: { command: 'npx jest test/reconcile/large-account.test.ts 2>&1 | tail -20' },
        output: shell(
          0,
          [
            ' PASS  test/reconcile/large-account.test.ts',
            '  a large account (issue #412)',
            '    ✓ reconciles 40,000 entries within the budget (231 ms)',
            '',
            'Test Suites: 1 passed, 1 total',
            'Tests:       1 passed, 1 total',
            'Time:        1.544 s'
          ].join('\n')
        ),
        ms: 2_980
      }
    ],
    context: 96_550,
    // Two 529 answers and their back-off before this response: the prompt cache went cold.
    responseMs: 412_000
  },
  {
    // 25
    text: 'The regression test passes in 231 ms. Lint next.',
    calls: [
      {
        name: 'bash',
        input: { command: 'npm run lint' },
        output: shell(
          1,
          [
            '',
            '> ledger-service@3.14.0 lint',
            '> eslint .',
            '',
            '/home/runner/work/ledger-service/ledger-service/src/reconcile/matcher.ts',
            "   2:35  error  'sameDay' is defined but never used  @typescript-eslint/no-unused-vars",
            '',
            '/home/runner/work/ledger-service/ledger-service/test/reconcile/large-account.test.ts',
            "  19:33  error  '_' is defined but never used      @typescript-eslint/no-unused-vars",
            '',
            '✖ 2 problems (2 errors, 0 warnings)'
          ].join('\n')
        ),
        error: true,
        ms: 9_870
      }
    ],
    context: 103_117,
    responseMs: 6_000
  },
  {
    // 26
    text:
      'findDuplicateLines still uses sameDay, so the import is used... checking: no, my edit moved the ' +
      'duplicate check to a key that already contains the day. Removing the import, and using the index ' +
      'parameter name the lint config allows.',
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'src/reconcile/matcher.ts',
          old_string: "import { amountsEqual, daysBetween, sameDay } from './money.js';",
          new_string: "import { daysBetween } from './money.js';"
        },
        output: 'Edited src/reconcile/matcher.ts at line 2.',
        ms: 4
      },
      {
        name: 'edit_file',
        input: {
          path: 'test/reconcile/large-account.test.ts',
          old_string: 'ledger.filter((_, i) => i % 50 !== 0)',
          new_string: 'ledger.filter((_entry, i) => i % 50 !== 0)'
        },
        output: 'Edited test/reconcile/large-account.test.ts at line 19.',
        ms: 3
      },
      {
        name: 'read_file',
        input: { path: 'src/reconcile/matcher.ts', offset: 36, limit: 20 },
        output: numbered(
          [
            '/** Lines of the same day with the same amount are the usual duplicates a bank sends twice. */',
            'export function findDuplicateLines(bank: readonly BankLine[]): BankLine[][] {',
            '  const groups = new Map<string, BankLine[]>();',
            '  for (const line of bank) {',
            '    const key = `${line.currency}:${line.amount.cents}:${line.valueDate.slice(0, 10)}`;',
            '    const group = groups.get(key) ?? [];',
            '    group.push(line);',
            '    groups.set(key, group);',
            '  }',
            '  return [...groups.values()].filter((group) => group.length > 1 && group.every((l, i) =>',
            '    i === 0 || sameDay(l.valueDate, group[0]!.valueDate)));',
            '}'
          ],
          36,
          62
        ),
        ms: 2
      }
    ],
    context: 129_480,
    responseMs: 14_700
  },
  {
    // 27
    text:
      'I was wrong: findDuplicateLines does still call sameDay (line 46). The check is redundant since ' +
      'the key contains the day, so I will drop it rather than restore the import.',
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'src/reconcile/matcher.ts',
          old_string:
            '  return [...groups.values()].filter((group) => group.length > 1 && group.every((l, i) =>\n    i === 0 || sameDay(l.valueDate, group[0]!.valueDate)));',
          new_string: '  return [...groups.values()].filter((group) => group.length > 1);'
        },
        output: 'Edited src/reconcile/matcher.ts at line 45.',
        ms: 4
      },
      {
        name: 'bash',
        input: { command: 'npm run lint' },
        output: shell(0, '\n> ledger-service@3.14.0 lint\n> eslint .\n'),
        ms: 9_410
      }
    ],
    context: 158_900,
    responseMs: 12_600
  },
  {
    // 28
    text: 'Lint is clean. Type check.',
    calls: [
      {
        name: 'bash',
        input: { command: 'npm run typecheck' },
        output: shell(
          2,
          [
            '',
            '> ledger-service@3.14.0 typecheck',
            '> tsc --noEmit',
            '',
            "src/reconcile/report.ts(26,27): error TS2345: Argument of type 'Map<string, LedgerEntry[]>' is not assignable to parameter of type 'readonly LedgerEntry[]'.",
            "  Type 'Map<string, LedgerEntry[]>' is missing the following properties from type 'readonly LedgerEntry[]': length, concat, join, slice, and 26 more.",
            '',
            'Found 1 error in src/reconcile/report.ts:26'
          ].join('\n')
        ),
        error: true,
        ms: 14_230
      }
    ],
    context: 61_442,
    responseMs: 5_200
  },
  {
    // 29
    text:
      'report.ts used to get a plain array from a helper I replaced with indexLedger. The last compaction ' +
      'dropped turns, so I will compact on purpose now with a focus that keeps this error and what lint ' +
      'changed, then fix it.',
    calls: [
      {
        name: 'compact',
        input: { focus: 'the failing typecheck in report.ts and the lint fixes already made' },
        output:
          'Compaction requested with focus "the failing typecheck in report.ts and the lint fixes already made"; ' +
          "it runs once this turn's results are in.",
        ms: 1
      }
    ],
    context: 73_015,
    responseMs: 8_800
  },
  {
    // 30
    text: '',
    calls: [
      {
        name: 'read_file',
        input: { path: 'src/reconcile/report.ts', offset: 60, limit: 30 },
        output: numbered(
          [
            '/** Open items by age; an item with a candidate of the same amount is "likely late", not lost. */',
            'function ageBuckets(open: readonly OpenItem[], candidates: readonly LedgerEntry[]): Record<AgeBucket, number> {',
            "  const buckets: Record<AgeBucket, number> = { '0-7': 0, '8-30': 0, '31-90': 0, '90+': 0 };",
            '  const amounts = new Set(candidates.map((entry) => entry.amount.cents));',
            '  for (const item of open) {',
            '    if (amounts.has(item.cents) && item.ageDays <= 7) continue;',
            '    buckets[bucketOf(item.ageDays)]++;',
            '  }',
            '  return buckets;',
            '}'
          ],
          60,
          96
        ),
        ms: 3
      },
      {
        name: 'edit_file',
        input: {
          path: 'src/reconcile/report.ts',
          old_string:
            'function ageBuckets(open: readonly OpenItem[], candidates: readonly LedgerEntry[]): Record<AgeBucket, number> {',
          new_string:
            'function ageBuckets(\n  open: readonly OpenItem[],\n  candidates: ReadonlyMap<string, readonly LedgerEntry[]>\n): Record<AgeBucket, number> {'
        },
        output: 'Edited src/reconcile/report.ts at line 61.',
        ms: 5
      },
      {
        name: 'edit_file',
        input: {
          path: 'src/reconcile/report.ts',
          old_string: '  const amounts = new Set(candidates.map((entry) => entry.amount.cents));',
          new_string:
            '  const amounts = new Set([...candidates.values()].flat().map((entry) => entry.amount.cents));'
        },
        output: 'Edited src/reconcile/report.ts at line 66.',
        ms: 3
      }
    ],
    context: 35_876,
    responseMs: 18_400
  },
  {
    // 31
    text: '',
    calls: [
      {
        name: 'bash',
        input: { command: 'npm run typecheck && npm run lint' },
        output: shell(
          0,
          '\n> ledger-service@3.14.0 typecheck\n> tsc --noEmit\n\n> ledger-service@3.14.0 lint\n> eslint .\n'
        ),
        ms: 23_120
      }
    ],
    context: 58_300,
    responseMs: 4_700
  },
  {
    // 32
    text: 'Types and lint are clean. What changed so far:',
    calls: [
      {
        name: 'bash',
        input: { command: 'git status --short && git diff --stat' },
        output: shell(
          0,
          [
            ' M src/reconcile/matcher.ts',
            ' M src/reconcile/report.ts',
            '?? test/reconcile/large-account.test.ts',
            ' src/reconcile/matcher.ts | 52 +++++++++++++++++++++++++++++++++-------------------',
            ' src/reconcile/report.ts  |  9 ++++++---',
            ' 2 files changed, 40 insertions(+), 21 deletions(-)'
          ].join('\n')
        ),
        ms: 64
      }
    ],
    context: 84_770,
    responseMs: 5_900
  },
  {
    // 33
    text: 'Two files changed and one new test file. Now the whole suite, with a long timeout.',
    calls: [
      {
        name: 'bash',
        input: { command: 'npm test 2>&1', timeout_ms: 600000 },
        output: spillPreview(shell(0, FULL_TESTS), SPILL_LOG_PATH('toolu_01%33:0')),
        ms: 24_870
      }
    ],
    context: 108_210,
    responseMs: 6_300
  },
  {
    // 34
    text: '318 tests, all passing. Checking for TODOs left about this issue.',
    calls: [
      {
        name: 'grep',
        input: { pattern: 'TODO.*(412|reconcile)', ignore_case: true },
        output: 'No matches for /TODO.*(412|reconcile)/ in 412 files.',
        ms: 301
      },
      {
        name: 'grep',
        input: { pattern: 'bankLinesDone', path: 'src' },
        output:
          "src/reconcile/index.ts:31: logger.debug('reconcile: progress', { accountId, bankLinesDone, bankLines: bank.length });",
        ms: 122
      }
    ],
    context: 129_885,
    responseMs: 10_200
  },
  {
    // 35
    text: '',
    calls: [
      {
        name: 'read_file',
        input: { path: 'CHANGELOG.md', limit: 20 },
        output: numbered(
          [
            '# Changelog',
            '',
            '## Unreleased',
            '',
            '## 3.14.0 — 2025-04-22',
            '',
            '- Reports list duplicate bank lines (#398).',
            '- The CSV source accepts semicolon-separated exports (#401).',
            '',
            '## 3.13.2 — 2025-04-09',
            '',
            '- Fix: a bank line dated on a DST change matched a day late (#389).'
          ],
          1,
          212
        ),
        ms: 2
      }
    ],
    context: 139_300,
    responseMs: 5_000
  },
  {
    // 36
    text: '',
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'CHANGELOG.md',
          old_string: '## Unreleased\n',
          new_string:
            '## Unreleased\n\n- Fix: reconciling a large account no longer takes quadratic time: the ledger is ' +
            'indexed by currency and amount (#412). 40,000 entries now take ~0.2 s instead of minutes.\n'
        },
        output: 'Edited CHANGELOG.md at line 3.',
        ms: 4
      }
    ],
    context: 158_900,
    responseMs: 7_100
  },
  {
    // 37
    text:
      'Everything is done but a last check of the benchmark on the real account size. Compacting first ' +
      'to keep only what the final summary needs.',
    calls: [
      {
        name: 'compact',
        input: { focus: 'the final state for the summary: what changed, the numbers, what was verified' },
        output:
          'Compaction requested with focus "the final state for the summary: what changed, the numbers, what ' +
          'was verified"; it runs once this turn\'s results are in.',
        ms: 1
      }
    ],
    context: 40_845,
    responseMs: 6_600
  },
  {
    // 38
    text: 'The summary call failed and older turns were dropped; the ledger says what changed. Final benchmark:',
    calls: [
      {
        name: 'bash',
        input: { command: 'npx tsx scripts/bench-reconcile.ts --entries 42000', timeout_ms: 300000 },
        output: shell(0, 'matched 41493 of 41580 lines in 0.2 s'),
        ms: 3_610
      }
    ],
    context: 36_911,
    responseMs: 5_400
  },
  {
    // 39
    text: '',
    calls: [
      {
        name: 'bash',
        input: { command: 'git diff src/reconcile/matcher.ts | head -80' },
        output: shell(
          0,
          [
            'diff --git a/src/reconcile/matcher.ts b/src/reconcile/matcher.ts',
            'index 5c1e2d0..a93f7b1 100644',
            '--- a/src/reconcile/matcher.ts',
            '+++ b/src/reconcile/matcher.ts',
            '@@ -1,5 +1,5 @@',
            " import type { BankLine, LedgerEntry, Match } from './types.js';",
            "-import { amountsEqual, daysBetween, sameDay } from './money.js';",
            "+import { daysBetween } from './money.js';",
            '@@ -17,20 +17,40 @@ export function findMatches(',
            '-  const matches: Match[] = [];',
            '-  const used = new Set<string>();',
            '-  for (const line of bank) {',
            '-    let best: LedgerEntry | undefined;',
            '-    for (const entry of ledger) {',
            '+  const buckets = indexLedger(ledger);',
            '+  const cursor = new Map<LedgerEntry[], number>();',
            '+  const used = new Set<LedgerEntry>();',
            '+  const matches: Match[] = [];',
            '+  for (const line of bank) {',
            '+    const bucket = buckets.get(bucketKey(line.currency, line.amount.cents));',
            '+    if (!bucket) continue;',
            '+    for (let i = cursor.get(bucket) ?? 0; i < bucket.length; i++) {'
          ].join('\n')
        ),
        ms: 58
      }
    ],
    context: 44_330,
    responseMs: 4_900
  },
  {
    // 40
    text: [
      'Done. The nightly job timed out because `findMatches` compared every bank line with every ledger',
      'entry (O(n·m): ~1.7 billion comparisons for acct_7731).',
      '',
      '- src/reconcile/matcher.ts: the ledger is indexed once by currency and amount, each bucket sorted',
      '  by booking date; each bank line walks only its bucket, earliest booking first, with a cursor past',
      '  used entries. Matching rules and the public API are unchanged.',
      '- src/reconcile/report.ts: ageBuckets takes the index (the type checker caught the change).',
      '- test/reconcile/large-account.test.ts: 40,000 entries must reconcile within 5 s (they take ~0.2 s).',
      '- CHANGELOG.md: an entry under Unreleased.',
      '',
      'Benchmark: 42,000 entries in 0.2 s (was ~65 s locally, and over an hour on the shared worker).',
      'Lint, type check and the whole suite (318 tests) pass.'
    ].join('\n'),
    calls: [],
    context: 49_120,
    responseMs: 13_800,
    stop: 'end_turn'
  }
];

const SUMMARY_14 = [
  '## Task and intent',
  'Fix the nightly `reconcile` timeout on large accounts (issue #412, acct_7731: 41,882 ledger entries,',
  '39,950 bank lines, killed after 3600 s) and add a regression test reconciling 40,000 entries in a few',
  'seconds. Public API of src/reconcile/ (findMatches, reconcileAccount, buildReport) must not change;',
  'matching rules must not change (same currency, same cents, value date within tolerance, earliest',
  'booking first).',
  '',
  '## Decisions',
  '- Cause: findMatches in src/reconcile/matcher.ts loops over the whole ledger for every bank line',
  '  (quadratic). Bench: 5,000 entries 0.9 s, 20,000 entries 14.6 s.',
  '- Fix: index the ledger once by `${currency}:${cents}` (indexLedger, exported), each bucket sorted',
  '  by bookedAt; each bank line walks only its bucket.',
  '- Tie-breaking: walk from the START of the bucket (earliest first); do not splice — keep a',
  '  per-bucket cursor past the used prefix and a used set.',
  '',
  '## Files and code',
  '- src/reconcile/matcher.ts: findMatches rewritten (edited twice; the loop now starts at',
  '  `cursor.get(bucket) ?? 0`), indexLedger and bucketKey added. Still imports amountsEqual and sameDay.',
  '- src/reconcile/money.ts: daysBetween(a, b) = whole days from a to b on the date part.',
  '- scripts/bench-reconcile.ts: `npx tsx scripts/bench-reconcile.ts --entries N`.',
  '- test/reconcile/matcher.test.ts lines 30-60: "prefers the earliest booking" expects L-1002;',
  '  "does not reuse an entry for two lines" expects 2 matches.',
  '',
  '## Errors and fixes',
  '- First version walked buckets from the end and spliced: 2 failures in matcher.test.ts (latest',
  '  booking won; spliced indexes). Fixed by walking from the start with a cursor (not yet re-tested).',
  '',
  '## Current state',
  'Matcher rewritten; tests not yet re-run after the second edit.',
  '',
  '## Pending work',
  '- Re-run `npm test -- test/reconcile`, then the 40,000-entry benchmark.',
  '- Check other users of matcher.ts (src/api/accounts.ts calls findMatches on a 500-entry preview).',
  '- Regression test test/reconcile/large-account.test.ts; lint, typecheck, full suite.',
  '',
  '## Next step',
  'npm test -- test/reconcile'
].join('\n');

const SUMMARY_19 = [
  '## Task and intent',
  'Issue #412: the nightly reconcile job timed out on acct_7731 (42k entries). Fix it without changing',
  "src/reconcile/'s public API or the matching rules, add a 40,000-entry regression test, then lint,",
  'typecheck and run the whole suite.',
  '',
  '## Focus: the matcher index design and the tie-breaking rule',
  '- indexLedger(ledger) → Map<`${currency}:${cents}`, LedgerEntry[]>, each bucket sorted by bookedAt',
  '  ascending (stable sort, so equal bookings keep ledger order).',
  '- For each bank line: walk its bucket from cursor(bucket) upward; skip used entries and entries',
  '  outside `toleranceDays`; the FIRST entry inside the window wins = the earliest booking. Advance the',
  "  bucket's cursor past a used prefix. Never splice.",
  '- Equal bookedAt: the earlier ledger position wins (same as the old `<` comparison).',
  '',
  '## Decisions',
  '- indexLedger is exported; report.ts already imports it (it used a different helper before).',
  '',
  '## Files and code',
  '- src/reconcile/matcher.ts: findMatches, indexLedger, bucketKey.',
  '- src/reconcile/report.ts: buildReport calls indexLedger(input.ledger) and passes it to ageBuckets.',
  '',
  '## Errors and fixes',
  '- Walking from the end broke "prefers the earliest booking" and "does not reuse an entry"; fixed.',
  '',
  '## Current state',
  'test/reconcile passes (11 tests). Bench: 40,000 entries in 0.2 s (was 14.6 s for 20,000).',
  '',
  '## Pending work',
  '- Regression test test/reconcile/large-account.test.ts (40,000 entries, < 5 s).',
  '- npm run lint, npm run typecheck, npm test.',
  '',
  '## Next step',
  'Write test/reconcile/large-account.test.ts.'
].join('\n');

const SUMMARY_29 = [
  '## Task and intent',
  'Issue #412: make the nightly reconcile fast on large accounts, keep the API and matching rules, add',
  'a 40,000-entry regression test, and pass lint, typecheck and the whole suite.',
  '',
  '## Focus: the failing typecheck in report.ts and the lint fixes already made',
  "- `npm run typecheck`: src/reconcile/report.ts(26,27) TS2345: 'Map<string, LedgerEntry[]>' is not",
  "  assignable to 'readonly LedgerEntry[]'. buildReport passes indexLedger(input.ledger) to",
  '  ageBuckets(open, candidates), which still takes an array. Fix ageBuckets to take the map.',
  '- Lint fixes made: removed the unused `amountsEqual`/`sameDay` imports from matcher.ts, dropped the',
  '  redundant sameDay check in findDuplicateLines (its key contains the day), renamed `_` to `_entry`',
  '  in large-account.test.ts. `npm run lint` is clean.',
  '',
  '## Decisions',
  '- Matcher: bucket index by currency and cents, earliest booking first, cursor, no splice.',
  '',
  '## Files and code',
  '- src/reconcile/matcher.ts (rewritten), src/reconcile/report.ts (to fix),',
  '  test/reconcile/large-account.test.ts (new test; makeLedger now pushes instead of spreading).',
  '',
  '## Errors and fixes',
  '- large-account test timed out at 5,000 ms because makeLedger copied the array per entry; fixed,',
  '  the test now takes 231 ms.',
  '',
  '## Current state',
  'Lint clean, typecheck failing (1 error), reconcile tests passing.',
  '',
  '## Pending work',
  '- Fix report.ts, re-run typecheck and lint, run the whole suite, CHANGELOG entry.',
  '',
  '## Next step',
  'Read src/reconcile/report.ts around line 60 (ageBuckets).'
].join('\n');

const SUMMARY_36 = [
  '## Task and intent',
  'Issue #412: the nightly reconcile job must finish on large accounts; API and matching rules',
  'unchanged; regression test with 40,000 entries; lint, typecheck and the whole suite must pass.',
  '',
  '## Decisions',
  '- Ledger indexed by currency and cents (indexLedger), buckets sorted by booking date, earliest',
  '  booking wins, a cursor per bucket, no splicing.',
  '- ageBuckets in report.ts takes the index map instead of an array.',
  '',
  '## Files and code',
  '- src/reconcile/matcher.ts, src/reconcile/report.ts, test/reconcile/large-account.test.ts,',
  '  CHANGELOG.md (entry under Unreleased, #412).',
  '',
  '## Errors and fixes',
  '- Reversed bucket walk (2 test failures), quadratic test setup (timeout), unused imports (lint),',
  '  TS2345 in report.ts: all fixed.',
  '',
  '## Current state',
  'Typecheck and lint clean. Whole suite: 53 suites, 318 tests passed in 21.4 s (output saved to',
  `.transcripts/${RUN_ID}/tool-results/…). No TODO mentions #412.`,
  '',
  '## Pending work',
  '- Benchmark with 42,000 entries (the real account size), then the final summary.',
  '',
  '## Next step',
  'npx tsx scripts/bench-reconcile.ts --entries 42000'
].join('\n');

const COMPACTIONS: readonly CompactionSpec[] = [
  {
    turn: 5,
    layer: 'micro',
    reason: 'floor of 8000 tokens reached: cleared 4 results (1 superseded), ~12740 tokens',
    before: 47_950,
    after: 35_210,
    clears: ['1:0', '2:0', '3:0', '4:0'],
    ms: 3
  },
  {
    turn: 6,
    layer: 'spill',
    reason: `tool result of ${shell(0, LOG).length} characters saved to ${SPILL_LOG_PATH('toolu_01%6:0')}`,
    before: Math.round(shell(0, LOG).length / 3.6),
    after: 860,
    clears: ['6:0'],
    ms: 2
  },
  {
    turn: 10,
    layer: 'micro',
    reason: 'floor of 8000 tokens reached: cleared 7 results (2 superseded), ~29455 tokens',
    before: 101_870,
    after: 72_415,
    clears: ['2:1', '3:1', '5:0', '7:0', '8:0', '8:1', '9:0'],
    ms: 4
  },
  {
    turn: 14,
    layer: 'auto',
    reason: `context ~168204 tokens > threshold ${THRESHOLD}`,
    before: 168_204,
    after: 31_577,
    summary: SUMMARY_14,
    ms: 41_200
  },
  {
    turn: 19,
    layer: 'manual',
    reason: 'the agent called compact',
    before: 94_180,
    after: 24_906,
    summary: SUMMARY_19,
    focus: 'the matcher index design and the tie-breaking rule',
    ms: 33_900
  },
  {
    turn: 24,
    layer: 'micro',
    reason: 'cache cold (412 s idle): cleared 3 results (0 superseded), ~18620 tokens',
    before: 99_840,
    after: 81_220,
    clears: ['20:0', '21:0', '22:0'],
    ms: 3
  },
  {
    turn: 27,
    layer: 'fallback',
    reason: `context ~164300 tokens > threshold ${THRESHOLD}; summary failed (529 overloaded_error: Overloaded), dropped the oldest turns`,
    before: 164_300,
    after: 52_760,
    ms: 96_400
  },
  {
    turn: 29,
    layer: 'manual',
    reason: 'the agent called compact',
    before: 74_800,
    after: 27_310,
    summary: SUMMARY_29,
    focus: 'the failing typecheck in report.ts and the lint fixes already made',
    ms: 29_700
  },
  {
    turn: 33,
    layer: 'spill',
    reason: `tool result of ${shell(0, FULL_TESTS).length} characters saved to ${SPILL_LOG_PATH('toolu_01%33:0')}`,
    before: Math.round(shell(0, FULL_TESTS).length / 3.6),
    after: 860,
    clears: ['33:0'],
    ms: 2
  },
  {
    turn: 34,
    layer: 'micro',
    reason: 'floor of 8000 tokens reached: cleared 5 results (1 superseded), ~16106 tokens',
    before: 133_700,
    after: 117_594,
    clears: ['28:0', '30:0', '30:1', '31:0', '32:0'],
    ms: 4
  },
  {
    turn: 36,
    layer: 'auto',
    reason: `context ~165420 tokens > threshold ${THRESHOLD}`,
    before: 165_420,
    after: 33_480,
    summary: SUMMARY_36,
    ms: 38_800
  },
  {
    turn: 37,
    layer: 'fallback',
    reason:
      'the agent called compact; summary failed (stream stalled: no event for 120 s, tried 2 times), dropped the oldest turns',
    before: 42_300,
    after: 30_950,
    focus: 'the final state for the summary: what changed, the numbers, what was verified',
    ms: 245_100
  }
];

// ---------------------------------------------------------------------------------------------------
// Building the audit

function buildAudit(blocks: number, maxTurns = blocks * SCRIPT.length): RunAudit {
  const random = mulberry32(412);
  const ids = new Map<string, string>();
  const idOf = (key: string) => {
    let id = ids.get(key);
    if (!id) {
      id = `toolu_01${base62(random, 22)}`;
      ids.set(key, id);
    }
    return id;
  };
  const fill = (text: string, block: number) =>
    text.replace(/toolu_01%(\d+):(\d+)/g, (_, turn: string, call: string) =>
      idOf(`${block}/${turn}:${call}`)
    );

  const timeline: AuditTurn[] = [];
  const compactions: CompactionEvent[] = [];
  const contextTokensPerTurn: Array<{ turn: number; tokens: number }> = [];
  const usage = { input: 0, cache_write: 0, cache_read: 0, output: 0 };
  const stats = new Map<string, { calls: number; failures: number }>();
  const files = new Set<string>();
  let costUsd = 0;
  let clock = STARTED;
  let cached = SYSTEM_PREFIX_TOKENS;

  outer: for (let block = 0; block < blocks; block++) {
    for (let index = 0; index < SCRIPT.length; index++) {
      const spec = SCRIPT[index]!;
      const turn = block * SCRIPT.length + index + 1;
      if (turn > maxTurns) break outer;
      const local = index + 1;
      const turnTime = clock;
      clock += spec.responseMs;
      const calls: AuditToolCall[] = spec.calls.map((call, callIndex) => {
        const result: AuditToolCall = {
          id: idOf(`${block}/${local}:${callIndex}`),
          name: call.name,
          input: JSON.parse(fill(JSON.stringify(call.input), block)) as unknown,
          output: fill(call.output, block),
          isError: call.error === true,
          durationMs: call.ms
        };
        clock += call.ms;
        const stat = stats.get(call.name) ?? { calls: 0, failures: 0 };
        stat.calls++;
        if (result.isError) stat.failures++;
        stats.set(call.name, stat);
        if (!result.isError && (call.name === 'write_file' || call.name === 'edit_file')) {
          files.add(String(call.input.path));
        }
        return result;
      });
      // Usage: the cached prefix is read, the rest of the prompt written to the cache.
      const output =
        Math.round(
          (spec.text.length + spec.calls.reduce((sum, call) => sum + JSON.stringify(call.input).length, 0)) /
            3.4
        ) + 60;
      const input = 3 + (local % 7);
      const cacheRead = Math.min(cached, spec.context - input);
      const cacheWrite = spec.context - cacheRead - input;
      const turnUsage = { input, cache_write: cacheWrite, cache_read: cacheRead, output };
      const turnCost = cost(turnUsage);
      addUsage(usage, turnUsage);
      costUsd += turnCost;
      cached = spec.context;
      contextTokensPerTurn.push({ turn, tokens: spec.context });
      timeline.push({
        turn,
        text: spec.text,
        toolCalls: calls,
        stopReason: spec.stop ?? (calls.length > 0 ? 'tool_use' : 'end_turn'),
        contextTokens: spec.context,
        costUsd: round6(turnCost),
        time: iso(turnTime)
      });
      for (const event of COMPACTIONS.filter((c) => c.turn === local)) {
        let summaryCost = 0;
        let summaryTokens = 0;
        if (event.summary) {
          summaryTokens = Math.round(event.summary.length / 3.6);
          const summaryUsage = {
            input: 2_180,
            cache_write: 0,
            cache_read: Math.round(event.before * 0.93),
            output: summaryTokens
          };
          summaryCost = cost(summaryUsage);
          addUsage(usage, summaryUsage);
          costUsd += summaryCost;
        }
        clock += event.ms;
        compactions.push({
          turn,
          layer: event.layer,
          reason: fill(event.reason, block),
          tokens_before: event.before,
          tokens_after: event.after,
          results_cleared: event.clears?.length ?? 0,
          summary_tokens: summaryTokens,
          summary_cost_usd: round6(summaryCost),
          duration_ms: event.ms,
          segment_path:
            event.layer === 'auto' || event.layer === 'manual' || event.layer === 'fallback'
              ? `.transcripts/${RUN_ID}/segments/segment-${String(compactions.filter((c) => c.segment_path).length + 1).padStart(3, '0')}.json`
              : null,
          focus: event.focus ?? null,
          ...(event.summary ? { summary: event.summary } : {}),
          ...(event.clears ? { tool_use_ids: event.clears.map((key) => idOf(`${block}/${key}`)) } : {})
        });
        // A rewrite of the history breaks the prompt cache after the system prompt and tools.
        if (event.layer !== 'spill') cached = SYSTEM_PREFIX_TOKENS;
      }
    }
  }

  const finalText = SCRIPT[SCRIPT.length - 1]!.text;
  return {
    runId: RUN_ID,
    task: TASK,
    thread: undefined,
    model: MODEL,
    stopReason: 'success',
    error: undefined,
    summary: finalText,
    turns: timeline.length,
    durationMs: clock - STARTED,
    startedAt: iso(STARTED),
    usage: usage as UsageRecord,
    costUsd: round6(costUsd),
    contextWindow: CONTEXT_WINDOW,
    compactionThresholdTokens: THRESHOLD,
    contextTokensPerTurn,
    compactions,
    toolStats: [...stats].map(([name, stat]) => ({ name, ...stat })),
    filesChanged: [...files].sort(),
    timeline,
    incomplete: false,
    skippedLines: [],
    // run_start and the task; per turn a request, a response, the reply, a tool_result line per call
    // and the results message; a line per compaction (and a summary exchange's 2); run_end.
    lineCount:
      2 +
      timeline.reduce(
        (sum, turn) => sum + 3 + turn.toolCalls.length + (turn.toolCalls.length > 0 ? 1 : 0),
        0
      ) +
      compactions.reduce((sum, event) => sum + 1 + (event.summary ? 2 : 0), 0) +
      1
  };
}

function cost(usage: UsageRecord): number {
  return (
    (usage.input * PRICES.input +
      usage.cache_write * PRICES.cacheWrite +
      usage.cache_read * PRICES.cacheRead +
      usage.output * PRICES.output) /
    1_000_000
  );
}

function addUsage(
  total: { input: number; cache_write: number; cache_read: number; output: number },
  add: UsageRecord
): void {
  total.input += add.input;
  total.cache_write += add.cache_write;
  total.cache_read += add.cache_read;
  total.output += add.output;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function base62(random: () => number, length: number): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}
