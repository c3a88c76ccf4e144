/** `compact-agent audit --repo`: every run of a repository, each record checked against its report. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { secondaryRateLimit } from '../../../test-support/fake-github/index.js';
import { expectNoContractViolations } from '../../../test-support/github-contract/index.js';
import { AuditWorld, BOT } from '../../support/audit-world.js';
import { cliInProcess, runBuiltCli } from '../../support/cli.js';
import { createTempDir } from '../../support/temp-repo.js';

interface JsonRow {
  run_id: string;
  verdict: string;
  cost_usd: number | null;
  requester: string | null;
  kind: string;
  thread: number | null;
  turns: number | null;
  tools: string[];
  denied_commands: string[];
  refused_hosts: string[];
  files_changed: string[];
  detail: string;
}

interface JsonLedger {
  rows: JsonRow[];
  found: number;
  totals: {
    cost_usd: number;
    verdicts: Record<string, number>;
    by_month: { key: string; runs: number; costUsd: number }[];
    by_requester: { key: string; runs: number; costUsd: number }[];
    by_kind: { key: string; runs: number; costUsd: number }[];
  };
}

const audit = (world: AuditWorld, ...flags: string[]) =>
  cliInProcess(['audit', '--repo', 'acme/widgets', ...flags], world.env());

/** Three runs: one intact, one whose artifact was changed after upload, one whose artifact expired. */
async function threeRuns(world: AuditWorld) {
  const intact = await world.addRun({
    run: 5001,
    requester: 'alice',
    thread: 7,
    costUsd: 0.4213,
    pullRequest: 21,
    reportedAt: '2026-09-03T10:00:00Z'
  });
  const tampered = await world.addRun({
    run: 5002,
    requester: 'bob',
    thread: 8,
    costUsd: 1.25,
    mode: 'plan',
    reportedAt: '2026-10-12T09:30:00Z'
  });
  const expired = await world.addRun({
    run: 5003,
    requester: 'alice',
    thread: 9,
    costUsd: 0.0875,
    mode: 'review',
    reportedAt: '2026-10-20T16:45:00Z'
  });
  world.tamper(tampered);
  world.expire(expired);
  return { intact, tampered, expired };
}

