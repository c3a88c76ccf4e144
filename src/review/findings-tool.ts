import { statSync } from 'node:fs';
import { z } from 'zod';
import { readRegularFileSync } from '../files/bounded-file-sync.js';
import { defineTool, type Tool } from '../tools/tool.js';
import { ToolError } from '../tools/tool-error.js';
import type { Workspace } from '../tools/workspace.js';
import { commentableRanges, type FileDiff } from './diff-lines.js';
import { findingInput, location, toFinding, type Finding } from './finding.js';
import type { FindingsCollector } from './findings-collector.js';
import { unresolvableReason, type ResolutionCandidate } from './fixed-threads.js';
import { placeFinding, type PlacedFinding } from './placement.js';

/**
 * The review run's two tools. They only record: nothing is posted until the run ends, and nothing
 * in the workspace is written (a file is read only to check a path and a suggestion).
 */
export const RECORD_FINDING_TOOL = 'record_finding';
export const RESOLVE_THREAD_TOOL = 'resolve_thread';

/** How many changed files an error names, so the model can correct a path. */
const NAMED_FILES = 20;
const MAX_REASON_CHARS = 500;

export interface FindingsToolScope {
  readonly collector: FindingsCollector;
  /** Each changed file's parsed patch (EMPTY_DIFF for one GitHub shows no diff of). */
  readonly diffs: ReadonlyMap<string, FileDiff>;
}

export function recordFindingTool(scope: FindingsToolScope): Tool<unknown> {
  return defineTool({
    name: RECORD_FINDING_TOOL,
    description:
      'Record one review finding. All findings are posted together as one pull request review when you ' +
      'finish. A good finding is a real problem in the changes (a bug, a security hole, a broken contract, ' +
      'an unhandled error, a test that does not test what it claims), with what is wrong, why it matters and ' +
      'what to do; one problem per finding, no praise or style nits. It is posted inline only when every line ' +
      'of start_line..line is part of the diff on its side (RIGHT: added and unchanged lines the diff shows, ' +
      'by head line number; LEFT: deleted lines, by base line number) and in one hunk; otherwise it goes in ' +
      'the review body with the reason. `suggestion` replaces exactly lines start_line..line (or line) of the ' +
      'head with its text: give whole lines with their indentation.',
    inputSchema: findingInput,
    async run(input, context) {
      const finding = toFinding(input);
      const diff = scope.diffs.get(finding.path);
      if (diff === undefined) checkRepositoryFile(finding.path, context.workspace, scope.diffs);
      const placed = placeFinding(finding, diff, (path) => headText(context.workspace, path));
      const added = scope.collector.add(finding);
      if (added.kind === 'full') {
        throw new ToolError(
          `Not recorded: this review already has ${added.max} findings, the most one review takes. ` +
            'Keep the ones that matter most; say the rest in your final summary.'
        );
      }
      if (added.kind === 'duplicate') {
        return { content: `Already recorded as finding ${added.number}; not added again.` };
      }
      return { content: recordedAnswer(added.number, placed, diff) };
    }
  });
}

/** A finding on a file the pull request does not change goes in the body, but the file must exist. */
function checkRepositoryFile(path: string, workspace: Workspace, diffs: ReadonlyMap<string, FileDiff>): void {
  const absolute = workspace.resolveForRead(path);
  if (isFile(absolute)) return;
  const names = [...diffs.keys()];
  const shown = names.slice(0, NAMED_FILES).join(', ');
  const more = names.length > NAMED_FILES ? ` and ${names.length - NAMED_FILES} more` : '';
  throw new ToolError(
    `Not recorded: ${path} is neither a file this pull request changes nor a file in the repository. ` +
      `Changed files: ${shown}${more}.`
  );
}

const MAX_HEAD_BYTES = 1024 * 1024;

function headText(workspace: Workspace, path: string): string | undefined {
  try {
    const absolute = workspace.resolveForRead(path);
    // Only to tell the model whether its suggestion applies: a huge file (the agent can plant one) or a
    // FIFO is not read, and the suggestion is checked again at publishing against the reviewed commit.
    const bytes = readRegularFileSync(absolute, MAX_HEAD_BYTES);
    return bytes.subarray(0, 8000).includes(0) ? undefined : bytes.toString('utf8');
  } catch {
    return undefined;
  }
}

