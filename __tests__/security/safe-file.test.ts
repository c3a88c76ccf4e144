/**
 * Attacks on the files the action writes in the workspace: the agent can plant a FIFO, a symbolic
 * link or a hard link where the transcript goes, before the action writes it.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs';
import path from 'node:path';
import { openRegularFileForAppend, UnsafeFileError, writeRegularFile } from '../../src/security/safe-file.js';
import { TRANSCRIPT_FILE, TranscriptWriter } from '../../src/transcript/writer.js';
import { COMPACTION_LOG_FILE, compactionLogWriter } from '../../src/transcript/compaction-log.js';
import { RunFolderStore } from '../../src/compaction/run-folder-store.js';
import type { CompactionEvent } from '../../src/compaction/compactor.js';
import { Workspace } from '../../src/tools/workspace.js';
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

describe("compaction's files in the run folder", () => {
  const event: CompactionEvent = {
    turn: 3,
    layer: 'micro',
    reason: 'test',
    tokens_before: 10,
    tokens_after: 5,
    results_cleared: 1,
    summary_tokens: 0,
    summary_cost_usd: 0,
    duration_ms: 1,
    segment_path: null,
    focus: null
  };

  it('a FIFO at the compaction log is refused, and one at the next segment is replaced, at once instead of hanging', () => {
    execFileSync('mkfifo', [path.join(runDir, COMPACTION_LOG_FILE)]);
    mkdirSync(path.join(runDir, 'segments'));
    execFileSync('mkfifo', [path.join(runDir, 'segments', 'segment-001.json')]);
    const run = runIsolated(
      (src) => `
        import { compactionLogWriter } from ${src('transcript/compaction-log.ts')};
        import { RunFolderStore } from ${src('compaction/run-folder-store.ts')};
        import { Workspace } from ${src('tools/workspace.ts')};
        const outcome = (write: () => unknown) => {
          try { write(); return 'written'; } catch (error) { return error.message; }
        };
        const store = new RunFolderStore(${JSON.stringify(runDir)}, new Workspace(${JSON.stringify(path.dirname(runDir))}), 't');
        process.stdout.write(JSON.stringify([
          outcome(() => compactionLogWriter(${JSON.stringify(runDir)}).append(${JSON.stringify(event)})),
          outcome(() => store.saveSegment(1, []))
        ]));
      `,
      20_000
    );
    expect(run.status).toBe(0);
    const [log, segment] = JSON.parse(run.stdout) as string[];
    expect(log).toMatch(/compaction-log\.jsonl: it is a FIFO/);
    // Segments are created fresh (the artifact takes them only as written): the FIFO is removed, not opened.
    expect(segment).toBe('written');
    const segmentFile = path.join(runDir, 'segments', 'segment-001.json');
    expect(lstatSync(segmentFile).isFile()).toBe(true);
    expect(readFileSync(segmentFile, 'utf8')).toBe('[]');
  });

  it('a spilled result or a segment is not written through a symlinked file or folder', () => {
    const store = new RunFolderStore(runDir, new Workspace(path.dirname(runDir)), 't');
    const outsideFolder = createTempDir();
    symlinkSync(outsideFolder, path.join(runDir, 'tool-results'));
    // Nothing is written through the link, and the run goes on: the model is told the file is missing.
    expect(store.spill('toolu_1', 'big output')).toMatch(
      /^\(not saved: Refusing to write .*its folder .*tool-results is a symbolic link; the full text is in the run's transcript\)$/
    );
    expect(readdirSync(outsideFolder)).toEqual([]);
    mkdirSync(path.join(runDir, 'segments'));
    symlinkSync(outside, path.join(runDir, 'segments', 'segment-002.json'));
    store.saveSegment(2, []);
    // The link was replaced by a new file, never written through.
    expect(readFileSync(outside, 'utf8')).toBe('secret=1\n');
    expect(lstatSync(path.join(runDir, 'segments', 'segment-002.json')).isSymbolicLink()).toBe(false);
    linkSync(outside, path.join(runDir, COMPACTION_LOG_FILE));
    expect(() => compactionLogWriter(runDir).append(event)).toThrow('it has 2 hard links');
    expect(readFileSync(outside, 'utf8')).toBe('secret=1\n');
    // Plain files still work.
    rmSync(path.join(runDir, 'tool-results'));
    expect(store.spill('toolu_1', 'big output')).toMatch(/tool-results\/toolu_1\.txt$/);
    expect(readFileSync(path.join(runDir, 'tool-results', 'toolu_1.txt'), 'utf8')).toBe('big output');
  });
});
