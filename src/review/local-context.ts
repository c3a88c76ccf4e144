import type { GitRepository } from '../git/repository.js';
import type { ReviewFile } from '../github/api/review-api.js';
import type { ReviewContext } from './review-context.js';
import { selectReviewedFiles } from './reviewed-files.js';

/**
 * The ReviewContext of a local review (`compact-agent review`), read from git instead of GitHub:
 * the changes of HEAD since its merge base with a base commit, each file with its patch in the shape
 * GitHub's `patch` has (the hunks alone), so placement and the first message work as on a pull
 * request. There is no pull request, so no earlier comments and no threads.
 */

/** What a local review compares: HEAD against where it left the base. */
export interface LocalReviewRange {
  /** The commit `--base` names. */
  readonly baseCommit: string;
  /** Where HEAD's history left the base's: the diff starts here, as a pull request's does. */
  readonly mergeBase: string;
  readonly headSha: string;
}

/** A base that names no commit, a repository without one, or histories that never met. */
export class ReviewRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReviewRangeError';
  }
}

/** A pull request's number is what GitHub calls it by; a local review has none. */
export const LOCAL_PULL_NUMBER = 0;

/** Pathspecs are names, never patterns: a file called `*.js` or `:(top)x` is that file. */
const LITERAL_PATHS = { GIT_LITERAL_PATHSPECS: '1' } as const;

/** Options that keep the repository's config from changing what a diff prints or runs. */
const PLAIN_DIFF = ['--no-color', '--no-ext-diff', '--no-textconv'] as const;

/** git's one-letter status as GitHub spells a file's status. */
const STATUS_NAMES: Readonly<Record<string, string>> = {
  A: 'added',
  M: 'modified',
  D: 'removed',
  R: 'renamed',
  C: 'copied',
  T: 'changed'
};

/** Resolves `baseRef` and HEAD to commits and finds their merge base; a ReviewRangeError if it cannot. */
export async function resolveReviewRange(git: GitRepository, baseRef: string): Promise<LocalReviewRange> {
  const headSha = await resolveCommit(git, 'HEAD');
  if (headSha === undefined) throw new ReviewRangeError('the repository has no commit yet (HEAD is unborn).');
  const baseCommit = await resolveCommit(git, baseRef);
  if (baseCommit === undefined) {
    throw new ReviewRangeError(
      `"${baseRef}" is no commit of this repository. Give the branch, tag or commit the changes ` +
        'go into, e.g. --base main or --base origin/main (git fetch first for a remote branch).'
    );
  }
  // merge-base exits 1 when the histories share no commit.
  const mergeBase = await git.run(['merge-base', baseCommit, headSha]).then(
    (output) => output.trim(),
    () => ''
  );
  if (mergeBase === '') {
    throw new ReviewRangeError(
      `"${baseRef}" (${baseCommit.slice(0, 7)}) and HEAD share no history, so there is no diff to review.`
    );
  }
  return { baseCommit, mergeBase, headSha };
}

/** The commit a ref names, or undefined; `--end-of-options` keeps a ref like `--output=x` a ref. */
async function resolveCommit(git: GitRepository, ref: string): Promise<string | undefined> {
  try {
    const sha = (
      await git.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])
    ).trim();
    return sha === '' ? undefined : sha;
  } catch {
    return undefined;
  }
}

/** The review's context for the range: every changed file with its patch, in git's order. */
export async function readLocalReviewContext(
  git: GitRepository,
  range: LocalReviewRange
): Promise<ReviewContext> {
  const files: ReviewFile[] = [];
  // One file at a time: a large change must not start hundreds of git processes at once.
  for (const change of await changedFiles(git, range)) {
    files.push({ ...change, patch: await patchOf(git, range, change) });
  }
  return {
    pullNumber: LOCAL_PULL_NUMBER,
    headSha: range.headSha,
    files: selectReviewedFiles(files),
    earlierComments: [],
    earlierReviews: [],
    candidates: []
  };
}

type ChangedFile = Omit<ReviewFile, 'patch'>;

/** `git diff --name-status -z`: NUL-separated, so any file name (spaces, newlines) comes through whole. */
async function changedFiles(git: GitRepository, range: LocalReviewRange): Promise<ChangedFile[]> {
  const output = await git.run([
    'diff',
    '--name-status',
    '-z',
    '-M',
    ...PLAIN_DIFF,
    range.mergeBase,
    range.headSha
  ]);
  return parseNameStatus(output);
}

/** Parses `-z` name-status output: `STATUS\0path\0`, or `R100\0old\0new\0` for a rename or copy. */
export function parseNameStatus(output: string): ChangedFile[] {
  const fields = output.split('\0');
  const files: ChangedFile[] = [];
  let index = 0;
  while (index < fields.length && fields[index] !== '') {
    const letter = fields[index]![0]!;
    const status = STATUS_NAMES[letter] ?? 'modified';
    if (letter === 'R' || letter === 'C') {
      files.push({ filename: fields[index + 2]!, status, previousFilename: fields[index + 1]! });
      index += 3;
    } else {
      files.push({ filename: fields[index + 1]!, status, previousFilename: undefined });
      index += 2;
    }
  }
  return files;
}

/** The file's unified diff as GitHub lists it: the hunks, from the first `@@`; none for a binary file. */
async function patchOf(
  git: GitRepository,
  range: LocalReviewRange,
  file: ChangedFile
): Promise<string | undefined> {
  // A rename is diffed as the pair, so its patch is the edit, not a deletion and a whole new file.
  const paths =
    file.previousFilename === undefined ? [file.filename] : [file.previousFilename, file.filename];
  const output = await git.run(
    [
      'diff',
      ...PLAIN_DIFF,
      '-U3',
      file.previousFilename === undefined ? '--no-renames' : '-M',
      range.mergeBase,
      range.headSha,
      '--',
      ...paths
    ],
    LITERAL_PATHS
  );
  return hunksOf(output);
}

/** The part of `git diff` output from the first hunk header on, without the final newline. */
export function hunksOf(output: string): string | undefined {
  // Header lines never start with `@@`, and git quotes a file name with a newline in it.
  const first = /^@@/m.exec(output);
  if (first === null) return undefined;
  return output.slice(first.index).replace(/\n$/, '');
}
