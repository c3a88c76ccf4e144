/**
 * `.transcripts` swapped for a link during the agent's turns, through the built CLI in the box. The
 * run folder's path is checked at the start (transcripts-link.test.ts), but the agent's command can
 * then replace `.transcripts` with a link to a folder of the host. What the run writes after that
 * (a spilled tool result, the state for --resume) must not land where the link points: nothing
 * lands outside the box and the repository.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { reply, scriptFrom, text, toolUse } from '../../test-support/fake-anthropic/replies.js';
import { describeWithBox } from '../sandbox/box-support.js';
import { fakeModelEnv, runBuiltCli } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

let repo: TempRepo;
let fake: FakeAnthropic;
let elsewhere: string;

beforeEach(async () => {
  // In the host's temp folder, which the box does not show: only the action, outside it, could write here.
  elsewhere = mkdtempSync(path.join(os.tmpdir(), 'compact-agent-swapped-'));
  repo = createTempRepo();
  repo.write('README.md', 'x\n');
  repo.git('add', '-A');
  repo.git('commit', '--quiet', '-m', 'seed');
  // The swap, then an answer long enough to be spilled to the run folder's tool-results/ (stdout and
  // stderr are each cut to 30,000 characters; together they pass the 50,000 a result may have).
  const swap = `mv .transcripts .old-transcripts && ln -s ${elsewhere} .transcripts && seq 1 40000 && seq 1 40000 >&2`;
  fake = await startFakeAnthropic({
    script: scriptFrom([reply(toolUse('bash', { command: swap })), reply(text('Counted.'))])
  });
});

afterEach(async () => {
  await fake.close();
  repo.remove();
  rmSync(elsewhere, { recursive: true, force: true });
});

describeWithBox('.transcripts swapped for a link mid-run (built CLI, in the box)', () => {
  it('writes nothing where the link points, and says what was not saved', async () => {
    const finished = await runBuiltCli(
      ['run', '--repo', repo.root, '--prompt', 'Count to 40000.', '--sandbox', 'required'],
      fakeModelEnv(fake.url)
    );
    expect(finished.code).toBe(0);
    const calls = fake.requests.filter((request) => request.path === '/v1/messages');
    // What the model was shown of the command: a preview and where the rest is (or why it is not).
    const shown = /"tool_result"[^]*?"content":"((?:[^"\\]|\\.)*)"/.exec(
      JSON.stringify(calls[1]!.request)
    )![1]!;
    expect(shown.length).toBeLessThan(10_000); // spilled: only a preview went to the model
    // The swap ran in the box (its output reached the model), so what follows is the defence.
    expect(shown).toContain('\\n2\\n3\\n');
    // The long result was not spilled through the link; the model is told why, briefly.
    expect(shown).toMatch(/not saved: Refusing to write .*is a symbolic link/);
    // The state for --resume was not written through it either, and the CLI says so.
    expect(finished.stderr).toContain('The state for --resume could not be saved');
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
