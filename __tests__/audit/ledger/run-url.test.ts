/** `compact-agent transcript <run URL>` and `transcript verify <run URL>`, end to end with the built CLI. */
import { expectNoContractViolations } from '../../../test-support/github-contract/index.js';
import { AuditWorld, type RecordedRun } from '../../support/audit-world.js';
import { runBuiltCli } from '../../support/cli.js';

describe('transcript and verify of a run URL (the built CLI against the fake GitHub)', () => {
  let world: AuditWorld;
  let intact: RecordedRun;
  let tampered: RecordedRun;
  let expired: RecordedRun;
  beforeAll(async () => {
    world = await AuditWorld.start();
    const run = (number: number, thread: number) =>
      world.addRun({
        run: number,
        requester: 'alice',
        thread,
        costUsd: 0.25,
        reportedAt: '2026-10-01T00:00:00Z'
      });
    intact = await run(4242, 7);
    tampered = await run(4243, 8);
    expired = await run(4244, 9);
    world.tamper(tampered);
    world.expire(expired);
    // A run of another workflow: no transcript artifact.
    world.github.setWorkflowRun(999, { status: 'completed', path: '.github/workflows/ci.yml' });
  });
  afterAll(async () => {
    await world.close();
  });
  afterEach(() => {
    expectNoContractViolations(world.github);
  });

  it('transcript <run URL> downloads the artifact and prints its summary', async () => {
    const result = await runBuiltCli(['transcript', intact.runUrl, '--json'], world.env());
    expect(result.stderr).toContain(`Downloading ${intact.artifactName}`);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      run_id: '4242-1',
      cost_usd: 0.25,
      files_changed: ['src/flaky.ts']
    });
  });

  it("verify <run URL> checks the chain against the head the run's report published", async () => {
    const result = await runBuiltCli(['transcript', 'verify', `${intact.runUrl}/attempts/1`], world.env());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`the hash chain is intact (8 lines, head ${intact.head})`);
    expect(result.stdout).toContain(
      "It ends at the head the run's report published (https://github.com/acme/widgets/issues/7#issuecomment-"
    );
  });

  it('verify <run URL> of an artifact changed after upload: exit 1, naming the line', async () => {
    const result = await runBuiltCli(['transcript', 'verify', tampered.runUrl], world.env());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Line 3 is the first bad line');
  });

  it('verify <run URL> with a report by another bot: only the chain, and says so', async () => {
    const result = await runBuiltCli(
      ['transcript', 'verify', intact.runUrl, '--bot', 'my-app[bot]'],
      world.env()
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('No report comment of run 4242 publishes its transcript head');
  });

  it.each([
    [
      'an expired artifact',
      () => expired.runUrl,
      3,
      'has expired (GitHub deletes artifacts after their retention)'
    ],
    [
      'a run that is not the agent\u2019s',
      () => 'https://github.com/acme/widgets/actions/runs/999',
      3,
      'uploaded no compact-agent transcript'
    ],
    [
      'a run that does not exist',
      () => 'https://github.com/acme/widgets/actions/runs/31337',
      3,
      'has no workflow run 31337'
    ],
    [
      'a URL of another host',
      () => 'https://gitlab.com/acme/widgets/actions/runs/4242',
      2,
      'gitlab.com is not github.com'
    ],
    [
      'a URL that is no run',
      () => 'https://github.com/acme/widgets/pull/3',
      2,
      'is not the page of a workflow run'
    ]
  ])('%s: a clear error without a stack trace', async (_name, url, code, says) => {
    for (const args of [
      ['transcript', url()],
      ['transcript', 'verify', url()]
    ]) {
      const result = await runBuiltCli(args, world.env());
      expect(result.code).toBe(code);
      expect(result.stderr).toContain(says);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('a token GitHub refuses: exit 3, saying so', async () => {
    const result = await runBuiltCli(['transcript', intact.runUrl], world.env({ GITHUB_TOKEN: 'ghs_wrong' }));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('GitHub refused the token (401 Bad credentials)');
  });
});
