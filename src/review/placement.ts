import { hunkOf, lineText, type FileDiff } from './diff-lines.js';
import { firstLine, type Finding } from './finding.js';

/**
 * Where each finding goes: inline, on the diff, only when GitHub will take it (one line outside the
 * diff fails the whole review with 422), else in the review body with the reason. A suggestion stays
 * a GitHub suggestion only when it applies cleanly; else it is shown as plain text.
 *
 * GitHub's rules, as read 2026-11-25 (through the docs search; the English pages were not in it whole):
 * - docs.github.com/rest/pulls/comments (its parameter text, as GitHub's OpenAPI description has it):
 *   `side` LEFT is deletions, RIGHT additions or context; for a multi-line comment `side` is the last
 *   line's and `start_side` the first's. That every line must be in one hunk is notes/protocols.md's.
 * - docs.github.com/.../reviewing-changes-in-pull-requests/incorporating-feedback-in-your-pull-request
 *   (read in its translated copies): applying a suggestion commits it on the head branch.
 * - What GitHub says under a suggestion it will not apply (on github.com pull request pages):
 *   "Applying suggestions on deleted lines is not supported", "You must change the existing code in
 *   this line in order to create a valid suggestion", "Outdated suggestions cannot be applied".
 */

/** A suggestion as posted: a GitHub suggestion block, or plain text with why it is not one. */
export type PlacedSuggestion =
  | { readonly kind: 'applicable'; readonly text: string }
  | { readonly kind: 'plain'; readonly text: string; readonly reason: string };

export type PlacedFinding =
  | { readonly where: 'inline'; readonly finding: Finding; readonly suggestion: PlacedSuggestion | undefined }
  | {
      readonly where: 'body';
      readonly finding: Finding;
      /** Why it is not inline, e.g. "line 40 is not part of the diff". */
      readonly reason: string;
      readonly suggestion: PlacedSuggestion | undefined;
    };

/** The head's text of a file (what the agent read), or undefined when it cannot be read. */
export type ReadHead = (path: string) => string | undefined;

/** Every finding placed; `diffs` holds each changed file's parsed patch (EMPTY_DIFF when GitHub has none). */
export function placeFindings(
  findings: readonly Finding[],
  diffs: ReadonlyMap<string, FileDiff>,
  readHead: ReadHead
): PlacedFinding[] {
  return findings.map((finding) => placeFinding(finding, diffs.get(finding.path), readHead));
}

export function placeFinding(
  finding: Finding,
  diff: FileDiff | undefined,
  readHead: ReadHead
): PlacedFinding {
  const reason = notInlineReason(finding, diff);
  if (reason !== undefined) {
    const suggestion = plainSuggestion(finding, 'the finding is not on the diff');
    return { where: 'body', finding, reason, suggestion };
  }
  return { where: 'inline', finding, suggestion: placeSuggestion(finding, diff!, readHead) };
}

/** Why GitHub would refuse the finding as an inline comment, or undefined when it takes it. */
export function notInlineReason(finding: Finding, diff: FileDiff | undefined): string | undefined {
  if (diff === undefined) return 'the file is not changed in this pull request';
  if (diff.hunks.length === 0) return 'GitHub shows no diff for the file (binary or too large)';
  const base = finding.side === 'LEFT' ? ' of the base' : '';
  const first = firstLine(finding);
  const firstHunk = hunkOf(diff, finding.side, first);
  const lastHunk = hunkOf(diff, finding.side, finding.line);
  if (firstHunk === undefined) return `line ${first}${base} is not part of the diff`;
  if (lastHunk === undefined) return `line ${finding.line}${base} is not part of the diff`;
  // Within one hunk a side's numbers run without a gap, so both ends in it means every line is.
  if (firstHunk !== lastHunk) return `lines ${first}-${finding.line} span two hunks`;
  return undefined;
}

/** An inline finding's suggestion: applicable only on the head's lines as the diff shows them, and new. */
function placeSuggestion(finding: Finding, diff: FileDiff, readHead: ReadHead): PlacedSuggestion | undefined {
  if (finding.suggestion === undefined) return undefined;
  const reason = unapplicableReason(finding, finding.suggestion, diff, readHead);
  return reason === undefined
    ? { kind: 'applicable', text: finding.suggestion }
    : plainSuggestion(finding, reason);
}

function unapplicableReason(
  finding: Finding,
  suggestion: string,
  diff: FileDiff,
  readHead: ReadHead
): string | undefined {
  if (finding.side === 'LEFT')
    return 'it is on deleted lines, and GitHub applies suggestions to the head only';
  const head = readHead(finding.path);
  if (head === undefined) return "the head's text of the file could not be read";
  const headLines = head.split(/\r?\n/);
  if (headLines.at(-1) === '') headLines.pop();
  const first = firstLine(finding);
  if (finding.line > headLines.length) return `the head has no line ${finding.line}`;
  const current = headLines.slice(first - 1, finding.line);
  const shown = current.map((_, offset) => lineText(diff, 'RIGHT', first + offset));
  if (current.some((text, offset) => text !== shown[offset])) {
    return "the head's lines differ from the diff's (the file changed since)";
  }
  if (current.join('\n') === suggestion.replace(/\r\n/g, '\n')) return 'it is the same as the current lines';
  return undefined;
}

export function plainSuggestion(finding: Finding, reason: string): PlacedSuggestion | undefined {
  return finding.suggestion === undefined ? undefined : { kind: 'plain', text: finding.suggestion, reason };
}

/**
 * The suggestion as markdown. The fence is longer than any backtick run in the text, so no line of
 * it can close the block early (and a tilde fence inside cannot close a backtick one). A suggestion
 * block's content is kept byte for byte: it is what a person commits.
 */
export function suggestionMarkdown(suggestion: PlacedSuggestion, finding: Finding): string {
  const ticks = '`'.repeat(Math.max(3, longestBacktickRun(suggestion.text) + 1));
  if (suggestion.kind === 'applicable') {
    return suggestion.text === ''
      ? `${ticks}suggestion\n${ticks}`
      : `${ticks}suggestion\n${suggestion.text}\n${ticks}`;
  }
  const lead = `Suggested replacement (not applicable as a suggestion: ${suggestion.reason})`;
  if (suggestion.text === '') return `${lead}: delete ${linesLabel(finding)}.`;
  return `${lead}, for ${linesLabel(finding)}:\n\n${ticks}\n${suggestion.text}\n${ticks}`;
}

function linesLabel(finding: Finding): string {
  return finding.startLine === undefined
    ? `line ${finding.line}`
    : `lines ${finding.startLine}-${finding.line}`;
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}