function isFile(absolute: string): boolean {
  try {
    return statSync(absolute).isFile();
  } catch {
    return false;
  }
}

/** Where the finding will go and why, so the model can move a finding onto the diff if it meant to. */
function recordedAnswer(number: number, placed: PlacedFinding, diff: FileDiff | undefined): string {
  const finding = placed.finding;
  const head = `Recorded finding ${number} at ${location(finding)}`;
  const where =
    placed.where === 'inline'
      ? `${head}: it will be an inline comment on the diff.`
      : `${head}: it will go in the review body, because ${placed.reason}.${rangesHint(finding, diff)}`;
  const suggestion = placed.suggestion;
  if (suggestion === undefined) return where;
  return suggestion.kind === 'applicable'
    ? `${where} The suggestion will be a one-click change of those lines.`
    : `${where} The suggestion will be shown as plain text: ${suggestion.reason}.`;
}

function rangesHint(finding: Finding, diff: FileDiff | undefined): string {
  if (diff === undefined || diff.hunks.length === 0) return '';
  const ranges = commentableRanges(diff, finding.side);
  const side = finding.side === 'LEFT' ? 'LEFT (base)' : 'RIGHT (head)';
  return ranges === ''
    ? ` No ${side} line of ${finding.path} is in the diff.`
    : ` Lines of ${finding.path} you can comment on inline (${side}): ${ranges}.`;
}

const resolveThreadInput = z.object({
  comment_id: z
    .number()
    .int('comment_id is the number listed in your task.')
    .describe('The comment_id of an earlier review thread of yours, as listed in your task.'),
  reason: z
    .string()
    .trim()
    .min(1, 'reason is empty: say what in the current code fixes it.')
    .max(MAX_REASON_CHARS, `reason is longer than ${MAX_REASON_CHARS} characters: one sentence is enough.`)
    .describe('One sentence: what in the current code fixes it.')
});

export function resolveThreadTool(
  collector: FindingsCollector,
  candidates: readonly ResolutionCandidate[],
  headSha: string
): Tool<unknown> {
  return defineTool({
    name: RESOLVE_THREAD_TOOL,
    description:
      'Say that one of your earlier review threads listed in your task is fixed by the current code. Read ' +
      'the code first: call it only when the problem is gone. When the review is posted the thread is ' +
      'resolved (or, if that is not allowed, answered "Fixed in <commit>"). Only the listed comment_ids are accepted, ' +
      "and only a thread whose lines changed since it was posted (the run's own git diff decides, not the pull request's text).",
    inputSchema: resolveThreadInput,
    async run(input) {
      const candidate = candidates.find((item) => item.commentId === input.comment_id);
      if (candidate === undefined) throw new ToolError(unknownThread(input.comment_id, candidates));
      const refused = unresolvableReason(candidate, headSha);
      if (refused !== undefined) {
        throw new ToolError(
          `Not accepted: the thread of comment ${input.comment_id} stays open, because ${refused}. ` +
            'Do not resolve it; if you believe the problem is gone for another reason, say so in your final summary.'
        );
      }
      const added = collector.requestResolution({ commentId: input.comment_id, reason: input.reason });
      return {
        content: added
          ? `Noted: the thread of comment ${input.comment_id} (${candidate.path}) will be resolved as fixed.`
          : `Already noted: the thread of comment ${input.comment_id} will be resolved.`
      };
    }
  });
}

function unknownThread(commentId: number, candidates: readonly ResolutionCandidate[]): string {
  if (candidates.length === 0) {
    return `Not accepted: ${commentId} is not a thread you may resolve; this review lists none.`;
  }
  const ids = candidates.map((candidate) => candidate.commentId).join(', ');
  return `Not accepted: ${commentId} is not one of the threads listed in your task (comment_ids: ${ids}).`;
}
