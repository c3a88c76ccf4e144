import { FenceTracker } from '../github/markdown/code-fence.js';
import { MAX_BODY_CHARS, fitSections } from '../github/markdown/outbound-fit-body.js';
import { GITHUB_COMMENT_LIMIT } from '../github/markdown/outbound-comment-limit.js';
import { codeSpan, defuse, inlineText, quoteBlock } from '../github/markdown/outbound-neutralize.js';
import type { NewReview, NewReviewComment } from '../github/api/review-api.js';
import { location } from './finding.js';
import { defuseMarkers } from '../github/markdown/outbound-hidden-markers.js';
import { fingerprintMarker } from './fingerprint.js';
import { suggestionMarkdown, type PlacedSuggestion } from './placement.js';
import type { CheckedFinding } from './repeat-check.js';
import type { SkippedFile } from './reviewed-files.js';

/**
 * The one review the action posts: every new inline finding as a line comment, the rest in the
 * review body. Model text is redacted first (a secret's pattern must still match), then neutralised
 * as reports are: no mentions, closing keywords, HTML, or marker spellings of its own.
 */
export type Redact = (text: string) => string;

export interface ReviewInput {
  /** The head the agent read. */
  readonly commitId: string;
  readonly checked: readonly CheckedFinding[];
  readonly skippedFiles: readonly SkippedFile[];
  /** How many files the review covered, to say so when some were over the cap. */
  readonly reviewedFileCount: number;
  readonly redact: Redact;
  /** The `/agent review <focus>` words, if any. */
  readonly focus?: string | undefined;
  /** The model's overall assessment (its final answer), quoted after the counts. */
  readonly assessment?: string;
  /** Room for the body; GitHub's limit less a margin by default. */
  readonly maxBodyChars?: number;
}

export interface ReviewSummary {
  readonly inline: number;
  readonly inBody: number;
  readonly alreadySaid: number;
  /** Recorded twice in this run: posted once. */
  readonly repeatedInRun: number;
  readonly bodyFindings: readonly { readonly location: string; readonly reason: string }[];
  readonly alreadySaidFindings: readonly { readonly location: string; readonly commentId: number }[];
  readonly skippedFiles: readonly SkippedFile[];
  /** The body did not fit and was cut (the report still lists every finding). */
  readonly bodyCut: boolean;
}

export interface AssembledReview {
  /** Undefined when nothing is new: no review is posted. */
  readonly review: NewReview | undefined;
  readonly summary: ReviewSummary;
}

const CUT_NOTE = `\n\n_This review body was cut to fit GitHub's limit of ${GITHUB_COMMENT_LIMIT.toLocaleString('en-US')} characters; the run's report lists every finding._`;

export function assembleReview(input: ReviewInput): AssembledReview {
  const fresh = input.checked.filter((item) => item.novelty.kind === 'new');
  const inline = fresh.filter((item) => item.placed.where === 'inline');
  const inBody = fresh.filter((item) => item.placed.where === 'body');
  const sections = [
    summaryLine(input, inline.length, inBody.length),
    input.assessment?.trim()
      ? quoteBlock(defuseMarkers(input.redact(input.assessment.replace(/\r\n?/g, '\n'))))
      : '',
    ...inBody.map((item, index) => bodyFinding(item, input.redact, index === 0)),
    ...skippedSection(input)
  ];
  const kept = sections.filter((section) => section !== '');
  const body = fitSections(kept, input.maxBodyChars ?? MAX_BODY_CHARS, CUT_NOTE);
  const summary = summarize(input, inline.length, inBody, body !== kept.join('\n\n'));
  if (inline.length === 0 && inBody.length === 0) return { review: undefined, summary };
  const comments = inline.map((item) => reviewComment(item, input.redact));
  return { review: { commitId: input.commitId, body, event: 'COMMENT', comments }, summary };
}

function reviewComment(item: CheckedFinding, redact: Redact): NewReviewComment {
  const finding = item.placed.finding;
  const range =
    finding.startLine === undefined ? {} : { startLine: finding.startLine, startSide: finding.side };
  return {
    path: finding.path,
    line: finding.line,
    side: finding.side,
    ...range,
    body: inlineCommentBody(item, redact)
  };
}

/** The model's text, then its suggestion, then the fingerprint marker as the last line (see fingerprint.ts). */
export function inlineCommentBody(item: CheckedFinding, redact: Redact): string {
  const finding = item.placed.finding;
  const parts = [modelMarkdown(finding.body, redact)];
  const suggestion = item.placed.suggestion;
  if (suggestion !== undefined) parts.push(suggestionMarkdown(cleanSuggestion(suggestion, redact), finding));
  parts.push(fingerprintMarker(item.fingerprint));
  return parts.join('\n\n');
}

