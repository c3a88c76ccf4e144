import path from 'node:path';
import { EXIT } from '../../src/cli/exit-codes.js';
import {
  reply,
  scriptFrom,
  startFakeAnthropic,
  text,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import { cliInProcess, fakeModelEnv } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

let repo: TempRepo;
let fake: FakeAnthropic;
beforeEach(async () => {
  repo = createTempRepo();
  repo.write('README.md', 'hi\n');
  repo.git('add', '-A');
  repo.git('commit', '--quiet', '-m', 'seed');
  fake = await startFakeAnthropic({
    script: scriptFrom([reply(text('Looked.')), reply(text('```json\n{"verdict": "fine"}\n```'))])
  });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

const cli = (...argv: string[]) => cliInProcess(argv, fakeModelEnv(fake.url));

describe('compact-agent run --json-schema', () => {
  it('reads the schema from a file and prints the checked answer', async () => {
    repo.write(
      'verdict.schema.json',
      '{"type": "object", "properties": {"verdict": {"enum": ["fine", "broken"]}}, "required": ["verdict"]}'
    );
    const schema = path.join(repo.root, 'verdict.schema.json');
    const run = await cli('run', '--repo', repo.root, '--prompt', 'Check it.', '--json-schema', schema);
    expect(run.code).toBe(EXIT.success);
    expect(run.stdout).toContain('structured output: {"verdict":"fine"}');
  });

  it('refuses a schema that is not one, before any model call', async () => {
    const run = await cli(
      'run',
      '--repo',
      repo.root,
      '--prompt',
      'Check it.',
      '--json-schema',
      '{"type": "text"}'
    );
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('--json-schema is not a usable JSON Schema: /type: type must be one of');
    expect(fake.requests.filter((request) => request.path === '/v1/messages')).toHaveLength(0);
  });
});
