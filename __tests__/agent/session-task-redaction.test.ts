/**
 * runSession redacts the task itself, with the `redact` its caller gives it: the action passes the
 * task (and the thread's text) as written, and a pasted secret still never reaches the model.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runSession } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { Redactor } from '../../src/security/redactor.js';
import {
  messageText,
  reply,
  startFakeAnthropic,
  text,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

const API_KEY = 'session-test-key-4b2f8e61d0';
const PASTED = 'a-pasted-secret-value-93c7a5';

let repo: TempRepo;
let fake: FakeAnthropic;
beforeEach(async () => {
  repo = createTempRepo();
  fake = await startFakeAnthropic({ script: () => reply(text('Done.')) });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

it('redacts the task with the redactor it is given before the first request and the transcript', async () => {
  const config = parseAgentConfig(() => '', { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: fake.url });
  const outcome = await runSession({
    config,
    task: `Use ${PASTED} and the key ${API_KEY} to call the service.`,
    repoDir: repo.root,
    transcriptsDir: path.join(repo.root, '.transcripts'),
    runId: 'redaction-run',
    env: { PATH: process.env.PATH },
    redact: new Redactor([API_KEY, PASTED]).redact
  });
  expect(outcome.result.stopReason).toBe('success');
  const [first] = fake.requests.filter((record) => record.path === '/v1/messages');
  expect(messageText(first!.request!.messages[0]!)).toBe('Use *** and the key *** to call the service.');
  const transcript = readFileSync(outcome.transcriptPath, 'utf8');
  expect(transcript).toContain('Use *** and the key *** to call the service.');
  for (const secret of [API_KEY, PASTED]) {
    expect(JSON.stringify(fake.requests.map((record) => record.body))).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }
});
