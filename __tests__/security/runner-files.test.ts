import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { guardRunnerFiles } from '../../src/security/runner-files.js';
import { parseOutputs } from '../../test-support/action-runner.js';

/** The runner's file commands in a fresh folder, with what the runner had put in them. */
function runnerFolder() {
  const dir = mkdtempSync(path.join(tmpdir(), 'runner-files-'));
  const files = {
    GITHUB_OUTPUT: path.join(dir, 'set_output'),
    GITHUB_ENV: path.join(dir, 'set_env'),
    GITHUB_PATH: path.join(dir, 'add_path'),
    GITHUB_STATE: path.join(dir, 'save_state'),
    GITHUB_STEP_SUMMARY: path.join(dir, 'step_summary')
  };
  writeFileSync(files.GITHUB_OUTPUT, '');
  writeFileSync(files.GITHUB_ENV, 'EARLIER=1\n');
  writeFileSync(files.GITHUB_PATH, '/opt/earlier/bin\n');
  writeFileSync(files.GITHUB_STATE, '');
  writeFileSync(files.GITHUB_STEP_SUMMARY, '');
  return { dir, files, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let runner: ReturnType<typeof runnerFolder>;
beforeEach(() => (runner = runnerFolder()));
afterEach(() => runner.remove());

describe("the runner's file commands after the agent's turn", () => {
  it('a job summary swapped for a symlink to GITHUB_PATH gets nothing written through it', () => {
    const guard = guardRunnerFiles(runner.files);
    // The agent, between the guard's snapshot and the write:
    unlinkSync(runner.files.GITHUB_STEP_SUMMARY);
    symlinkSync(runner.files.GITHUB_PATH, runner.files.GITHUB_STEP_SUMMARY);

    const written = guard.append('GITHUB_STEP_SUMMARY', '/tmp/evil/bin\n');
    expect(written).toEqual({ written: false, reason: expect.stringContaining('link') });
    expect(readFileSync(runner.files.GITHUB_PATH, 'utf8')).toBe('/opt/earlier/bin\n');

    // Restoring puts a plain file back in the link's place; GITHUB_PATH stays as it was.
    expect(guard.restore()).toEqual([
      { name: 'GITHUB_STEP_SUMMARY', path: runner.files.GITHUB_STEP_SUMMARY, replaced: true }
    ]);
    expect(lstatSync(runner.files.GITHUB_STEP_SUMMARY).isFile()).toBe(true);
    expect(guard.append('GITHUB_STEP_SUMMARY', '## report\n')).toEqual({ written: true });
    expect(readFileSync(runner.files.GITHUB_STEP_SUMMARY, 'utf8')).toBe('## report\n');
    expect(readFileSync(runner.files.GITHUB_PATH, 'utf8')).toBe('/opt/earlier/bin\n');
  });

  it('restoring GITHUB_ENV swapped for a symlink to GITHUB_PATH does not write through it', () => {
    const guard = guardRunnerFiles(runner.files);
    unlinkSync(runner.files.GITHUB_ENV);
    symlinkSync(runner.files.GITHUB_PATH, runner.files.GITHUB_ENV);
    guard.restore();
    // The old guard wrote GITHUB_ENV's saved text through the link, into GITHUB_PATH.
    expect(readFileSync(runner.files.GITHUB_PATH, 'utf8')).toBe('/opt/earlier/bin\n');
    expect(lstatSync(runner.files.GITHUB_ENV).isSymbolicLink()).toBe(false);
    expect(readFileSync(runner.files.GITHUB_ENV, 'utf8')).toBe('EARLIER=1\n');
  });

  it('a hard link in place of the summary, or a second name for it, is another file now', () => {
    const guard = guardRunnerFiles(runner.files);
    unlinkSync(runner.files.GITHUB_STEP_SUMMARY);
    linkSync(runner.files.GITHUB_PATH, runner.files.GITHUB_STEP_SUMMARY);
    expect(guard.append('GITHUB_STEP_SUMMARY', '/tmp/evil/bin\n')).toMatchObject({ written: false });
    expect(readFileSync(runner.files.GITHUB_PATH, 'utf8')).toBe('/opt/earlier/bin\n');

    // A second name kept by the agent (to write GITHUB_ENV later, from a background process).
    const kept = path.join(runner.dir, 'kept');
    const fresh = runnerFolder();
    const guarded = guardRunnerFiles(fresh.files);
    linkSync(fresh.files.GITHUB_ENV, kept);
    expect(guarded.restore()).toEqual([{ name: 'GITHUB_ENV', path: fresh.files.GITHUB_ENV, replaced: true }]);
    // Later writes through the kept name reach the old file, no longer the runner's.
    writeFileSync(kept, 'NODE_OPTIONS=--require /tmp/evil.js\n');
    expect(readFileSync(fresh.files.GITHUB_ENV, 'utf8')).toBe('EARLIER=1\n');
    fresh.remove();
  });

  it('a FIFO in place of GITHUB_OUTPUT blocks nothing and gets no output', () => {
    const guard = guardRunnerFiles(runner.files);
    unlinkSync(runner.files.GITHUB_OUTPUT);
    execFileSync('mkfifo', [runner.files.GITHUB_OUTPUT]);
    expect(guard.setOutput('conclusion', 'success')).toMatchObject({ written: false });
    guard.restore();
    expect(lstatSync(runner.files.GITHUB_OUTPUT).isFile()).toBe(true);
  });

  it('writes outputs the way the runner reads them, and puts back what the agent wrote', () => {
    const guard = guardRunnerFiles(runner.files);
    writeFileSync(runner.files.GITHUB_ENV, 'EARLIER=1\nNODE_OPTIONS=--require /tmp/evil.js\n');
    expect(guard.restore()).toEqual([{ name: 'GITHUB_ENV', path: runner.files.GITHUB_ENV, replaced: false }]);
    expect(readFileSync(runner.files.GITHUB_ENV, 'utf8')).toBe('EARLIER=1\n');
    guard.setOutput('conclusion', 'success');
    guard.setOutput('num_turns', 12);
    expect(parseOutputs(readFileSync(runner.files.GITHUB_OUTPUT, 'utf8'))).toEqual({
      conclusion: 'success',
      num_turns: '12'
    });
  });
});

/**
 * Another process looks at GITHUB_ENV as fast as it can (the runner, or the agent's process waiting
 * to slip a file in) while the guard puts back the file the agent keeps replacing with a link. The
 * new file must take the link's place in one step: a removal followed by a create leaves a moment
 * with nothing there, which the watcher sees within a few hundred tries.
 */
describe('recreating a runner file', () => {
  it('never leaves a moment with nothing at the path', async () => {
    const target = runner.files.GITHUB_ENV;
    const stop = path.join(runner.dir, 'stop');
    const ready = path.join(runner.dir, 'ready');
    const watcher = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [target, ready, stop] = process.argv.slice(1);
         let looks = 0, missing = 0;
         fs.writeFileSync(ready, '');
         while (!fs.existsSync(stop)) {
           for (let i = 0; i < 200; i++, looks++) {
             try { fs.lstatSync(target); } catch { missing++; }
           }
         }
         process.stdout.write(JSON.stringify({ looks, missing }));`,
        target,
        ready,
        stop
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] }
    );
    let output = '';
    watcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => watcher.on('exit', resolve));
    while (!existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 10));

    const guard = guardRunnerFiles(runner.files);
    const planted = path.join(runner.dir, 'planted');
    for (let round = 0; round < 500; round++) {
      // The agent's swap is itself one step (a rename), so any gap the watcher sees is the guard's.
      symlinkSync(runner.files.GITHUB_PATH, planted);
      renameSync(planted, target);
      guard.restore();
    }
    writeFileSync(stop, '');
    await exited;
    const seen = JSON.parse(output) as { looks: number; missing: number };
    expect(seen.looks).toBeGreaterThan(0);
    expect(seen.missing).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('EARLIER=1\n');
    expect(readFileSync(runner.files.GITHUB_PATH, 'utf8')).toBe('/opt/earlier/bin\n');
  });
});
