import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { cliEnv, runBuiltCli, spawnNode } from '../support/cli.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { explorerScript } from '../support/explorer-script.js';

let repo: TempRepo;
let fake: FakeAnthropic;
beforeEach(async () => {
  repo = createTempRepo(path.resolve('node_modules/fast-glob/out'));
  fake = await startFakeAnthropic({ script: explorerScript(6) });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

const messageCalls = () => fake.requests.filter((request) => request.path === '/v1/messages').length;

describe('dist/cli/index.js', () => {
  it('runs the loop, shows progress on stderr and ends with the summary and transcript path', async () => {
    const finished = await runBuiltCli(
      ['run', '--repo', repo.root, '--prompt', 'Explore and take notes.'],
      cliEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url })
    );
    expect(finished.code).toBe(0);
    expect(finished.stderr).toMatch(/\[turn 3\] [\d.k]+ context tokens · \$0\.\d{4} · read_file providers\//);
    expect(finished.stdout).toContain('Explored');
    expect(finished.stdout).toContain('stop reason: success');
    const transcript = /transcript: (.+transcript\.jsonl)/.exec(finished.stdout)?.[1];
    expect(transcript).toBeDefined();
    expect(readFileSync(transcript!, 'utf8').trimEnd().split('\n').length).toBeGreaterThan(20);
  });

  it('refuses bad input with exit code 2 before any model call', async () => {
    const noKey = await runBuiltCli(
      ['run', '--repo', repo.root, '--prompt', 'x'],
      cliEnv({ ANTHROPIC_BASE_URL: fake.url })
    );
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('No Anthropic API key');
    const badLimit = await runBuiltCli(
      ['run', '--repo', repo.root, '--prompt', 'x', '--max-turns', 'lots'],
      cliEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.url })
    );
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain('--max-turns must be a positive number, got "lots".');
    const noTask = await runBuiltCli(['run', '--repo', repo.root], cliEnv({ ANTHROPIC_API_KEY: 'k' }));
    expect(noTask.code).toBe(2);
    expect(noTask.stderr).toContain('No task');
    expect(messageCalls()).toBe(0);
  });
});

describe('npm run demo', () => {
  it('runs the built action on a webhook payload against the fakes, every compaction layer fires, and the pushed fix passes the tests', async () => {
    const finished = await spawnNode([path.resolve('node_modules/tsx/dist/cli.mjs'), 'demo/run-demo.ts'], {
      env: cliEnv()
    });
    expect(finished.stdout).toContain('Thresholds lowered for the demo');
    expect(finished.stdout).toContain('before: npm test fails');
    expect(finished.stdout).toMatch(
      /compactions by layer: spill [1-9]\d* · micro [1-9]\d* · auto [1-9]\d* · manual [1-9]\d*; cache reads: [1-9]\d*% of input tokens/
    );
    // The report shows the cache reads and the compaction log.
    expect(finished.stdout).toMatch(/\| \d+ \| [\d,]+ \| [\d,]+ \| [1-9][\d,]* \| [\d,]+ \| \$\d/);
    expect(finished.stdout).toContain('<summary>Compaction log');
    expect(finished.stdout).toMatch(/thinking blocks sent back: [1-9]\d*/);
    expect(finished.stdout).toMatch(/pushed branch: agent\/1-[0-9a-f]{6}; npm test on it passes/);
    expect(finished.stdout).toContain('rejected by the strict fake: 0');
    expect(finished.stdout).toContain('✅ Done · `success`');
    expect(finished.stdout).toContain('artifact: agent-transcripts-4242-1');
    expect(finished.code).toBe(0);
  });
});
