/**
 * A full disk stops the workspace copy of the transcript mid-run; the action keeps every line in
 * memory. Staging must call that copy incomplete, not tampered with, and still ship the full copy.
 */
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
