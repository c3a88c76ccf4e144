import { errorFirstLine } from '../errors/error-message.js';
import type { GitRepository } from '../git/repository.js';

/**
 * Whether the code a thread stands on has changed since the thread was posted, by the run's own
 * diff: the action's git compares the commit the comment was first posted on with the head this run
 * reviews, for the thread's file, and looks at the thread's lines. Only then may `resolve_thread`
 * close it. GitHub's "outdated" flag says only that the diff around the lines moved (a line added
 * above does that), and the model's word can come from the pull request's own text: neither shows
 * that anything changed where the finding is.
 */
export type ThreadLines =
  | { readonly kind: 'changed' }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'unknown'; readonly reason: string };

/** Where a thread was posted: its file, its commit, and its lines there. */
export interface ThreadAnchor {
  readonly path: string;
  readonly commitId: string;
  readonly side: 'LEFT' | 'RIGHT';
  readonly startLine: number;
  readonly endLine: number;
}

export const NOT_CHECKED: ThreadLines = { kind: 'unknown', reason: 'its lines were not checked' };

const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export async function checkThreadLines(
  git: GitRepository,
  anchor: ThreadAnchor,
  headSha: string
): Promise<ThreadLines> {
  if (anchor.side === 'LEFT') {
    return { kind: 'unknown', reason: 'it is on lines the pull request removed (the LEFT side)' };
  }
  if (!COMMIT_ID.test(anchor.commitId) || !COMMIT_ID.test(headSha)) {
    return {
      kind: 'unknown',
      reason: `GitHub named no usable commit for it (${anchor.commitId.slice(0, 40)})`
    };
  }
  if (!(await hasCommit(git, anchor.commitId))) {
    return {
      kind: 'unknown',
      reason:
        `the commit it was posted on (${anchor.commitId.slice(0, 12)}) is not in the checkout and could not ` +
        'be fetched (a force-push may have dropped it)'
    };
  }
  let diff: string;
  try {
    diff = await git.run([
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '--unified=0',
      anchor.commitId,
      headSha,
      '--',
      `:(literal)${anchor.path}`
    ]);
  } catch (error) {
    return { kind: 'unknown', reason: `git could not compare the two commits (${errorFirstLine(error)})` };
  }
  return touchesLines(diff, anchor.startLine, anchor.endLine) ? { kind: 'changed' } : { kind: 'unchanged' };
}

/** The commit is here, or one fetch by its id brings it (a shallow checkout holds only the head). */
async function hasCommit(git: GitRepository, commit: string): Promise<boolean> {
  const present = () =>
    git.run(['cat-file', '-e', `${commit}^{commit}`]).then(
      () => true,
      () => false
    );
  if (await present()) return true;
  await git.run(['fetch', '--no-tags', '--quiet', 'origin', commit]).catch(() => undefined);
  return present();
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/**
 * Whether a zero-context diff changes any of the old side's lines start..end: a hunk that removes
 * or rewrites one of them, or that adds lines between two of them.
 */
export function touchesLines(diff: string, start: number, end: number): boolean {
  for (const line of diff.split('\n')) {
    const match = HUNK_HEADER.exec(line);
    if (!match) continue;
    const first = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    // With no old line, the hunk adds after line `first`: inside the range only between two of its lines.
    const touched = count === 0 ? first >= start && first < end : first <= end && first + count - 1 >= start;
    if (touched) return true;
  }
  return false;
}
