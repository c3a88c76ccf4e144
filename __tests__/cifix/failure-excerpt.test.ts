import { ERROR_TEST_CHARS, failureExcerpt, isErrorLine } from '../../src/cifix/failure-excerpt.js';
import { failureSignature } from '../../src/cifix/failure-signature.js';

const stamp = (line: string) => `2026-11-28T06:00:01.1234567Z ${line}`;

describe('the failing part of a job log', () => {
  it(`tests only the first ${ERROR_TEST_CHARS} characters of a line: a 256 KiB line is never scanned whole`, () => {
    expect(isErrorLine(`${'x'.repeat(ERROR_TEST_CHARS - 6)} error`)).toBe(true);
    expect(isErrorLine(`${'x'.repeat(ERROR_TEST_CHARS)} error`)).toBe(false);
    // The line that took seconds before: `expected` over and over, with no `to` or `but`.
    const long = 'expected '.repeat((256 * 1024) / 9);
    expect(isErrorLine(long)).toBe(false);
    expect(failureExcerpt(`FAIL sum.test.js\n${long}`).split('\n')).toEqual([
      'FAIL sum.test.js',
      `${long.slice(0, 399)}…`
    ]);
  });

  it('keeps the lines around the errors, without times or colours, and marks what it left out', () => {
    const log = [
      ...Array.from({ length: 50 }, (_, index) => `setup ${index}`),
      'npm test',
      '\u001b[31mFAIL\u001b[39m src/sum.test.ts',
      '  Expected: 5',
      '  Received: 6',
      ...Array.from({ length: 50 }, (_, index) => `teardown ${index}`)
    ]
      .map(stamp)
      .join('\n');
    const excerpt = failureExcerpt(log, { before: 1, after: 2, maxLines: 80, maxLineChars: 400 });
    expect(excerpt).toBe(
      ['…', 'npm test', 'FAIL src/sum.test.ts', '  Expected: 5', '  Received: 6', '…'].join('\n')
    );
  });

  it('keeps the last errors when there are more than the bound, and clips a long line', () => {
    const log = Array.from(
      { length: 300 },
      (_, index) => `error ${index} ${'x'.repeat(index === 299 ? 1000 : 1)}`
    ).join('\n');
    const excerpt = failureExcerpt(log, { before: 0, after: 0, maxLines: 10, maxLineChars: 50 });
    const lines = excerpt.split('\n');
    expect(lines[0]).toBe('…');
    expect(lines).toHaveLength(11);
    expect(lines[1]).toMatch(/^error 290 /);
    expect(lines.at(-1)).toHaveLength(50);
  });

  it('gives the end of a log that names no error', () => {
    const log = Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n');
    const excerpt = failureExcerpt(log, { before: 1, after: 1, maxLines: 3, maxLineChars: 400 });
    expect(excerpt).toBe(['…', 'line 97', 'line 98', 'line 99'].join('\n'));
  });
});

describe('a failure signature', () => {
  const part = (log: string) => ({ job: 'test', steps: ['Run npm test'], log });

  it('is the same when only times, durations and hashes differ', () => {
    const first = failureSignature([part(stamp('FAIL sum.test.ts (1.23 s) at 0a1b2c3d: expected 5, got 6'))]);
    const second = failureSignature([
      part(stamp('FAIL sum.test.ts (4.56 s) at 9f8e7d6c: expected 5, got 6'))
    ]);
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(second).toBe(first);
  });

  it('differs when another test fails, or in another step', () => {
    const first = failureSignature([part('FAIL sum.test.ts')]);
    expect(failureSignature([part('FAIL product.test.ts')])).not.toBe(first);
    expect(failureSignature([{ job: 'test', steps: ['Run lint'], log: 'FAIL sum.test.ts' }])).not.toBe(first);
  });
});
