import { readTail } from '../../src/github/api/ci-failure-reads.js';

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

describe('the end of a job log, bounded', () => {
  it('keeps the whole of a short log', async () => {
    expect(await readTail(chunks('a\n', 'b\n'), { maxReadBytes: 100, keepBytes: 50 })).toEqual({
      text: 'a\nb\n',
      cut: false
    });
  });

  it('keeps only the last bytes, from a whole line', async () => {
    const tail = await readTail(chunks('line 1\nline 2\n', 'line 3\nline 4\n'), {
      maxReadBytes: 1000,
      keepBytes: 16
    });
    expect(tail).toEqual({ text: 'line 3\nline 4\n', cut: true });
  });

  it('stops reading at the bound, however long the log goes on', async () => {
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (;;) yield Buffer.from('x\n');
    }
    const tail = await readTail(endless(), { maxReadBytes: 64, keepBytes: 8 });
    expect(tail.cut).toBe(true);
    expect(tail.text.length).toBeLessThanOrEqual(8);
  });
});
