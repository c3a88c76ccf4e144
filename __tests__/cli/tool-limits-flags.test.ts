import { existsSync } from 'node:fs';
import path from 'node:path';
import { EXIT } from '../../src/cli/exit-codes.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import {
  reply,
  scriptFrom,
  text,
  toolNames,
  toolResults,
  toolResultText,
  toolUse
} from '../../test-support/fake-anthropic/replies.js';
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
    script: scriptFrom([
      reply(toolUse('bash', { command: 'git status; touch pwned' })),
      reply(text('Stopped.'))
    ])
  });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

const cli = (...argv: string[]) => cliInProcess(argv, fakeModelEnv(fake.url));

const modelCalls = () => fake.requests.filter((request) => request.path === '/v1/messages');

describe('compact-agent run with the tool limit flags', () => {
  it('applies --allowed-bash-commands and --disallowed-tools as the action applies its inputs', async () => {
    const run = await cli(
      'run',
      '--repo',
      repo.root,
      '--prompt',
      'Check.',
      '--allowed-bash-commands',
      'git status',
      '--disallowed-tools',
      'write_file,edit_file'
    );
    expect(run.code).toBe(EXIT.success);
    const [first, second] = modelCalls();
    expect(toolNames(first!.request!)).toEqual(['bash', 'read_file', 'glob', 'grep', 'compact']);
    const [denied] = toolResults(second!.request!);
    expect(toolResultText(denied!)).toContain('(--allowed-bash-commands, --disallowed-bash-commands)');
    expect(existsSync(path.join(repo.root, 'pwned'))).toBe(false);
  });

  it('refuses a bad flag value before any model call, naming the flag', async () => {
    const run = await cli('run', '--repo', repo.root, '--prompt', 'x', '--allowed-tools', 'Read');
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('--allowed-tools names "Read", which is no tool.');
    expect(modelCalls()).toHaveLength(0);
  });
});
