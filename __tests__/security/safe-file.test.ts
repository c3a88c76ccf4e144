/**
 * Attacks on the files the action writes in the workspace: the agent can plant a FIFO, a symbolic
 * link or a hard link where the transcript goes, before the action writes it.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs';
import path from 'node:path';
import { openRegularFileForAppend, UnsafeFileError, writeRegularFile } from '../../src/security/safe-file.js';
import { TRANSCRIPT_FILE, TranscriptWriter } from '../../src/transcript/writer.js';
import { createTempDir } from '../support/temp-repo.js';
import { runIsolated } from '../tools/run-isolated.js';

const note = { type: 'retry', turn: 1, attempt: 1, error: 'x' } as const;

let runDir: string;
let outside: string;
beforeEach(() => {
  runDir = path.join(createTempDir(), 'run-1');
  mkdirSync(runDir, { recursive: true });
  outside = path.join(createTempDir(), 'credentials');
  writeFileSync(outside, 'secret=1\n');
});

describe('the transcript writer opens only a regular file of its own', () => {
  it('refuses a FIFO at the transcript path at once instead of blocking the process forever', () => {
    const fifo = path.join(runDir, TRANSCRIPT_FILE);
    execFileSync('mkfifo', [fifo]);
    // In a child: on the old code, opening a FIFO with no reader blocks the whole process.
    const run = runIsolated(
      (src) => `
        import { TranscriptWriter } from ${src('transcript/writer.ts')};
        try {
          new TranscriptWriter(${JSON.stringify(runDir)}).append(${JSON.stringify(note)});
          process.stdout.write('written');
        } catch (error) {
          process.stdout.write(error.name + ': ' + error.message);
        }
      `,
      20_000
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^UnsafeFileError: Refusing to write .*transcript\.jsonl: it is a FIFO/);
  });

  it('refuses a FIFO that has a reader waiting on it', () => {
    const fifo = path.join(runDir, TRANSCRIPT_FILE);
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      expect(() => new TranscriptWriter(runDir)).toThrow(UnsafeFileError);
      expect(() => new TranscriptWriter(runDir)).toThrow('it is a FIFO (named pipe)');
    } finally {
      closeSync(reader);
    }
  });

  it('refuses a symbolic link at the transcript path, leaving its target unchanged', () => {
    symlinkSync(outside, path.join(runDir, TRANSCRIPT_FILE));
    expect(() => new TranscriptWriter(runDir).append(note)).toThrow('it is a symbolic link');
    expect(readFileSync(outside, 'utf8')).toBe('secret=1\n');
  });

  it('refuses a hard link to a file outside, leaving that file unchanged', () => {
    linkSync(outside, path.join(runDir, TRANSCRIPT_FILE));
    expect(() => new TranscriptWriter(runDir).append(note)).toThrow('it has 2 hard links');
    expect(readFileSync(outside, 'utf8')).toBe('secret=1\n');
  });

  it('still creates, and appends to, a plain transcript file (mode 0600)', () => {
    const first = new TranscriptWriter(runDir);
    first.append(note);
    first.close();
    const second = new TranscriptWriter(runDir);
    second.append(note);
    second.close();
    const file = path.join(runDir, TRANSCRIPT_FILE);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    closeSync(openRegularFileForAppend(path.join(runDir, 'fresh.jsonl')));
    expect(statSync(path.join(runDir, 'fresh.jsonl')).isFile()).toBe(true);
  });
});

describe('writeRegularFile', () => {
  it('replaces a plain file, and refuses a hard link without emptying the other file', () => {
    const file = path.join(runDir, 'history.json');
    writeRegularFile(file, 'a longer first version');
    writeRegularFile(file, 'second');
    expect(readFileSync(file, 'utf8')).toBe('second');
    const linked = path.join(runDir, 'linked.json');
    linkSync(outside, linked);
    expect(() => writeRegularFile(linked, 'overwritten')).toThrow(UnsafeFileError);
    expect(readFileSync(outside, 'utf8')).toBe('secret=1\n');
    symlinkSync(outside, path.join(runDir, 'symlinked.json'));
    expect(() => writeRegularFile(path.join(runDir, 'symlinked.json'), 'x')).toThrow('it is a symbolic link');
    expect(() => writeRegularFile(runDir, 'x')).toThrow(UnsafeFileError);
    expect(readFileSync(outside, 'utf8')).toBe('secret=1\n');
  });
});