describe('compact-agent audit', () => {
  let world: AuditWorld;
  beforeEach(async () => {
    world = await AuditWorld.start();
  });
  afterEach(async () => {
    await world.close();
  });

  it('three runs give three rows: intact, tampered (where the chain breaks), expired (the report kept); exit 1', async () => {
    const runs = await threeRuns(world);
    const dir = createTempDir('ledger-');
    const csv = path.join(dir, 'ledger.csv');
    const html = path.join(dir, 'ledger.html');
    // The built CLI, as a user runs it.
    const result = await runBuiltCli(
      ['audit', '--repo', 'acme/widgets', '--json', '--csv', csv, '--html', html],
      world.env()
    );
    expect(result.stderr).toContain('Found 3 runs of the agent.');
    expect(result.code).toBe(1);
    const ledger = JSON.parse(result.stdout) as JsonLedger;
    const byRun = new Map(ledger.rows.map((row) => [row.run_id, row]));
    expect(ledger.rows.map((row) => row.run_id)).toEqual(['5003-1', '5002-1', '5001-1']);
    expect(byRun.get(runs.intact.runId)).toMatchObject({
      verdict: 'intact',
      cost_usd: runs.intact.costUsd,
      requester: 'alice',
      kind: 'fix',
      thread: 7,
      turns: 2,
      tools: ['bash×2', 'write_file×1'],
      denied_commands: ['curl (piping a download into a shell)'],
      refused_hosts: ['evil.example:443'],
      files_changed: ['src/flaky.ts']
    });
    expect(byRun.get(runs.intact.runId)?.detail).toContain('ends at the head the report published');
    expect(byRun.get(runs.tampered.runId)).toMatchObject({
      verdict: 'tampered',
      cost_usd: 1.25,
      kind: 'plan'
    });
    expect(byRun.get(runs.tampered.runId)?.detail).toContain(
      'line 3 of 8: its content was changed after it was written'
    );
    // The artifact is gone: the row keeps what the report holds (cost, requester, kind).
    expect(byRun.get(runs.expired.runId)).toMatchObject({
      verdict: 'expired',
      cost_usd: 0.0875,
      requester: 'alice',
      kind: 'review',
      turns: null
    });
    expect(ledger.totals.verdicts).toEqual({
      intact: 1,
      unverified: 0,
      tampered: 1,
      expired: 1,
      missing: 0,
      unreadable: 0
    });
    expect(ledger.totals.cost_usd).toBe(1.7588);
    expect(ledger.totals.by_month).toEqual([
      { key: '2026-09', runs: 1, costUsd: 0.4213 },
      { key: '2026-10', runs: 2, costUsd: 1.3375 }
    ]);
    expect(ledger.totals.by_requester).toEqual([
      { key: 'alice', runs: 2, costUsd: 0.5088 },
      { key: 'bob', runs: 1, costUsd: 1.25 }
    ]);
    expect(ledger.totals.by_kind.map((group) => group.key)).toEqual(['fix', 'plan', 'review']);

    const lines = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^run_id,run_url,time,/);
    expect(lines.find((line) => line.startsWith('5002-1,'))).toContain(',tampered,');
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('href="https://github.com/acme/widgets/actions/runs/5001"');
    expect(page).toContain('<span class="verdict v-tampered">tampered</span>');
    expect(page).not.toMatch(/<script|src="http/);
    expectNoContractViolations(world.github);
  });

  it('reads every page of 250 comments and finds the reports among them', async () => {
    for (let index = 0; index < 250; index++)
      world.github.addComment(7 + (index % 3), {
        user: index % 5 === 0 ? BOT : 'carol',
        body: `comment ${index}`,
        created_at: '2026-08-01T00:00:00Z',
        updated_at: '2026-08-01T00:00:00Z'
      });
    await world.addRun({
      run: 6001,
      requester: 'dave',
      thread: 9,
      costUsd: 0.5,
      reportedAt: '2026-09-01T00:00:00Z'
    });
    const result = await audit(world, '--json');
    expect(result.code).toBe(0);
    const pages = world.github
      .requestsTo('GET', /\/issues\/comments$/)
      .map((request) => request.query.page ?? '1');
    expect(pages).toEqual(['1', '2', '3']);
    expect(result.stderr).toContain('Read 251 comments: 1 reports of the agent so far.');
    const ledger = JSON.parse(result.stdout) as JsonLedger;
    expect(ledger.rows.map((row) => [row.run_id, row.verdict, row.cost_usd])).toEqual([
      ['6001-1', 'intact', 0.5]
    ]);
    expectNoContractViolations(world.github);
  });

  it('a secondary rate limit slows the audit down, says so, and it still completes', async () => {
    await world.addRun({
      run: 7001,
      requester: 'erin',
      thread: 7,
      costUsd: 0.2,
      reportedAt: '2026-09-01T00:00:00Z'
    });
    world.github.failNext(secondaryRateLimit({ method: 'GET', path: /\/issues\/comments$/, times: 1 }, 1));
    world.github.failNext(
      secondaryRateLimit({ method: 'GET', path: /\/actions\/artifacts\/\d+\/zip$/, times: 1 }, 1)
    );
    const result = await audit(world);
    expect(result.stderr).toMatch(/secondary rate limit refused GET .*\/issues\/comments.*waiting 1 s/);
    expect(result.stderr).toMatch(/secondary rate limit refused GET .*\/actions\/artifacts\/.*waiting 1 s/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/7001-1 .* intact/);
    expect(world.github.requestsTo('GET', /\/issues\/comments$/).filter((r) => r.faulted)).toHaveLength(1);
    expectNoContractViolations(world.github);
  });

  it('--since, --until and --limit choose the runs; progress says how many were left out', async () => {
    await threeRuns(world);
    const window = await audit(world, '--json', '--since', '2026-10-01', '--until', '2026-10-15');
    expect((JSON.parse(window.stdout) as JsonLedger).rows.map((row) => row.run_id)).toEqual(['5002-1']);
    const limited = await audit(world, '--json', '--limit', '2');
    const ledger = JSON.parse(limited.stdout) as JsonLedger;
    expect(ledger.rows.map((row) => row.run_id)).toEqual(['5003-1', '5002-1']);
    expect(ledger.found).toBe(3);
    expect(limited.stderr).toContain('Found 3 runs; auditing the newest 2 (--limit 2).');
  });

  it("a sticky report's earlier run: found by its artifact, its cost from the later state's list, unverified (no report of its own)", async () => {
    const first = await world.addRun({
      run: 5101,
      requester: 'alice',
      thread: 7,
      costUsd: 0.7,
      reportedAt: '2026-09-01T00:00:00Z'
    });
    await world.addRun({
      run: 5102,
      requester: 'alice',
      thread: 7,
      costUsd: 0.2,
      reportedAt: '2026-09-02T00:00:00Z',
      previousRuns: [{ runUrl: first.runUrl, costUsd: 0.7 }]
    });
    // Sticky mode: the thread's one report now tells of the second run only.
    world.github.comment(first.reportId)!.body = 'Superseded by the next run.';
    const result = await audit(world, '--json');
    expect(result.code).toBe(0);
    const rows = (JSON.parse(result.stdout) as JsonLedger).rows.map((row) => [
      row.run_id,
      row.verdict,
      row.cost_usd
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['5102-1', 'intact', 0.2],
        ['5101-1', 'unverified', 0.7]
      ])
    );
    expect(rows).toHaveLength(2);
    expect(result.stderr).toContain('1 records are unverified (not counted as intact)');
  });

  it('a run whose artifact was deleted is missing, with its report kept; exit 0 when the rest is intact', async () => {
    const run = await world.addRun({
      run: 8001,
      requester: 'alice',
      thread: 7,
      costUsd: 0.3,
      reportedAt: '2026-09-01T00:00:00Z'
    });
    world.github.artifactFault(run.artifactId, 'missing');
    const result = await audit(world, '--json');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as JsonLedger).rows[0]).toMatchObject({
      verdict: 'missing',
      cost_usd: 0.3
    });
  });

  it('a token without actions: read is said in words, without a stack trace: exit 3', async () => {
    await world.addRun({
      run: 9001,
      requester: 'alice',
      thread: 7,
      costUsd: 0.3,
      reportedAt: '2026-09-01T00:00:00Z'
    });
    world.github.failAlways({ method: 'GET', path: /\/actions\/artifacts$/, status: 403 });
    const result = await audit(world);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'refused to show the Actions artifacts of acme/widgets to this token (403'
    );
    expect(result.stderr).toContain('"Actions: read"');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a repository the token cannot see: exit 3, in words', async () => {
    const result = await cliInProcess(['audit', '--repo', 'acme/nope'], world.env());
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('GitHub answered 404 for the repository of acme/nope');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [['--repo', 'acme'], '--repo "acme" is not OWNER/REPO'],
    [['--repo', 'acme/widgets', '--since', 'last week'], '--since "last week" is not a date'],
    [['--repo', 'acme/widgets', '--limit', '0'], '--limit "0" is not a whole number'],
    [[], 'Which repository? Give --repo OWNER/REPO']
  ])('bad use %j: exit 2 and what to give', async (flags, says) => {
    const result = await cliInProcess(['audit', ...flags], world.env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(says);
  });

  it('no token: exit 2, saying which variables to set', async () => {
    const result = await cliInProcess(['audit', '--repo', 'acme/widgets'], world.env({ GITHUB_TOKEN: '' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No GitHub token: set GITHUB_TOKEN (or GH_TOKEN)');
  });
});
