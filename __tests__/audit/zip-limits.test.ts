/** Attacks on the transcript reader's zip reader: a crafted archive must not exhaust memory. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadTranscript, TranscriptNotFoundError } from '../../src/audit/load-transcript.js';
import { DEFAULT_ZIP_LIMITS, readZip, unzip, ZipLimitError } from '../../src/audit/zip-reader.js';
import { runIsolated } from '../tools/run-isolated.js';
import { buildZip, deflatedZeros } from './zip-builder.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'zip-limits-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 1024 * 1024;

describe('zip reader limits', () => {
  it('refuses a 200 MB bomb of zeros from its central directory, naming the ratio limit', () => {
    const bomb = buildZip([{ name: 'run/transcript.jsonl', deflated: deflatedZeros(200), size: 200 * MiB }]);
    expect(bomb.length).toBeLessThan(MiB);
    expect(() => unzip(bomb)).toThrow(ZipLimitError);
    expect(() => unzip(bomb)).toThrow(
      /run\/transcript\.jsonl would expand \d+ times .* the limit is 200 times/
    );
  });

  it('stops inflating a bomb that declares a small size, without allocating what it holds', () => {
    // In a fresh process, so its peak memory is the bomb's doing; the old reader inflated all 400 MiB.
    const run = runIsolated(
      (src) => `
        import { unzip } from ${src('audit/zip-reader.ts')};
        import { buildZip, deflatedZeros } from ${JSON.stringify(path.resolve('__tests__/audit/zip-builder.ts'))};
        const bomb = buildZip([{ name: 'liar.jsonl', deflated: deflatedZeros(400), size: 1000 }]);
        const before = process.resourceUsage().maxRSS;
        let message = 'no error';
        try { unzip(bomb); } catch (error) { message = error.message; }
        const grownKiB = process.resourceUsage().maxRSS - before;
        process.stdout.write(JSON.stringify({ message, grownKiB }));
      `
    );
    expect(run.status).toBe(0);
    const { message, grownKiB } = JSON.parse(run.stdout) as { message: string; grownKiB: number };
    expect(message).toMatch(
      /^unzip: liar\.jsonl inflates past the 1000 bytes its central directory declares/
    );
    expect(grownKiB * 1024).toBeLessThan(100 * MiB);
  });

  it('refuses too many entries, one entry too big, and too much in total', () => {
    const tiny = (count: number) =>
      buildZip(
        Array.from({ length: count }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from(`line ${i}\n`) }))
      );
    expect(() => unzip(tiny(DEFAULT_ZIP_LIMITS.maxEntries + 1))).toThrow(
      `unzip: the archive lists ${DEFAULT_ZIP_LIMITS.maxEntries + 1} entries; the limit is ${DEFAULT_ZIP_LIMITS.maxEntries}`
    );
    expect(unzip(tiny(50)).size).toBe(50);

    const text = Buffer.from('{"type":"note"}\n'.repeat(4000)); // 64,000 bytes, compresses well
    const limits = { ...DEFAULT_ZIP_LIMITS, maxEntryBytes: 50_000, maxTotalBytes: 100_000 };
    expect(() => readZip(buildZip([{ name: 'big.jsonl', data: text }]), limits)).toThrow(
      'unzip: big.jsonl would expand to 64000 bytes; the limit for one entry is 50000 bytes'
    );
    const two = buildZip([
      { name: 'a.jsonl', data: text.subarray(0, 40_000) },
      { name: 'b.jsonl', data: text.subarray(0, 40_000) },
      { name: 'c.jsonl', data: text.subarray(0, 40_000) }
    ]);
    expect(() => readZip(two, limits)).toThrow(
      'unzip: the entries up to c.jsonl would expand to 120000 bytes; the limit for all is 100000 bytes'
    );
  });

  it('still reads a normal transcript artifact, and the transcript command reports a bomb clearly', async () => {
    const lines = Array.from({ length: 2000 }, (_, seq) =>
      JSON.stringify({ seq, type: 'note', text: 'same text' })
    );
    const transcript = Buffer.from(`${lines.join('\n')}\n`);
    const good = path.join(dir, 'artifact.zip');
    writeFileSync(good, buildZip([{ name: 'run-1/transcript.jsonl', data: transcript }]));
    const loaded = await loadTranscript(good);
    expect(loaded.text).toBe(transcript.toString());
    expect(loaded.source).toBe(`${good}:run-1/transcript.jsonl`);

    const bomb = path.join(dir, 'bomb.zip');
    writeFileSync(
      bomb,
      buildZip([{ name: 'run-1/transcript.jsonl', deflated: deflatedZeros(64), size: 64 * MiB }])
    );
    const refused = loadTranscript(bomb);
    await expect(refused).rejects.toThrow(TranscriptNotFoundError);
    await expect(refused).rejects.toThrow(
      /bomb\.zip is not a readable zip: unzip: .* the limit is 200 times/
    );
  });
});

describe('the file given to compact-agent transcript', () => {
  it('is refused before it is read when it is larger than anything the reader would expand', async () => {
    const { loadTranscript, TranscriptNotFoundError } = await import('../../src/audit/load-transcript.js');
    const { DEFAULT_ZIP_LIMITS } = await import('../../src/audit/zip-reader.js');
    const { mkdtempSync, openSync, ftruncateSync, closeSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const big = path.join(mkdtempSync(path.join(tmpdir(), 'big-zip-')), 'huge.zip');
    // A sparse file: its size is past the limit, yet it takes no disk and is never read.
    const fd = openSync(big, 'w');
    ftruncateSync(fd, DEFAULT_ZIP_LIMITS.maxTotalBytes + 1);
    closeSync(fd);
    const before = process.memoryUsage().rss;
    await expect(loadTranscript(big)).rejects.toThrow(TranscriptNotFoundError);
    await expect(loadTranscript(big)).rejects.toThrow(/is read only up to 512 MiB/);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 2 ** 20);
  });
});
