import { EMPTY_DIFF, commentableRanges, hunkOf, lineText, parsePatch } from '../../src/review/diff-lines.js';
import { msBase, msHead, msPatch } from './fixtures.js';

const headLines = msHead.split('\n');
const baseLines = msBase.split('\n');

describe('parsePatch on a real patch (ms@2.1.3 index.js, three hunks)', () => {
  const diff = parsePatch(msPatch);

  it('reads the three hunks with their starts and counts', () => {
    expect(diff.hunks.map((h) => [h.baseStart, h.baseCount, h.headStart, h.headCount])).toEqual([
      [7, 7, 7, 7],
      [47, 8, 47, 8],
      [157, 6, 157, 6]
    ]);
  });

  it('gives RIGHT the added and context lines with head numbers', () => {
    expect(commentableRanges(diff, 'RIGHT')).toBe('7-13, 47-54, 157-162');
    expect(lineText(diff, 'RIGHT', 10)).toBe('var y = d * 365.25; // a Julian year');
    // Every RIGHT line's text is the head's text at that number.
    for (const line of diff.right.keys()) expect(lineText(diff, 'RIGHT', line)).toBe(headLines[line - 1]);
  });

  it('gives LEFT the deleted and context lines with base numbers', () => {
    expect(commentableRanges(diff, 'LEFT')).toBe('7-13, 47-54, 157-162');
    expect(lineText(diff, 'LEFT', 50)).toBe('  if (str.length > 100) {');
    for (const line of diff.left.keys()) expect(lineText(diff, 'LEFT', line)).toBe(baseLines[line - 1]);
  });

  it('says which hunk a line is in, and nothing for a line outside the diff', () => {
    expect(hunkOf(diff, 'RIGHT', 7)).toBe(0);
    expect(hunkOf(diff, 'RIGHT', 50)).toBe(1);
    expect(hunkOf(diff, 'LEFT', 160)).toBe(2);
    expect(hunkOf(diff, 'RIGHT', 40)).toBeUndefined();
    expect(hunkOf(diff, 'RIGHT', 163)).toBeUndefined();
  });

  it('skips "\\ No newline at end of file" instead of counting it as a line', () => {
    const last = diff.hunks[2]!.lines;
    expect(last.map((l) => l.kind)).toEqual([
      'context',
      'context',
      'context',
      'deleted',
      'added',
      'context',
      'deleted',
      'added'
    ]);
    expect(last.at(-1)).toEqual({ kind: 'added', baseLine: undefined, headLine: 162, text: '}' });
    expect(last.some((l) => l.text.includes('No newline'))).toBe(false);
  });

  it('skips the file headers of `git diff` output', () => {
    const withHeaders = `diff --git a/index.js b/index.js\nindex 1234567..89abcde 100644\n--- a/index.js\n+++ b/index.js\n${msPatch}`;
    expect(parsePatch(withHeaders)).toEqual(diff);
  });
});

describe('parsePatch edge cases', () => {
  it('reads hunks with omitted counts as one line each', () => {
    const diff = parsePatch('@@ -1 +1 @@\n-{"name":"ms"}\n+{"name":"ms","version":"2.1.3"}');
    expect(diff.hunks[0]).toMatchObject({ baseStart: 1, baseCount: 1, headStart: 1, headCount: 1 });
    expect([...diff.right.keys()]).toEqual([1]);
    expect([...diff.left.keys()]).toEqual([1]);
  });

  it('reads a new file (base 0,0) as RIGHT lines only, and a removal as LEFT only', () => {
    const added = parsePatch('@@ -0,0 +1,2 @@\n+var s = 1000;\n+var m = s * 60;');
    expect(commentableRanges(added, 'RIGHT')).toBe('1-2');
    expect(added.left.size).toBe(0);
    const removed = parsePatch('@@ -1,2 +0,0 @@\n-var s = 1000;\n-var m = s * 60;');
    expect(removed.right.size).toBe(0);
    expect(commentableRanges(removed, 'LEFT')).toBe('1-2');
  });

  it('takes a deleted line that reads like a header for a line, by the counts', () => {
    const diff = parsePatch('@@ -3,2 +3,1 @@\n--- a horizontal rule in markdown\n context');
    expect(diff.hunks[0]!.lines.map((l) => l.kind)).toEqual(['deleted', 'context']);
    expect(lineText(diff, 'LEFT', 3)).toBe('-- a horizontal rule in markdown');
  });

  it('keeps a blank context line whose leading space was trimmed', () => {
    const diff = parsePatch('@@ -1,3 +1,3 @@\n a\n\n-b\n+c');
    expect(commentableRanges(diff, 'RIGHT')).toBe('1-3');
    expect(lineText(diff, 'RIGHT', 2)).toBe('');
  });

  it('drops the carriage return of a CRLF file', () => {
    expect(lineText(parsePatch('@@ -1 +1 @@\n-a\r\n+b\r'), 'RIGHT', 1)).toBe('b');
  });

  it('has nothing commentable for an undefined (binary, too large) or empty patch', () => {
    expect(parsePatch(undefined)).toBe(EMPTY_DIFF);
    expect(parsePatch('')).toBe(EMPTY_DIFF);
    expect(commentableRanges(EMPTY_DIFF, 'RIGHT')).toBe('');
    expect(hunkOf(EMPTY_DIFF, 'RIGHT', 1)).toBeUndefined();
  });
});
