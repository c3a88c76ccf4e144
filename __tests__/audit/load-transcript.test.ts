/**
 * `compact-agent transcript` is given whatever a reviewer has at hand. Files that report no size
 * (a device, a FIFO) must be refused at once instead of read forever, and a run folder's transcript
 * gets the same size cap as a file given directly, with a message that says what is wrong.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  loadTranscript,
  readBounded,
  TranscriptNotFoundError,
  TranscriptPathMissingError
} from '../../src/audit/load-transcript.js';
import { createTempDir } from '../support/temp-repo.js';

async function refusal(target: string): Promise<string> {
  const error = await loadTranscript(target).then(
    () => undefined,
    (caught: unknown) => caught
  );
  expect(error).toBeInstanceOf(TranscriptNotFoundError);
  return (error as Error).message;
}

describe('loadTranscript on what is not a regular file', () => {
  it('refuses a device that never ends (/dev/zero) without reading it', async () => {
    expect(await refusal('/dev/zero')).toBe('/dev/zero is not a regular file: it is a device.');
  });

  it('refuses a FIFO with no writer instead of waiting for one', async () => {
    const fifo = path.join(createTempDir('fifo-'), 'transcript.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(await refusal(fifo)).toBe(`${fifo} is not a regular file: it is a FIFO (named pipe).`);
  });
});

describe('loadTranscript on a run folder', () => {
  it('caps the run folder transcript like a file, and says it is too big instead of "no transcript"', async () => {
    const run = path.join(createTempDir('big-run-'), '42-1');
    mkdirSync(run);
    // A sparse 600 MiB file: its size is real, its blocks are not, so the test stays cheap.
    const fd = openSync(path.join(run, 'transcript.jsonl'), 'w');
    ftruncateSync(fd, 600 * 2 ** 20);
    closeSync(fd);
    const message = await refusal(run);
    expect(message).toContain('600 MiB');
    expect(message).toContain('read only up to 512 MiB');
  });

  it('still reads the newest run of a .transcripts folder', async () => {
    const transcripts = createTempDir('transcripts-');
    for (const run of ['1-1', '2-1']) {
      mkdirSync(path.join(transcripts, run));
      writeFileSync(path.join(transcripts, run, 'transcript.jsonl'), `{"run":"${run}"}\n`);
    }
    const loaded = await loadTranscript(transcripts);
    expect(loaded.text).toBe('{"run":"2-1"}\n');
    expect(loaded.source).toBe(path.join(transcripts, '2-1', 'transcript.jsonl'));
  });

  it('names a loop of symbolic links as such, not as a missing file', async () => {
    const dir = createTempDir('loop-');
    execFileSync('ln', ['-s', path.join(dir, 'b'), path.join(dir, 'a')]);
    execFileSync('ln', ['-s', path.join(dir, 'a'), path.join(dir, 'b')]);
    expect(await refusal(path.join(dir, 'a'))).toContain('loop of symbolic links');
  });

  it('says a missing path does not exist, with an error the CLI tells apart (exit 2, not 3)', async () => {
    const missing = path.join(createTempDir('missing-'), 'nope');
    const error = await loadTranscript(missing).then(
      () => undefined,
      (caught: unknown) => caught
    );
    expect(error).toBeInstanceOf(TranscriptPathMissingError);
    expect((error as Error).message).toBe(`${missing} does not exist.`);
  });

  it('a run folder whose transcript.jsonl is a folder says so, instead of "no transcript"', async () => {
    const run = createTempDir('odd-run-');
    mkdirSync(path.join(run, 'transcript.jsonl'));
    expect(await refusal(run)).toBe(
      `${path.join(run, 'transcript.jsonl')} is not a regular file: it is a folder.`
    );
  });
});

describe('readBounded with a small cap (the --resume state file)', () => {
  it('gives the sizes in KiB, not "0 MiB"', async () => {
    const file = path.join(createTempDir('state-'), 'carried-state.json');
    writeFileSync(file, Buffer.alloc(300 * 1024));
    await expect(readBounded(file, 256 * 1024)).rejects.toThrow(
      'it is too big (300 KiB; it is read only up to 256 KiB)'
    );
  });
});
