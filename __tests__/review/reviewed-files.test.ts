import type { ReviewFile } from '../../src/github/api/review-api.js';
import { EMPTY_DIFF } from '../../src/review/diff-lines.js';
import { selectReviewedFiles } from '../../src/review/reviewed-files.js';
import { msPatch } from './fixtures.js';

const file = (filename: string, patch: string | undefined): ReviewFile => ({
  filename,
  status: 'modified',
  previousFilename: undefined,
  patch
});

describe('selectReviewedFiles', () => {
  it('reviews the first files with a diff and skips the rest, naming why', () => {
    const files = [
      file('a.js', msPatch),
      file('logo.png', undefined),
      file('b.js', msPatch),
      file('c.js', msPatch)
    ];
    const selected = selectReviewedFiles(files, 2);
    expect(selected.reviewed.map((f) => f.filename)).toEqual(['a.js', 'b.js']);
    expect(selected.skipped).toEqual([
      { path: 'logo.png', reason: 'no-diff' },
      { path: 'c.js', reason: 'over-cap' }
    ]);
  });

  it('keeps the diff of every file, so a finding on a file past the cap can still go inline', () => {
    const selected = selectReviewedFiles(
      [file('a.js', msPatch), file('c.js', msPatch), file('e.bin', undefined)],
      1
    );
    expect(selected.diffs.get('c.js')!.hunks).toHaveLength(3);
    expect(selected.diffs.get('e.bin')).toBe(EMPTY_DIFF);
  });
});
