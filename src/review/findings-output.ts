import type { Finding } from './finding.js';
import type { PlacedFinding, PlacedSuggestion } from './placement.js';
import type { SkippedFile } from './reviewed-files.js';

/**
 * A local review's findings as `compact-agent review` prints them: text for a person, or JSON for a
 * script. Each finding says where it would go on a pull request (inline, or in the review's body
 * and why), as placement decides for the action, so a local review predicts the posted one.
 */

export interface LocalReviewReport {
  readonly baseRef: string;
  readonly baseCommit: string;
  readonly mergeBase: string;
  readonly headSha: string;
  readonly placed: readonly PlacedFinding[];
  readonly skippedFiles: readonly SkippedFile[];
  /** The model's closing assessment. */
  readonly summary: string;
  readonly stopReason: string;
  readonly error: string | undefined;
  readonly costUsd: number;
  /** Absent when no model was called (nothing changed). */
  readonly transcriptPath: string | undefined;
}

/** Hides secrets in what the model wrote (its findings and summary) before it is printed. */
export type Redact = (text: string) => string;

export interface FindingJson {
  readonly path: string;
  readonly line: number;
  readonly start_line: number | null;
  readonly side: Finding['side'];
  readonly body: string;
  readonly suggestion: string | null;
  readonly placement: {
    readonly where: PlacedFinding['where'];
    /** Why it is not inline; null for an inline finding. */
    readonly reason: string | null;
    /** Whether the suggestion would be a one-click GitHub suggestion; null without a suggestion. */
    readonly suggestion_applicable: boolean | null;
    /** Why the suggestion would be plain text; null when applicable or absent. */
    readonly suggestion_reason: string | null;
  };
}

export function reviewJson(report: LocalReviewReport, redact: Redact): string {
  return JSON.stringify(
    {
      base: report.baseRef,
      base_commit: report.baseCommit,
      merge_base: report.mergeBase,
      head: report.headSha,
      findings: report.placed.map((placed) => findingJson(placed, redact)),
      skipped_files: report.skippedFiles,
      summary: redact(report.summary),
      stop_reason: report.stopReason,
      error: report.error === undefined ? null : redact(report.error),
      cost_usd: report.costUsd,
      transcript: report.transcriptPath ?? null
    },
    null,
    2
  );
}

export function findingJson(placed: PlacedFinding, redact: Redact): FindingJson {
  const { finding, suggestion } = placed;
  return {
    path: finding.path,
    line: finding.line,
    start_line: finding.startLine ?? null,
    side: finding.side,
    body: redact(finding.body),
    suggestion: finding.suggestion === undefined ? null : redact(finding.suggestion),
    placement: {
      where: placed.where,
      reason: placed.where === 'body' ? placed.reason : null,
      suggestion_applicable: suggestion === undefined ? null : suggestion.kind === 'applicable',
      suggestion_reason: suggestion?.kind === 'plain' ? suggestion.reason : null
    }
  };
}

export function reviewText(report: LocalReviewReport, redact: Redact): string {
  // The model's words reach a terminal: no escape sequence of theirs may move the cursor or recolour.
  const clean = (text: string) => printable(redact(text));
  const inline = report.placed.filter((placed) => placed.where === 'inline').length;
  const lines = [
    `${count(report.placed.length, 'finding', 'findings')} (${inline} inline, ` +
      `${report.placed.length - inline} in the body) on HEAD ${report.headSha.slice(0, 7)}, ` +
      `against ${clean(report.baseRef)} (merge base ${report.mergeBase.slice(0, 7)}).`,
    ...report.placed.flatMap((placed, index) => ['', ...findingText(placed, index + 1, clean)]),
    ...skippedText(report.skippedFiles, clean),
    '',
    'Summary:',
    indent(clean(report.summary || '(no summary)'), '  '),
    '',
    `stop reason: ${report.stopReason}${report.error ? ` (${clean(report.error)})` : ''}`,
    `cost: $${report.costUsd.toFixed(4)}`,
    ...(report.transcriptPath === undefined ? [] : [`transcript: ${clean(report.transcriptPath)}`])
  ];
  return lines.join('\n');
}

function findingText(placed: PlacedFinding, number: number, clean: Redact): string[] {
  const { finding } = placed;
  const where = placed.where === 'inline' ? 'inline' : `in the body, because ${clean(placed.reason)}`;
  return [
    `${number}. ${clean(lineRange(finding))} (${finding.side}): ${where}`,
    indent(clean(finding.body), '   '),
    ...(placed.suggestion === undefined ? [] : suggestionText(placed.suggestion, clean))
  ];
}

/** `path:line` or `path:start-line`. */
export function lineRange(finding: Pick<Finding, 'path' | 'line' | 'startLine'>): string {
  const lines = finding.startLine === undefined ? `${finding.line}` : `${finding.startLine}-${finding.line}`;
  return `${finding.path}:${lines}`;
}

function suggestionText(suggestion: PlacedSuggestion, clean: Redact): string[] {
  const kind =
    suggestion.kind === 'applicable'
      ? 'a one-click suggestion'
      : `plain text, not applicable: ${clean(suggestion.reason)}`;
  if (suggestion.text === '') return [`   Suggestion (${kind}): delete these lines.`];
  return [`   Suggestion (${kind}):`, indent(clean(suggestion.text), '     ')];
}

function skippedText(files: readonly SkippedFile[], clean: Redact): string[] {
  if (files.length === 0) return [];
  const reasons = {
    'no-diff': 'no diff: binary, or only its mode changed',
    'over-cap': 'over the file cap'
  } as const;
  return [
    '',
    `Not reviewed (${files.length}): ` +
      files.map((file) => `${clean(file.path)} (${reasons[file.reason]})`).join(', ')
  ];
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `${prefix}${line}`))
    .join('\n');
}

/** Control characters (C0 but tab and newline, DEL, C1) shown as U+FFFD. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\uFFFD');
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
