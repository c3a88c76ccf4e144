import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SANDBOX } from '../../src/config/sandbox-input.js';
import { prepareHostedRunner } from '../../src/sandbox/host-prepare.js';
import { openSessionBox, SandboxUnavailableError } from '../../src/sandbox/session-box.js';

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'compact-agent-session-box-'));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

// A bubblewrap that is not there: what a runner without the package looks like.
const settings = () => ({
  workspace,
  env: { PATH: process.env.PATH, HOME: os.homedir() },
  bwrap: 'no-such-bwrap'
});

describe('the run’s box by the sandbox input', () => {
  it('auto without a box: runs without it, with the reason, and a warning for the job log', async () => {
    const notices: string[] = [];
    const session = await openSessionBox(DEFAULT_SANDBOX, settings(), (line) => notices.push(line));
    expect(session.box).toBeUndefined();
    expect(session.record).toEqual({
      state: 'off',
      network: 'allowlist',
      reason: 'no-such-bwrap is not installed (Debian and Ubuntu: apt-get install bubblewrap)'
    });
    expect(notices).toEqual([
      expect.stringMatching(/^Warning: the agent's commands run WITHOUT the sandbox/)
    ]);
  });

  it('required without a box: stops, saying what to install and what to set instead', async () => {
    const failure = openSessionBox({ ...DEFAULT_SANDBOX, mode: 'required' }, settings());
    await expect(failure).rejects.toThrow(SandboxUnavailableError);
    await expect(failure).rejects.toThrow(/apt-get install bubblewrap.*set sandbox to auto or off/);
  });

  it('off: no box, no warning', async () => {
    const notices: string[] = [];
    const session = await openSessionBox({ ...DEFAULT_SANDBOX, mode: 'off' }, settings(), (line) =>
      notices.push(line)
    );
    expect(session.record.state).toBe('off');
    expect(notices).toEqual([]);
  });
});

describe('preparing the runner', () => {
  it('changes nothing outside a GitHub-hosted runner (a self-hosted machine is its owner’s)', () => {
    expect(
      prepareHostedRunner({ RUNNER_ENVIRONMENT: 'self-hosted' }, 'loopback: Failed RTM_NEWADDR')
    ).toEqual({
      tried: false,
      ok: false,
      summary: ''
    });
    expect(prepareHostedRunner({}, 'loopback: Failed RTM_NEWADDR').tried).toBe(false);
  });
});
