import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fakeModelEnv, spawnCli } from '../support/cli.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

/**
 * --prompt-file and --mcp-config name files a person chose: a FIFO with no writer, a device that
 * never ends or a folder must be refused at once, naming the flag, not waited on or read forever.
 * The CLI runs from src in its own process, so a reader that blocks is killed, not the test runner.
 */
let repo: TempRepo;
let folder: string;
beforeAll(() => {
  repo = createTempRepo();
  repo.write('README.md', 'hi\n');
  repo.git('add', '-A');
  repo.git('commit', '--quiet', '-m', 'seed');
  folder = createTempDir('compact-agent-input-files-');
});
afterAll(() => {
  repo.remove();
  rmSync(folder, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  spawnCli(['run', '--repo', repo.root, ...args], {
    // Far above a refusal; only a reader that waits forever (the bug) reaches it.
    timeoutMs: 60_000,
    // Nothing listens here: a run that got past the refusal would fail to connect, not call out.
    env: fakeModelEnv('http://127.0.0.1:9')
  });

function fifo(name: string): string {
  const file = path.join(folder, name);
  execFileSync('mkfifo', [file]);
  return file;
}

const USAGE = 2;

describe('compact-agent run --prompt-file', () => {
  it('refuses a FIFO with no writer, saying what it is and what to give', async () => {
    const file = fifo('task.fifo');
    const run = await cli('--prompt-file', file);
    expect(run.code).toBe(USAGE);
    expect(run.stderr).toContain(`--prompt-file ${file}: cannot read it (it is a FIFO (named pipe)).`);
    expect(run.stderr).toContain('Give the path of a regular text file that holds the task');
  }, 90_000);

  it('refuses a folder with the same advice', async () => {
    const dir = path.join(folder, 'tasks');
    mkdirSync(dir);
    const run = await cli('--prompt-file', dir);
    expect(run.code).toBe(USAGE);
    expect(run.stderr).toContain(`--prompt-file ${dir}: cannot read it (it is a folder).`);
    expect(run.stderr).toContain('Give the path of a regular text file that holds the task');
  }, 90_000);

  it('refuses a file too big to be a task before reading it', async () => {
    const file = path.join(folder, 'huge-task.md');
    writeFileSync(file, 'a'.repeat(2 * 1024 * 1024));
    const run = await cli('--prompt-file', file);
    expect(run.code).toBe(USAGE);
    expect(run.stderr).toContain(
      `--prompt-file ${file}: cannot read it (it is too big (2 MiB; it is read only up to 1 MiB)).`
    );
  }, 90_000);
});

describe('compact-agent run --mcp-config', () => {
  it.each([
    ['a FIFO with no writer', () => fifo('mcp.fifo'), 'it is a FIFO (named pipe)'],
    ['a device that never ends', () => '/dev/zero', 'it is a device']
  ])(
    'refuses %s before any server or model call',
    async (_what, target, phrase) => {
      const file = target();
      const run = await cli('--prompt', 'x', '--mcp-config', file);
      expect(run.code).toBe(USAGE);
      expect(run.stderr).toContain(`--mcp-config: cannot read the file ${file} (${phrase}).`);
      expect(run.stderr).toContain('Give inline JSON, or the path of a regular JSON file');
    },
    90_000
  );
});
