/**
 * A full disk stops the workspace copy of the transcript mid-run; the action keeps every line in
 * memory. Staging must call that copy incomplete, not tampered with, and still ship the full copy.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { stageRunArtifact, type RunRecords } from '../../src/artifacts/stage-run.js';
import { createTempDir } from '../support/temp-repo.js';

const LINES = ['{"n":1}', '{"n":2}', '{"n":3}'];

function records(diskError: string | undefined): RunRecords {
  const runDir = path.join(createTempDir('disk-error-'), '.transcripts', '7-1');
  mkdirSync(runDir, { recursive: true });
  const transcriptPath = path.join(runDir, 'transcript.jsonl');
  // What reached the disk before it filled up: the first line only.
  writeFileSync(transcriptPath, `${LINES[0]}\n`);
  return {
    runDir,
    transcript: { path: transcriptPath, head: 'h', lines: () => LINES, diskError },
    compactionLog: { path: path.join(runDir, 'compaction-log.jsonl'), lines: () => [], diskError: undefined },
    files: []
  };
}

describe('staging after a disk error', () => {
  it('reports the short workspace copy as incomplete, names the disk error, and stages every line', async () => {
    const staged = await stageRunArtifact(records('ENOSPC: no space left on device, write'), {
      redact: (text) => text
    });
    try {
      expect(staged.findings).toEqual([]);
      expect(staged.incomplete).toHaveLength(1);
      expect(staged.incomplete[0]).toContain('could not write to the disk (ENOSPC');
      const transcript = staged.files.find((file) => file.endsWith('transcript.jsonl'))!;
      expect(readFileSync(transcript, 'utf8')).toBe(`${LINES.join('\n')}\n`);
    } finally {
      await staged.remove();
    }
  });

  it('still reports the same short copy as tampered with when the action wrote it all', async () => {
    const staged = await stageRunArtifact(records(undefined), { redact: (text) => text });
    try {
      expect(staged.incomplete).toEqual([]);
      expect(staged.findings.join('\n')).toContain('differs from what the action wrote');
    } finally {
      await staged.remove();
    }
  });
});

/**
 * The disk fills up half-way through a line, for real: the kernel's file-size limit cuts a write
 * short the way a full disk does, and then refuses the next. With only one line, the short write is
 * the last one, so nothing fails after it: the writers must see the short write as the disk error.
 * (Each line is longer than the limit, whether `ulimit -f` counts blocks of 512 bytes or of 1 KiB.)
 */
describe('a disk that fills up during the run, end to end', () => {
  const runFilledUp = (lineCount: number) => {
    const runDir = path.join(createTempDir('disk-full-'), '.transcripts', '7-1');
    // A limit of one block (512 bytes or 1 KiB) per file; SIGXFSZ ignored so the write fails instead of killing the process.
    const child = spawnSync(
      'sh',
      [
        '-c',
        'trap "" XFSZ; ulimit -f 1; exec "$0" "$@"',
        process.execPath,
        path.resolve('node_modules/tsx/dist/cli.mjs'),
        '__tests__/support/file-size-limit-script.ts',
        runDir,
        String(lineCount)
      ],
      { encoding: 'utf8', timeout: 60_000 }
    );
    expect(child.stderr).toBe('');
    type Kept = { lines: string[]; diskError?: string };
    const kept = JSON.parse(child.stdout) as { transcript: Kept; compactionLog: Kept };
    return {
      runDir,
      transcript: {
        path: path.join(runDir, 'transcript.jsonl'),
        head: 'h',
        lines: () => kept.transcript.lines,
        diskError: kept.transcript.diskError
      },
      compactionLog: {
        path: path.join(runDir, 'compaction-log.jsonl'),
        lines: () => kept.compactionLog.lines,
        diskError: kept.compactionLog.diskError
      },
      files: []
    } satisfies RunRecords;
  };

  it.each([
    ['the last write is cut short', 1],
    ['a write after the short one fails', 3]
  ])('%s: says the disk filled up (not tampered) and ships every line', async (_case, lineCount) => {
    const records = runFilledUp(lineCount);
    // The workspace copies really are short: what reached the disk is less than what was written.
    expect(readFileSync(records.transcript.path, 'utf8').length).toBeLessThan(
      records.transcript.lines().join('\n').length
    );
    const staged = await stageRunArtifact(records, { redact: (text) => text });
    try {
      expect(staged.findings).toEqual([]);
      expect(staged.incomplete).toEqual([
        expect.stringMatching(/^transcript\.jsonl .* could not write to the disk \(.*file too large/),
        expect.stringMatching(/^compaction-log\.jsonl .* could not write to the disk \(.*file too large/)
      ]);
      const transcript = staged.files.find((file) => file.endsWith('transcript.jsonl'))!;
      expect(readFileSync(transcript, 'utf8')).toBe(`${records.transcript.lines().join('\n')}\n`);
    } finally {
      await staged.remove();
    }
  });
});