/**
 * The model's markdown, kept as markdown (its code spans and lists render) but defused, and with a
 * code fence it left open closed, so the suggestion and the marker after it are not swallowed.
 */
function modelMarkdown(text: string, redact: Redact): string {
  // Lines as GitHub's markdown ends them (a lone CR too), so an open fence is seen and closed.
  const defused = defuse(defuseMarkers(redact(text))).replace(/\r\n?/g, '\n');
  const fences = new FenceTracker();
  for (const line of defused.split('\n')) fences.read(line);
  return fences.open === undefined ? defused : `${defused}\n${fences.open.marker}`;
}

/**
 * An applicable suggestion is code a person commits, so it is kept byte for byte (inside a fence
 * GitHub renders no mention or tag); if redaction had to change it, it is no longer the fix and is
 * shown as plain text. Plain text is only read, so marker spellings in it are defused too.
 */
function cleanSuggestion(suggestion: PlacedSuggestion, redact: Redact): PlacedSuggestion {
  const redacted = redact(suggestion.text);
  if (suggestion.kind === 'applicable') {
    return redacted === suggestion.text
      ? suggestion
      : { kind: 'plain', text: defuseMarkers(redacted), reason: 'it held text the action redacts' };
  }
  return { ...suggestion, text: defuseMarkers(redacted) };
}

function summaryLine(input: ReviewInput, inline: number, inBody: number): string {
  const focus = input.focus?.trim() ? ` (focus: ${untrustedInline(input.focus, input.redact)})` : '';
  const alreadySaid = input.checked.filter((item) => item.novelty.kind === 'already-said').length;
  const counts = [
    count(inline, 'comment on the diff', 'comments on the diff'),
    count(inBody, 'finding in this body', 'findings in this body'),
    `${alreadySaid} already said in earlier comments`
  ];
  return `**Review of \`${input.commitId.slice(0, 7)}\`**${focus}: ${counts.join(', ')}.`;
}

function bodyFinding(item: CheckedFinding, redact: Redact, first: boolean): string {
  const placed = item.placed;
  const reason = placed.where === 'body' ? placed.reason : '';
  const heading = first ? '### Not on the diff\n\n' : '';
  const lines = [
    `${heading}${untrustedCode(location(placed.finding), redact)}: ${reason}.`,
    '',
    quoteBlock(defuseMarkers(redact(placed.finding.body)))
  ];
  if (placed.suggestion !== undefined) {
    lines.push('', suggestionMarkdown(cleanSuggestion(placed.suggestion, redact), placed.finding));
  }
  // Its fingerprint on a line of its own, so that a later review does not carry it again (repeat-check.ts).
  lines.push('', fingerprintMarker(item.fingerprint));
  return lines.join('\n');
}

function skippedSection(input: ReviewInput): string[] {
  const noDiff = input.skippedFiles.filter((file) => file.reason === 'no-diff');
  const overCap = input.skippedFiles.filter((file) => file.reason === 'over-cap');
  if (noDiff.length === 0 && overCap.length === 0) return [];
  const names = (files: readonly SkippedFile[]) =>
    files.map((file) => untrustedCode(file.path, input.redact)).join(', ');
  const lines = ['### Files not reviewed', ''];
  if (noDiff.length > 0) lines.push(`- No diff from GitHub (binary or too large): ${names(noDiff)}`);
  if (overCap.length > 0) {
    lines.push(
      `- Beyond the first ${input.reviewedFileCount} files this review covers (${overCap.length} more): ${names(overCap)}`
    );
  }
  return [lines.join('\n')];
}

function summarize(
  input: ReviewInput,
  inline: number,
  inBody: readonly CheckedFinding[],
  bodyCut: boolean
): ReviewSummary {
  const alreadySaidFindings = input.checked.flatMap((item) =>
    item.novelty.kind === 'already-said'
      ? [{ location: location(item.placed.finding), commentId: item.novelty.commentId }]
      : []
  );
  return {
    inline,
    inBody: inBody.length,
    alreadySaid: alreadySaidFindings.length,
    repeatedInRun: input.checked.filter((item) => item.novelty.kind === 'repeated-in-run').length,
    bodyFindings: inBody.map((item) => ({
      location: location(item.placed.finding),
      reason: item.placed.where === 'body' ? item.placed.reason : ''
    })),
    alreadySaidFindings,
    skippedFiles: input.skippedFiles,
    bodyCut
  };
}

function untrustedCode(text: string, redact: Redact): string {
  return codeSpan(defuseMarkers(redact(text)));
}

function untrustedInline(text: string, redact: Redact): string {
  return inlineText(defuseMarkers(redact(text)));
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
