/**
 * The audit's trust root is the agent's workflow, not an artifact's name or the bot account (issue #37's
 * review): any workflow run of the repository (a fork's pull-request CI among them) can upload an
 * artifact of any name with a hash chain of its own, and any workflow that comments with GITHUB_TOKEN
 * comments as github-actions[bot].
 */
import { expectNoContractViolations } from '../../../test-support/github-contract/index.js';
import { AuditWorld, CI_WORKFLOW } from '../../support/audit-world.js';
import { cliInProcess } from '../../support/cli.js';

interface JsonLedger {
  rows: {
    run_id: string;
    verdict: string;
    cost_usd: number | null;
    requester: string | null;
    detail: string;
  }[];
  workflow: string | null;
  ignored: { source: string; reason: string }[];
  totals: { cost_usd: number; verdicts: Record<string, number> };
}

const audit = (world: AuditWorld, ...flags: string[]) =>
  cliInProcess(['audit', '--repo', 'acme/widgets', '--json', ...flags], world.env());

const rowsOf = (stdout: string) =>
  (JSON.parse(stdout) as JsonLedger).rows.map((row) => [row.run_id, row.verdict, row.cost_usd]);

describe('compact-agent audit: records that are not the agent’s', () => {
  let world: AuditWorld;
  beforeEach(async () => {
    world = await AuditWorld.start();
  });
  afterEach(async () => {
    expectNoContractViolations(world.github);
    await world.close();
  });

  const realRun = () =>
    world.addRun({
      run: 4242,
      requester: 'alice',
      thread: 7,
      costUsd: 0.25,
      reportedAt: '2026-10-01T00:00:00Z'
    });

  it("a CI run's artifacts named as transcripts neither add a row nor shadow the agent's run: exit 0", async () => {
    await realRun();
    // The CI run 555 uploads a transcript of its own (any cost, a chain it computed) and one named for
    // run 4242. Their ids are below the fake artifact service's (1000 on), so they are listed first.
    const fabricated = world.fabricatedTranscript('555-1', {
      run: 555,
      requester: 'mallory',
      thread: 7,
      costUsd: 4321,
      reportedAt: '2026-10-02T00:00:00Z'
    });
    world.ciUpload(555, {
      id: 901,
      name: 'agent-transcripts-555-1',
      zip: fabricated.zip,
      createdAt: '2026-10-02T00:00:00Z'
    });
    world.ciUpload(555, {
      id: 902,
      name: 'agent-transcripts-4242-1',
      zip: fabricated.zip,
      createdAt: '2026-10-03T00:00:00Z'
    });
    const result = await audit(world);
    const ledger = JSON.parse(result.stdout) as JsonLedger;
    expect(rowsOf(result.stdout)).toEqual([['4242-1', 'intact', 0.25]]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Checking every record against .github/workflows/agent.yml`);
    expect(ledger.totals.cost_usd).toBe(0.25);
    expect(ledger.ignored).toEqual(
      expect.arrayContaining([
        {
          source: 'artifact 902 (agent-transcripts-4242-1)',
          reason: 'its name says run 4242, but run 555 uploaded it'
        },
        {
          source: 'artifact 901 (agent-transcripts-555-1)',
          reason: `it names run 555 of ${CI_WORKFLOW}, not of this workflow (.github/workflows/agent.yml)`
        }
      ])
    );
  });

  it('an artifact named for a tampered run does not turn "tampered" (exit 1) into "unreadable" (exit 3)', async () => {
    const run = await realRun();
    world.tamper(run);
    world.ciUpload(555, {
      id: 902,
      name: 'agent-transcripts-4242-1',
      zip: Buffer.from('not a zip'),
      createdAt: '2026-10-03T00:00:00Z'
    });
    const result = await audit(world);
    expect(rowsOf(result.stdout)).toEqual([['4242-1', 'tampered', 0.25]]);
    expect(result.code).toBe(1);
  });

  it('--workflow names every file the agent runs from (thread.workflows): a CI fix workflow’s runs are rows too', async () => {
    await realRun();
    await world.addRun({
      run: 4300,
      requester: 'bob',
      thread: 9,
      costUsd: 0.5,
      reportedAt: '2026-10-02T00:00:00Z',
      workflow: '.github/workflows/fix-ci.yml'
    });
    const one = await audit(world, '--workflow', 'agent.yml');
    expect(rowsOf(one.stdout)).toEqual([['4242-1', 'intact', 0.25]]);
    const both = await audit(world, '--workflow', 'agent.yml,fix-ci.yml');
    expect(rowsOf(both.stdout)).toEqual([
      ['4300-1', 'intact', 0.5],
      ['4242-1', 'intact', 0.25]
    ]);
    expect(both.code).toBe(0);
    expect((JSON.parse(both.stdout) as JsonLedger).ignored).toEqual([]);
  });

  it('a run of the agent with no report is unverified, not intact, and said so', async () => {
    const run = await realRun();
    world.github.comment(run.reportId)!.body = 'Thanks!';
    const result = await audit(world);
    const [row] = (JSON.parse(result.stdout) as JsonLedger).rows;
    expect(row).toMatchObject({ run_id: '4242-1', verdict: 'unverified' });
    expect(row!.detail).toContain("no report comment of the agent's workflow names this run");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('1 records are unverified (not counted as intact)');
  });

  describe('report comments another workflow wrote as the same bot', () => {
    const forgeries = async () => {
      const run = await realRun();
      world.github.setWorkflowRun(556, { status: 'completed', path: CI_WORKFLOW });
      // A later copy of the real run's state, with its cost and requester changed.
      world.postReport({
        thread: 8,
        runId: '4242-1',
        runUrl: run.runUrl,
        artifactId: run.artifactId,
        head: run.head,
        costUsd: 0.01,
        requester: 'mallory',
        reportedAt: '2026-10-05T00:00:00Z'
      });
      // States for runs that are not the agent's: one that does not exist, one of the CI workflow.
      for (const [runId, costUsd] of [
        ['900-1', 99999],
        ['556-1', 777]
      ] as const)
        world.postReport({
          thread: 8,
          runId,
          runUrl: world.runUrl(Number(runId.split('-')[0])),
          artifactId: 9,
          head: '0'.repeat(64),
          costUsd,
          requester: 'mallory',
          reportedAt: '2026-10-06T00:00:00Z'
        });
      return run;
    };

    it('runs of several workflows: the audit asks which is the agent’s instead of guessing (exit 2)', async () => {
      await forgeries();
      const result = await audit(world);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('.github/workflows/agent.yml (1 of the');
      expect(result.stderr).toContain(`${CI_WORKFLOW} (1 of the`);
      expect(result.stderr).toContain('give --workflow FILE');
    });

    it('forged states add no row, and a second state for a real run flags it (exit 1)', async () => {
      await forgeries();
      const result = await audit(world, '--workflow', '.github/workflows/agent.yml');
      expect(result.code).toBe(1);
      const ledger = JSON.parse(result.stdout) as JsonLedger;
      expect(rowsOf(result.stdout)).toEqual([['4242-1', 'tampered', 0.01]]);
      expect(ledger.rows[0]!.detail).toContain("2 report comments carry run 4242-1's state");
      expect(ledger.ignored.map((record) => record.reason)).toEqual(
        expect.arrayContaining([
          'a report of run 900-1, but it names run 900, which this repository does not have',
          `a report of run 556-1, but it names run 556 of ${CI_WORKFLOW}, not of this workflow (.github/workflows/agent.yml)`
        ])
      );
    });
  });

  it("a report whose cost is not its transcript's is flagged, though the chain holds (exit 1)", async () => {
    await world.addRun({
      run: 4242,
      requester: 'alice',
      thread: 7,
      costUsd: 0.25,
      reportedCostUsd: 0.01,
      reportedAt: '2026-10-01T00:00:00Z'
    });
    const result = await audit(world);
    expect(result.code).toBe(1);
    const [row] = (JSON.parse(result.stdout) as JsonLedger).rows;
    expect(row).toMatchObject({
      verdict: 'tampered',
      detail: 'the report says the run cost $0.01, its transcript says $0.25'
    });
  });

  it('--workflow that is no workflow file: exit 2, saying what to give', async () => {
    const result = await audit(world, '--workflow', 'src/agent.ts');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give its path, e.g. --workflow .github/workflows/agent.yml');
  });
});
