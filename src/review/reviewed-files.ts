import type { ReviewFile } from '../github/api/review-api.js';
import { parsePatch, type FileDiff } from './diff-lines.js';

/** Past this many changed files a review covers the first ones and names the rest as skipped. */
export const DEFAULT_MAX_REVIEWED_FILES = 100;

export interface SkippedFile {
  readonly path: string;
  /** `no-diff`: GitHub gives no patch (binary, too large); `over-cap`: past the files a review covers. */
  readonly reason: 'no-diff' | 'over-cap';
}

export interface ReviewedFiles {
  /** Every changed file's parsed patch (EMPTY_DIFF without one): placement needs them all. */
  readonly diffs: ReadonlyMap<string, FileDiff>;
  /** The files the model is asked to review, in GitHub's order. */
  readonly reviewed: readonly ReviewFile[];
  readonly skipped: readonly SkippedFile[];
}

/**
 * The files a review covers: the first `maxFiles` with a patch. A file beyond the cap is still in
 * `diffs`, so a finding the model makes on it anyway can go inline.
 */
export function selectReviewedFiles(
  files: readonly ReviewFile[],
  maxFiles = DEFAULT_MAX_REVIEWED_FILES
): ReviewedFiles {
  const diffs = new Map(files.map((file) => [file.filename, parsePatch(file.patch)] as const));
  const hasDiff = (file: ReviewFile) => diffs.get(file.filename)!.hunks.length > 0;
  const withDiff = files.filter(hasDiff);
  const skipped: SkippedFile[] = [
    ...files.filter((file) => !hasDiff(file)).map((file) => skip(file, 'no-diff')),
    ...withDiff.slice(maxFiles).map((file) => skip(file, 'over-cap'))
  ];
  return { diffs, reviewed: withDiff.slice(0, maxFiles), skipped };
}

function skip(file: ReviewFile, reason: SkippedFile['reason']): SkippedFile {
  return { path: file.filename, reason };
}
