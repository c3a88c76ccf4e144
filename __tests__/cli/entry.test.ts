import { readFileSync } from 'node:fs';
import type { CliCommand } from '../../src/cli/command.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { RUNNER_VARIABLES } from '../../src/action/actions-environment.js';
import { bundleSources } from '../../test-support/source-bundle.js';
import { cliEnv, cliInProcess, spawnCli, spawnNode } from '../support/cli.js';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

/** The CLI's real entry point, from the sources (the committed dist/ is rebuilt separately). */
const cli = (...args: string[]) => spawnCli(args, { env: cliEnv() });

describe('compact-agent version and help', () => {
  it('prints the version of package.json with --version, -V, and after a command', async () => {
    for (const args of [['--version'], ['run', '-V']]) {
      const run = await cli(...args);
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(manifest.version);
    }
  });

  it('lists the commands and the exit codes with help', async () => {
    const run = await cli('help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\s+run\s+run the agent/m);
    expect(run.stdout).toMatch(/^\s+transcript\s+summarise a run/m);
    expect(run.stdout).toContain('Exit codes: 0 success, 1 the run ended without success, 2 usage error');
  });

  it('shows one command with examples, by <command> --help or help <command>', async () => {
    const flag = await cli('run', '--help');
    expect(flag.code).toBe(0);
    expect(flag.stdout).toContain('Usage: compact-agent run --repo DIR');
    expect(flag.stdout).toContain('Examples:\n  compact-agent run --repo ../my-project');
    expect((await cli('help', 'run')).stdout).toBe(flag.stdout);
    const transcript = await cli('transcript', '-h');
    expect(transcript.code).toBe(0);
    expect(transcript.stdout).toContain('Examples:\n  compact-agent transcript .transcripts');
  });

  it('answers a bare call, an unknown command and an unknown help topic with usage (exit 2)', async () => {
    const bare = await cli();
    expect(bare.code).toBe(2);
    expect(bare.stdout).toContain('Usage: compact-agent <command>');
    for (const args of [['frobnicate'], ['help', 'frobnicate']]) {
      const run = await cli(...args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        'Unknown command "frobnicate". The commands are run, review, transcript, audit, init, fanout, and help'
      );
    }
  });

  it('shows no stack trace for a bad --repo given to the real entry point', async () => {
    const run = await cli('run', '--repo', 'package.json', '--prompt', 'x');
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      "compact-agent run: --repo package.json: this is a file, not a folder. Give the project's folder, e.g. --repo ."
    );
  });
});

describe('an unexpected error', () => {
  const broken: CliCommand = {
    name: 'explode',
    summary: 'fails',
    help: 'Usage: compact-agent explode',
    stringFlags: [],
    booleanFlags: [],
    maxPositionals: 0,
    execute: () => Promise.reject(new Error('disk on fire'))
  };
  const capture = (argv: string[]) => cliInProcess(argv, {}, [broken]);

  it('is one paragraph pointing to --debug, without a stack (exit 4)', async () => {
    const run = await capture(['explode']);
    expect(run.code).toBe(EXIT.internal);
    expect(run.stderr).toContain('compact-agent explode stopped on an unexpected error: disk on fire');
    expect(run.stderr).toContain('--debug');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('shows the stack with --debug', async () => {
    const run = await capture(['explode', '--debug']);
    expect(run.code).toBe(EXIT.internal);
    expect(run.stderr).toMatch(/Error: disk on fire\n\s+at /);
  });
});

describe('the action entry point (src/index.ts) outside GitHub Actions', () => {
  const entry = (env: NodeJS.ProcessEnv) => spawnNode([bundleSources('src/index.ts')], { env: cliEnv(env) });

  it('exits non-zero, names what is missing and points to the CLI', async () => {
    const run = await entry({});
    expect(run.code).toBe(1);
    for (const name of RUNNER_VARIABLES) expect(run.stderr).toContain(name);
    expect(run.stderr).toContain('npx compact-agent run');
    expect(run.stdout + run.stderr).not.toContain('skipped');
  });

  it('names only the variables that are missing', async () => {
    const run = await entry({ GITHUB_EVENT_NAME: 'push', GITHUB_WORKSPACE: process.cwd() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('GITHUB_EVENT_PATH is not set');
    expect(run.stderr).not.toContain('GITHUB_EVENT_NAME');
  });
});
