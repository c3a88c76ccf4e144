/**
 * A key pasted into the task of `compact-agent run` (the real entry point, from src/ through tsx)
 * never reaches the model: runSession redacts the task with the secrets the CLI hands it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT } from '../../src/cli/exit-codes.js';
import {
  messageText,
  reply,
  startFakeAnthropic,
  text,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import { cliEnv, spawnCli } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

// Shapes no redaction pattern knows: only their values, as the CLI's environment holds them, hide them.
const API_KEY = 'test-api-key-pasted-7c41d9e2b8';
const GH_TOKEN = 'gh-cli-token-value-5e93a17f02';
const GITHUB_TOKEN = 'github-token-value-0b6d8c4f91';

let repo: TempRepo;
let fake: FakeAnthropic;
beforeEach(async () => {
  repo = createTempRepo();
  repo.write('README.md', '# demo\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'first');
  fake = await startFakeAnthropic({ script: () => reply(text('Done: nothing to change.')), apiKey: API_KEY });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

/** `compact-agent run` in a child process (the fake answers in this one, so it must not block). */
const cli = (...args: string[]) =>
  spawnCli(args, {
    env: cliEnv({ ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: fake.url, GH_TOKEN, GITHUB_TOKEN })
  });

/** Every file of every run folder, as text. */
function runFolderTexts(): string[] {
  const transcripts = path.join(repo.root, '.transcripts');
  return readdirSync(transcripts, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
}

it('sends the model the task with the API key and the GitHub tokens replaced, and writes them nowhere', async () => {
  const task =
    `Configure the client. My key is ${API_KEY}, the gh token ${GH_TOKEN} ` +
    `and the Actions one ${GITHUB_TOKEN}; keep them out of the repository.`;
  const run = await cli('run', '--repo', repo.root, '--prompt', task);
  // The stderr rides along so that a failed run shows why.
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: EXIT.success, stderr: expect.any(String) });

  const messages = fake.requests.filter((record) => record.path === '/v1/messages');
  expect(messages.length).toBeGreaterThan(0);
  // The task did arrive, with each secret replaced in place.
  expect(messageText(messages[0]!.request!.messages[0]!)).toContain(
    'Configure the client. My key is ***, the gh token *** and the Actions one ***; keep them out'
  );
  // The key is in the Authorization header by necessity; no body the fake received holds any of them.
  for (const record of fake.requests) {
    const body = JSON.stringify(record.body ?? '');
    for (const secret of [API_KEY, GH_TOKEN, GITHUB_TOKEN]) expect(body).not.toContain(secret);
  }
  for (const written of [...runFolderTexts(), run.stdout, run.stderr])
    for (const secret of [API_KEY, GH_TOKEN, GITHUB_TOKEN]) expect(written).not.toContain(secret);
});

it('redacts a --resume follow-up too: the request and the carried record reach the model with the key replaced', async () => {
  const first = await cli('run', '--repo', repo.root, '--prompt', 'Fix the word count.');
  expect({ code: first.code, stderr: first.stderr }).toEqual({
    code: EXIT.success,
    stderr: expect.any(String)
  });
  const resumed = await cli(
    'run',
    '--repo',
    repo.root,
    '--resume',
    path.join(repo.root, '.transcripts'),
    '--prompt',
    `also use my key ${API_KEY} for the client`
  );
  expect({ code: resumed.code, stderr: resumed.stderr }).toEqual({
    code: EXIT.success,
    stderr: expect.any(String)
  });
  const messages = fake.requests.filter((record) => record.path === '/v1/messages');
  const followUpFirst = messageText(messages.at(-1)!.request!.messages[0]!);
  expect(followUpFirst).toContain('<previous-run>');
  expect(followUpFirst).toContain('also use my key *** for the client');
  for (const record of fake.requests) expect(JSON.stringify(record.body ?? '')).not.toContain(API_KEY);
  for (const written of runFolderTexts()) expect(written).not.toContain(API_KEY);
});
