import { z } from 'zod';
import type { Side } from './diff-lines.js';

/**
 * A finding as the model records it with `record_finding`. The field names are the REST API's
 * (`line`, `start_line`, `side`), so what the model learned about GitHub reviews applies as is.
 */

/** One finding is one problem: a comment longer than this is several findings, or an essay. */
export const MAX_FINDING_BODY_CHARS = 4000;
/** The replacement lines; also keeps every comment far below GitHub's 65,536-character limit. */
export const MAX_SUGGESTION_CHARS = 20_000;

export const findingInput = z
  .object({
    path: z
      .string()
      .trim()
      .min(1, 'path is empty: give the file path relative to the repository root.')
      .describe(
        'The file, relative to the repository root, as the pull request names it (e.g. "src/app.ts").'
      ),
    line: z
      .number()
      .int('line must be a whole line number.')
      .min(1, 'line numbers start at 1.')
      .describe(
        'The line the finding is about (the last line of a range). On the RIGHT side a line number of ' +
          'the head (the changed file); on the LEFT side a line number of the base (for deleted lines).'
      ),
    start_line: z
      .number()
      .int('start_line must be a whole line number.')
      .min(1, 'line numbers start at 1.')
      .optional()
      .describe(
        'For a finding about several lines: the first line (less than `line`). Leave out for one line.'
      ),
    side: z
      .enum(
        ['RIGHT', 'LEFT'],
        'side is "RIGHT" (the head: added or unchanged lines) or "LEFT" (deleted lines).'
      )
      .optional()
      .describe(
        '"RIGHT" (default): lines of the head. "LEFT": lines the pull request deletes, by base number.'
      ),
    body: z
      .string()
      .trim()
      .min(1, 'body is empty: say what is wrong and why it matters.')
      .max(
        MAX_FINDING_BODY_CHARS,
        `body is longer than ${MAX_FINDING_BODY_CHARS} characters: one finding per problem, said briefly.`
      )
      .describe('What is wrong, why it matters, and what to do: markdown, brief, one problem.'),
    suggestion: z
      .string()
      .max(
        MAX_SUGGESTION_CHARS,
        `suggestion is longer than ${MAX_SUGGESTION_CHARS} characters: suggest a smaller change, or describe it in body.`
      )
      .optional()
      .describe(
        'The exact text that replaces lines start_line..line (or just `line`) of the head, whole lines, ' +
          'without diff markers or a code fence. Empty deletes those lines. Only for the RIGHT side.'
      )
  })
  .refine((input) => input.start_line === undefined || input.start_line < input.line, {
    message: 'start_line must be less than line (for a single line, leave start_line out).',
    path: ['start_line']
  });

export type FindingInput = z.infer<typeof findingInput>;

export interface Finding {
  readonly path: string;
  readonly line: number;
  /** The first line of a range; absent for one line. */
  readonly startLine: number | undefined;
  readonly side: Side;
  readonly body: string;
  /** The replacement for startLine..line of the head; '' deletes them. */
  readonly suggestion: string | undefined;
}

/** The validated input as the rest of review mode reads it: a path as GitHub spells it, side set. */
export function toFinding(input: FindingInput): Finding {
  return {
    path: normalizePath(input.path),
    line: input.line,
    startLine: input.start_line,
    side: input.side ?? 'RIGHT',
    body: input.body,
    suggestion: input.suggestion === undefined ? undefined : withoutFinalNewline(input.suggestion)
  };
}

/** The first line of a finding's range. */
export function firstLine(finding: Pick<Finding, 'line' | 'startLine'>): number {
  return finding.startLine ?? finding.line;
}

/** `path:line` or `path:start-line`, for the review body and the tool's answers. */
export function location(finding: Pick<Finding, 'path' | 'line' | 'startLine' | 'side'>): string {
  const lines = finding.startLine === undefined ? `${finding.line}` : `${finding.startLine}-${finding.line}`;
  return `${finding.path}:${lines}${finding.side === 'LEFT' ? ' (base)' : ''}`;
}

/** GitHub names files without a leading `./`; the model may write one. */
function normalizePath(path: string): string {
  return path.replace(/^(?:\.\/)+/, '');
}

/** A suggestion's lines replace whole lines: one final newline is the end of the last line, not a blank one. */
function withoutFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}
