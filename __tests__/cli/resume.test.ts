import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT } from '../../src/cli/exit-codes.js';
import { carriedStateSchema } from '../../src/followup/carried-state.js';
import { STATE_FILE } from '../../src/followup/state-file.js';
import {
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';
import { cliInProcess, fakeModelEnv } from '../support/cli.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

let repo: TempRepo;
let outside: string;
let fake: FakeAnthropic;

/** The first message of a request, as text. */
function firstMessage(request: ParsedRequest): string {
  const content = request.messages[0]?.content ?? '';
  return typeof content === 'string' ? content : content.map((b) => ('text' in b ? b.text : '')).join('\n');
}

beforeEach(async () => {
  repo = createTempRepo();
  repo.write('README.md', '# demo\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'first');
  outside = createTempDir('compact-agent-resume-');
  // Each run's summary says whether it was given a previous run.
  fake = await startFakeAnthropic({
    script: (request) =>
      reply(text(`SUMMARY-${firstMessage(request).includes('<previous-run') ? 'FOLLOW-UP' : 'FIRST'}: done.`))
  });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

const cli = (...argv: string[]) => cliInProcess(argv, fakeModelEnv(fake.url));

const transcripts = () => path.join(repo.root, '.transcripts');
const runFolders = () => readdirSync(transcripts()).sort();
const stateOf = (runFolder: string) =>
  carriedStateSchema.parse(JSON.parse(readFileSync(path.join(transcripts(), runFolder, STATE_FILE), 'utf8')));
const messageRequests = () => fake.requests.filter((r) => r.path === '/v1/messages');

describe('compact-agent run --resume', () => {
  it('continues from a .transcripts folder, a run folder or an artifact zip, carrying the summary as data', async () => {
    expect((await cli('run', '--repo', repo.root, '--prompt', 'Fix the word count.')).code).toBe(
      EXIT.success
    );
    const [firstRun] = runFolders();
    expect(stateOf(firstRun!)).toMatchObject({
      task: 'Fix the word count.',
      summary: 'SUMMARY-FIRST: done.'
    });

    const before = messageRequests().length;
    const second = await cli(
      'run',
      '--repo',
      repo.root,
      '--resume',
      transcripts(),
      '--prompt',
      'Also negatives.'
    );
    expect(second.code).toBe(EXIT.success);
    const task = firstMessage(messageRequests()[before]!.request!);
    expect(task).toMatch(/^<previous-run>\n[\s\S]*"original_task": "Fix the word count\."/);
    expect(/<previous-run[\s\S]*<\/previous-run>/.exec(task)?.[0]).toContain('SUMMARY-FIRST: done.');
    expect(/<current-request>[\s\S]*<\/current-request>/.exec(task)?.[0]).toContain('Also negatives.');
    const secondRun = runFolders().find((name) => name !== firstRun)!;
    const secondState = stateOf(secondRun);
    expect(secondState).toMatchObject({
      task: 'Fix the word count.',
      summary: 'SUMMARY-FOLLOW-UP: done.',
      recentUserMessages: ['Fix the word count.', 'Also negatives.']
    });
    expect(secondState.previousRuns).toHaveLength(1);

    // The artifact zip of the second run (zipped as GitHub serves it) continues it in turn.
    const zipFile = path.join(outside, 'artifact.zip');
    execFileSync('zip', ['-qr', zipFile, secondRun], { cwd: transcripts() });
    const third = await cli('run', '--repo', repo.root, '--resume', zipFile, '--prompt', 'And zero.');
    expect(third.code).toBe(EXIT.success);
    const lastRequest = () => messageRequests().at(-1)!.request!;
    expect(lastRequest().messages).toHaveLength(1);
    const thirdTask = firstMessage(lastRequest());
    expect(thirdTask).toContain('SUMMARY-FOLLOW-UP: done.');
    expect(thirdTask).toContain('And zero.');

    // A run folder of its own: the first run's.
    const fourth = await cli(
      'run',
      '--repo',
      repo.root,
      '--resume',
      path.join(transcripts(), firstRun!),
      '--prompt',
      'Redo.'
    );
    expect(fourth.code).toBe(EXIT.success);
    expect(firstMessage(lastRequest())).toContain('SUMMARY-FIRST: done.');
    expect(firstMessage(lastRequest())).not.toContain('SUMMARY-FOLLOW-UP');
  });

  it('refuses, before any model call, a folder without a state and a state that does not match the schema', async () => {
    const empty = await cli('run', '--repo', repo.root, '--resume', outside, '--prompt', 'x');
    expect(empty.code).toBe(EXIT.usage);
    expect(empty.stderr).toContain(`No ${STATE_FILE} in ${outside}`);
    writeFileSync(path.join(outside, STATE_FILE), JSON.stringify({ version: 1, task: 'x'.repeat(50_000) }));
    const forged = await cli('run', '--repo', repo.root, '--resume', outside, '--prompt', 'x');
    expect(forged.code).toBe(EXIT.usage);
    expect(forged.stderr).toContain("does not match the carried state's schema");
    expect(fake.requests).toHaveLength(0);
  });
});

describe('the state file the CLI leaves after the agent ran', () => {
  it('is never written through a link the agent planted at its name', async () => {
    const victim = path.join(outside, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    await fake.close();
    // The model, during its turn, points <run>/carried-state.json at a file outside the repository.
    let turn = 0;
    fake = await startFakeAnthropic({
      script: () =>
        turn++ === 0
          ? reply(
              toolUse('bash', {
                command: `for d in .transcripts/*/; do ln -s ${victim} "\${d}${STATE_FILE}"; done; echo planted`
              })
            )
          : reply(text('done.'))
    });
    const { code, stderr } = await cli('run', '--repo', repo.root, '--prompt', 'plant a link');
    expect(code).toBe(EXIT.success);
    const planted = path.join(transcripts(), runFolders()[0]!, STATE_FILE);
    // The link was really there when the CLI came to write the state.
    expect(lstatSync(planted).isSymbolicLink()).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(stderr).toMatch(/The state for --resume could not be saved: .*symbolic link/);
  });
});
