/** `compact-agent transcript <run URL>` and `transcript verify <run URL>`, end to end with the built CLI. */
import { expectNoContractViolations } from '../../../test-support/github-contract/index.js';
import { AuditWorld, type RecordedRun } from '../../support/audit-world.js';
import { buildZip } from '../zip-builder.js';
import { runBuiltCli } from '../../support/cli.js';

describe('transcript and verify of a run URL (the built CLI against the fake GitHub)', () => {
  let world: AuditWorld;
  let intact: RecordedRun;
  let tampered: RecordedRun;
  let expired: RecordedRun;
  let reportedTwice: RecordedRun;
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
    // CI runs that upload what they like: run 555 the real run 4242's artifact under its own name,
    // run 556 an artifact named for run 4242.
    const copied = world.artifacts.artifact(intact.artifactName)!.bytes;
    world.ciUpload(555, {
      id: 901,
      name: 'agent-transcripts-555-1',
      zip: copied,
      createdAt: '2026-10-02T00:00:00Z'
    });
    world.ciUpload(556, {
      id: 902,
      name: 'agent-transcripts-4242-1',
      zip: copied,
      createdAt: '2026-10-02T00:00:00Z'
    });
    // A later comment of another workflow carrying run 4245's state, its cost changed.
    reportedTwice = await run(4245, 7);
    world.postReport({
      thread: 8,
      runId: reportedTwice.runId,
      runUrl: reportedTwice.runUrl,
      artifactId: reportedTwice.artifactId,
      head: reportedTwice.head,
      costUsd: 0.01,
      requester: 'mallory',
      reportedAt: '2026-10-03T00:00:00Z'
    });
    // A run of the agent's workflow whose zip's entry name carries terminal escapes.
    const entries = world.artifacts.files(intact.artifactName);
    world.github.setWorkflowRun(4246, { status: 'completed' });
    world.github.addArtifact({
      id: 903,
      name: 'agent-transcripts-4246-1',
      bytes: buildZip(
        [...entries].map(([, data]) => ({
          name: '4246-1\u001b]0;owned\u0007\u001b[2K/transcript.jsonl',
          data
        }))
      ),
      workflowRun: { id: 4246 },
      createdAt: '2026-10-02T00:00:00Z'
    });
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

  it("verify <run URL> of a run whose artifact holds another run's transcript: exit 1, naming both", async () => {
    const result = await runBuiltCli(['transcript', 'verify', world.runUrl(555)], world.env());
    expect(result.stderr).toContain('holds the transcript of run 4242-1, not of run 555 the URL names');
    expect(result.code).toBe(1);
    const shown = await runBuiltCli(['transcript', world.runUrl(555)], world.env());
    expect(shown.stderr).toContain(
      '⚠️ agent-transcripts-555-1.zip:4242-1/transcript.jsonl holds the transcript of run 4242-1'
    );
  });

  it("an artifact named for another run is not that run's transcript: exit 3", async () => {
    const result = await runBuiltCli(['transcript', world.runUrl(556)], world.env());
    expect(result.stderr).toContain('Run 556 of acme/widgets uploaded no compact-agent transcript');
    expect(result.code).toBe(3);
  });

  it("verify <run URL> when two comments carry the run's state: flagged, exit 1", async () => {
    const result = await runBuiltCli(['transcript', 'verify', reportedTwice.runUrl], world.env());
    expect(result.stderr).toContain("2 report comments carry run 4245's state");
    expect(result.code).toBe(1);
  });

  it('transcript <run URL>: a zip entry name cannot send control characters to the terminal', async () => {
    for (const args of [
      ['transcript', world.runUrl(4246)],
      ['transcript', 'verify', world.runUrl(4246)]
    ]) {
      const result = await runBuiltCli(args, world.env());
      const printed = result.stdout + result.stderr;
      expect(printed).toContain('4246-1\\x1b]0;owned\\x07\\x1b[2K/transcript.jsonl');
      expect(printed).not.toMatch(/(?!\n)\p{Cc}/u);
    }
  });

  it('a token GitHub refuses: exit 3, saying so', async () => {
    const result = await runBuiltCli(['transcript', intact.runUrl], world.env({ GITHUB_TOKEN: 'ghs_wrong' }));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('GitHub refused the token (401 Bad credentials)');
  });
});
