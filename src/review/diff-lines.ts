/**
 * The lines of a pull request's diff a review comment may stand on. GitHub anchors a comment by
 * `line` and `side` and refuses the whole review (422) when a line is not in the diff, so the action
 * decides from the same unified-diff `patch` GitHub lists for the file. The side follows the REST
 * docs (docs.github.com/rest/pulls/comments, read 2026-11-25): LEFT is the base (deleted lines, in
 * red), RIGHT the head (added lines, in green); context lines are on both.
 */
export type Side = 'LEFT' | 'RIGHT';

export type DiffLineKind = 'context' | 'added' | 'deleted';

export interface DiffLine {
  readonly kind: DiffLineKind;
  /** The line's number in the base; absent for an added line. */
  readonly baseLine: number | undefined;
  /** The line's number in the head; absent for a deleted line. */
  readonly headLine: number | undefined;
  /** The text without the diff's leading `+`, `-` or space (and without a final carriage return). */
  readonly text: string;
}

export interface Hunk {
  readonly baseStart: number;
  readonly baseCount: number;
  readonly headStart: number;
  readonly headCount: number;
  readonly lines: readonly DiffLine[];
}

export interface FileDiff {
  readonly hunks: readonly Hunk[];
  /** Head line number to the index of its hunk: added and context lines. */
  readonly right: ReadonlyMap<number, number>;
  /** Base line number to the index of its hunk: deleted and context lines. */
  readonly left: ReadonlyMap<number, number>;
}

/** `@@ -7,7 +7,8 @@ optional section heading`; a count left out means 1 (`@@ -1 +1 @@`). */
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** No patch (a binary file, or one GitHub finds too large to show): nothing can be commented on. */
export const EMPTY_DIFF: FileDiff = { hunks: [], right: new Map(), left: new Map() };

/**
 * Parses a unified-diff patch (GitHub's `patch`, or `git diff` output whose file headers are
 * skipped). A hunk's body is read by its counts, so a deleted line that reads `--- x` is not taken
 * for a header, and `\ No newline at end of file` is skipped wherever it stands.
 */
export function parsePatch(patch: string | undefined): FileDiff {
  if (patch === undefined || patch.trim() === '') return EMPTY_DIFF;
  const hunks: Hunk[] = [];
  const lines = patch.split('\n');
  let index = 0;
  while (index < lines.length) {
    const header = HUNK_HEADER.exec(lines[index]!);
    index++;
    if (header === null) continue;
    const read = readHunk(header, lines, index);
    hunks.push(read.hunk);
    index = read.next;
  }
  return indexHunks(hunks);
}

function readHunk(header: RegExpExecArray, lines: readonly string[], start: number) {
  const baseStart = Number(header[1]);
  const baseCount = header[2] === undefined ? 1 : Number(header[2]);
  const headStart = Number(header[3]);
  const headCount = header[4] === undefined ? 1 : Number(header[4]);
  const body: DiffLine[] = [];
  let base = baseStart;
  let head = headStart;
  let baseLeft = baseCount;
  let headLeft = headCount;
  let index = start;
  while (index < lines.length && (baseLeft > 0 || headLeft > 0)) {
    const raw = lines[index]!;
    if (HUNK_HEADER.test(raw)) break;
    index++;
    const marker = raw[0];
    const text = raw.slice(1).replace(/\r$/, '');
    if (marker === '\\') continue;
    if (marker === '+') {
      body.push({ kind: 'added', baseLine: undefined, headLine: head++, text });
      headLeft--;
    } else if (marker === '-') {
      body.push({ kind: 'deleted', baseLine: base++, headLine: undefined, text });
      baseLeft--;
    } else {
      // A context line; an empty one is a blank context line whose space an editor trimmed.
      body.push({ kind: 'context', baseLine: base++, headLine: head++, text });
      baseLeft--;
      headLeft--;
    }
  }
  // A trailing "\ No newline at end of file" after the last counted line belongs to this hunk.
  while (index < lines.length && lines[index]!.startsWith('\\')) index++;
  return { hunk: { baseStart, baseCount, headStart, headCount, lines: body }, next: index };
}

function indexHunks(hunks: readonly Hunk[]): FileDiff {
  const right = new Map<number, number>();
  const left = new Map<number, number>();
  hunks.forEach((hunk, hunkIndex) => {
    for (const line of hunk.lines) {
      if (line.headLine !== undefined) right.set(line.headLine, hunkIndex);
      if (line.baseLine !== undefined) left.set(line.baseLine, hunkIndex);
    }
  });
  return { hunks, right, left };
}

/** The hunk a line of one side belongs to, or undefined when the line is not in the diff. */
export function hunkOf(diff: FileDiff, side: Side, line: number): number | undefined {
  return (side === 'RIGHT' ? diff.right : diff.left).get(line);
}

/** The text the diff shows for a line of one side (the head's for RIGHT, the base's for LEFT). */
export function lineText(diff: FileDiff, side: Side, line: number): string | undefined {
  const hunk = hunkOf(diff, side, line);
  if (hunk === undefined) return undefined;
  const found = diff.hunks[hunk]!.lines.find((diffLine) =>
    side === 'RIGHT' ? diffLine.headLine === line : diffLine.baseLine === line
  );
  return found?.text;
}

/** The commentable lines of one side as ranges, e.g. "7-13, 47-54", to tell the model where it may comment. */
export function commentableRanges(diff: FileDiff, side: Side): string {
  const numbers = [...(side === 'RIGHT' ? diff.right : diff.left).keys()].sort((a, b) => a - b);
  const ranges: string[] = [];
  let first = numbers[0];
  let last = first;
  for (const number of [...numbers.slice(1), undefined]) {
    if (number !== undefined && last !== undefined && number === last + 1) {
      last = number;
      continue;
    }
    if (first !== undefined) ranges.push(first === last ? `${first}` : `${first}-${last}`);
    first = number;
    last = number;
  }
  return ranges.join(', ');
}
