import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT } from '../../src/cli/exit-codes.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { explorerScript } from '../support/explorer-script.js';
import { cliInProcess, fakeModelEnv } from '../support/cli.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

let repo: TempRepo;
let outside: string;
let fake: FakeAnthropic;
beforeEach(async () => {
  repo = createTempRepo(path.resolve('node_modules/fast-glob/out'));
  outside = createTempDir('compact-agent-cli-');
  fake = await startFakeAnthropic({ script: explorerScript(4) });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

const cli = (...argv: string[]) => cliInProcess(argv, fakeModelEnv(fake.url));

const modelCalls = () => fake.requests.length;

describe('compact-agent run checks every flag before any model call', () => {
  it('runs when the flags are good (so a silent fake below means the flags stopped it)', async () => {
    const run = await cli('run', '--repo', repo.root, '--prompt', 'Explore and take notes.');
    expect(run.code).toBe(EXIT.success);
    expect(modelCalls()).toBeGreaterThan(0);
  });

  const badFlags: ReadonlyArray<{ what: string; args: () => string[]; says: string[] }> = [
    {
      what: 'a --repo that does not exist (and is not created)',
      args: () => ['--repo', path.join(outside, 'nope'), '--prompt', 'x'],
      says: ['--repo', 'no such folder', 'does not create it']
    },
    {
      what: 'an empty --repo (not taken as the current folder)',
      args: () => ['--repo', '', '--prompt', 'x'],
      says: ['--repo is empty']
    },
    {
      what: 'a --repo that is a loop of symbolic links (not called missing)',
      args: () => {
        symlinkSync(path.join(outside, 'loop-b'), path.join(outside, 'loop-a'));
        symlinkSync(path.join(outside, 'loop-a'), path.join(outside, 'loop-b'));
        return ['--repo', path.join(outside, 'loop-a'), '--prompt', 'x'];
      },
      says: ['--repo', 'loop of symbolic links']
    },
    {
      what: 'a --repo that is a file',
      args: () => ['--repo', repo.write('notes.txt', 'hi'), '--prompt', 'x'],
      says: ['--repo', 'is a file, not a folder']
    },
    {
      what: 'a --repo that is not a git repository',
      args: () => ['--repo', outside, '--prompt', 'x'],
      says: ['--repo', 'not a git repository', 'review and undo', 'work ledger', '--allow-non-git']
    },
    {
      what: 'a --repo that is a folder inside a repository',
      args: () => {
        mkdirSync(path.join(repo.root, 'src-sub'), { recursive: true });
        return ['--repo', path.join(repo.root, 'src-sub'), '--prompt', 'x'];
      },
      says: ['--repo', 'is inside the git repository', 'Give its top folder']
    },
    {
      what: 'a word for --max-turns',
      args: () => ['--repo', repo.root, '--prompt', 'x', '--max-turns', 'lots'],
      says: ['--max-turns must be a positive number, got "lots".']
    },
    {
      what: 'a fraction for --micro-keep-recent',
      args: () => ['--repo', repo.root, '--prompt', 'x', '--micro-keep-recent', '2.5'],
      says: ['--micro-keep-recent must be a whole number of 0 or more, got "2.5".']
    },
    {
      what: 'a threshold above the context window',
      args: () => ['--repo', repo.root, '--prompt', 'x', '--compaction-threshold-tokens', '5000000'],
      says: ['--compaction-threshold-tokens is 5000000, but the context window']
    },
    {
      what: 'a negative budget',
      args: () => ['--repo', repo.root, '--prompt', 'x', '--max-budget-usd=-1'],
      says: ['--max-budget-usd must be a positive number, got "-1".']
    },
    {
      what: 'a value that looks like a flag',
      args: () => ['--repo', repo.root, '--prompt', 'x', '--max-budget-usd', '-1'],
      says: ['--max-budget-usd needs a value', 'write --max-budget-usd=VALUE']
    },
    {
      what: 'an unknown model without its prices',
      args: () => ['--repo', repo.root, '--prompt', 'x', '--model', 'gpt-9'],
      says: [
        'Unknown model "gpt-9"',
        'current: claude-sonnet-5-5',
        '--context-window, --input-price-per-mtok and --output-price-per-mtok'
      ]
    },
    {
      what: 'an effort the model does not have',
      args: () => ['--repo', repo.root, '--prompt', 'x', '--effort', 'extreme'],
      says: ['--effort must be one of low, medium, high, xhigh, max for claude-sonnet-5-5, got "extreme".']
    },
    {
      what: 'an unknown flag',
      args: () => ['--repo', repo.root, '--prompt', 'x', '--max-turn', '5'],
      says: ['Unknown flag --max-turn.', 'compact-agent run --help']
    },
    {
      what: 'a flag without its value',
      args: () => ['--repo', repo.root, '--prompt'],
      says: ['--prompt needs a value']
    },
    {
      what: 'no task',
      args: () => ['--repo', repo.root],
      says: ['No task', '--prompt']
    },
    {
      what: 'a --prompt-file that does not exist',
      args: () => ['--repo', repo.root, '--prompt-file', path.join(outside, 'task.md')],
      says: ['--prompt-file', 'no such file']
    },
    {
      what: 'a --prompt-file behind a file used as a folder (in the words every command uses)',
      args: () => ['--repo', repo.root, '--prompt-file', path.join(repo.write('notes.txt', 'hi'), 'task.md')],
      says: ['--prompt-file', 'cannot read it (a part of its path is a file, not a folder).']
    },
    {
      what: 'a --transcripts path that is a file',
      args: () => ['--repo', repo.root, '--prompt', 'x', '--transcripts', repo.write('t.txt', '')],
      says: ['--transcripts', 'is a file, not a folder']
    },
    {
      what: 'an unquoted task',
      args: () => ['--repo', repo.root, '--prompt', 'fix', 'the', 'tests'],
      says: ['does not take "the tests"', 'needs quotes']
    }
  ];

  it.each(badFlags)(
    'refuses $what: exit 2, one paragraph naming the flag, no stack, no model call',
    async (bad) => {
      const args = bad.args();
      const run = await cli('run', ...args);
      expect(run.code).toBe(EXIT.usage);
      for (const text of bad.says) expect(run.stderr).toContain(text);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stderr).not.toMatch(
        /\b(max_turns|micro_keep_recent|compaction_threshold_tokens|context_window)\b/
      );
      expect(run.stdout).toBe('');
      expect(modelCalls()).toBe(0);
      expect(existsSync(path.join(outside, 'nope'))).toBe(false);
      expect(existsSync(path.join(repo.root, '.transcripts'))).toBe(false);
    }
  );

  it('names the environment variable when the API key is missing', async () => {
    const { code, stderr } = await cliInProcess(['run', '--repo', repo.root, '--prompt', 'x'], {
      ANTHROPIC_BASE_URL: fake.url
    });
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('No Anthropic API key: set the environment variable ANTHROPIC_API_KEY');
    expect(stderr).not.toContain('anthropic_api_key');
    expect(modelCalls()).toBe(0);
  });

  it('names ANTHROPIC_BASE_URL when it is not a URL, before any file is written', async () => {
    const { code, stderr } = await cliInProcess(['run', '--repo', repo.root, '--prompt', 'x'], {
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'notaurl',
      PATH: process.env.PATH
    });
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('ANTHROPIC_BASE_URL is "notaurl", which is not an http(s) URL');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(path.join(repo.root, '.transcripts'))).toBe(false);
  });

  it('runs in a folder that is not a git repository only when asked to', async () => {
    writeFileSync(path.join(outside, 'README.md'), '# notes\n');
    const run = await cli('run', '--repo', outside, '--prompt', 'Explore and take notes.', '--allow-non-git');
    expect(run.code).toBe(EXIT.success);
    expect(modelCalls()).toBeGreaterThan(0);
  });

  it('refuses a --transcripts folder it could not write into, before any call', async () => {
    if (process.getuid?.() === 0) return; // root writes anywhere: the permission cannot be taken away
    const locked = path.join(outside, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    const run = await cli(
      'run',
      '--repo',
      repo.root,
      '--prompt',
      'x',
      '--transcripts',
      path.join(locked, 't')
    );
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('is not writable');
    expect(modelCalls()).toBe(0);
  });
});
