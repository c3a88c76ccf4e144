import { inlineText } from '../github/markdown/outbound-neutralize.js';
import type { PostedReviewComment, ReviewThread } from '../github/api/review-api.js';
import { isActionBotComment } from '../github/events/bot-author.js';
import { defuseMarkers } from '../github/markdown/outbound-hidden-markers.js';
import { readFingerprint } from './fingerprint.js';
import { excerpt } from './excerpt.js';
import { commentProse } from './repeat-check.js';
import { checkThreadLines, NOT_CHECKED, type ThreadAnchor, type ThreadLines } from './thread-lines.js';
import type { GitRepository } from '../git/repository.js';

/**
 * Earlier findings a push may have fixed. A thread is a candidate when the action's own bot opened
 * it, it is not resolved, and it is outdated (a push changed its lines): the model is shown these and
 * says with `resolve_thread` which are fixed, but only a thread whose lines the run's own diff shows
 * changed may close (thread-lines.ts). The caller resolves the thread (GraphQL), and when the
 * token may not, replies "Fixed in <sha>" instead. A thread the bot already answered is not shown
 * again, so a failed resolve never leads to a second reply.
 */
export interface ResolutionCandidate {
  readonly threadId: string;
  /** The REST id of the thread's first comment: the id the model names. */
  readonly commentId: number;
  readonly path: string;
  /** The line the comment was first posted on (its current line is gone). */
  readonly originalLine: number | null;
  /** The start of what the comment said, on one line. */
  readonly excerpt: string;
  /** Where it was first posted; undefined when GitHub names no original line. */
  readonly anchor: ThreadAnchor | undefined;
  /** Whether its lines changed since, by the run's own diff; NOT_CHECKED until checkCandidateLines. */
  readonly lines: ThreadLines;
}

const EXCERPT_CHARS = 200;

export function resolutionCandidates(
  threads: readonly ReviewThread[],
  comments: readonly PostedReviewComment[],
  botLogin: string
): ResolutionCandidate[] {
  const byId = new Map(comments.map((comment) => [comment.id, comment] as const));
  const isOwn = (comment: PostedReviewComment | undefined) =>
    comment !== undefined && isActionBotComment(comment, botLogin);
  return threads.flatMap((thread) => {
    const [firstId, ...replyIds] = thread.commentIds;
    const first = firstId === undefined ? undefined : byId.get(firstId);
    if (first === undefined || !isOwn(first) || thread.isResolved || !thread.isOutdated) return [];
    // Only the action's own findings (their marker), and only threads nobody has answered: a person's
    // reply is a discussion the model does not see, and the bot's own is a "Fixed in" already sent.
    if (readFingerprint(first.body) === undefined || replyIds.length > 0) return [];
    return [
      {
        threadId: thread.id,
        commentId: first.id,
        path: first.path,
        originalLine: first.originalLine,
        excerpt: excerpt(commentProse(first.body), EXCERPT_CHARS),
        anchor:
          first.originalLine === null
            ? undefined
            : {
                path: first.path,
                commitId: first.originalCommitId,
                side: first.side,
                startLine: first.originalStartLine ?? first.originalLine,
                endLine: first.originalLine
              },
        lines: NOT_CHECKED
      }
    ];
  });
}

/**
 * The candidates with their lines checked against the reviewed head, by the action's git before the
 * agent's first command (so nothing the agent runs can change what is compared).
 */
export async function checkCandidateLines(
  git: GitRepository,
  candidates: readonly ResolutionCandidate[],
  headSha: string
): Promise<ResolutionCandidate[]> {
  const checked: ResolutionCandidate[] = [];
  for (const candidate of candidates) {
    const lines =
      candidate.anchor === undefined
        ? { kind: 'unknown' as const, reason: 'GitHub names no line it was posted on' }
        : await checkThreadLines(git, candidate.anchor, headSha);
    checked.push({ ...candidate, lines });
  }
  return checked;
}

/** Why a thread may not be resolved, as the model and the report are told; undefined when it may. */
export function unresolvableReason(candidate: ResolutionCandidate, headSha: string): string | undefined {
  const { lines } = candidate;
  if (lines.kind === 'changed') return undefined;
  const where = `${candidate.path}${candidate.anchor ? ` ${linesLabel(candidate.anchor)}` : ''}`;
  if (lines.kind === 'unknown') return `the run cannot check ${where}: ${lines.reason}`;
  const since = candidate.anchor
    ? ` since ${candidate.anchor.commitId.slice(0, 7)}, where the thread was posted`
    : '';
  return (
    `${where} did not change${since}: the run's own diff from there to ${headSha.slice(0, 7)} (the head it ` +
    'reviews) shows no change on those lines, so nothing shows the finding fixed, whatever the pull request says'
  );
}

function linesLabel(anchor: ThreadAnchor): string {
  return anchor.startLine === anchor.endLine
    ? `line ${anchor.endLine}`
    : `lines ${anchor.startLine}-${anchor.endLine}`;
}

/** The candidates as the model's task lists them, one a line. */
export function describeCandidates(candidates: readonly ResolutionCandidate[]): string {
  return candidates
    .map((candidate) => {
      const line = candidate.originalLine === null ? '' : ` (was line ${candidate.originalLine})`;
      const stays = candidate.lines.kind === 'unchanged' ? ' [its lines are unchanged: it stays open]' : '';
      return `- comment_id ${candidate.commentId}: ${candidate.path}${line}${stays}: "${candidate.excerpt}"`;
    })
    .join('\n');
}

export interface ResolutionRequest {
  readonly commentId: number;
  /** The model's words on why it is fixed. */
  readonly reason: string;
}

/** What the caller does for one request: resolve the thread, or, when that fails, post the reply. */
export interface ResolutionPlan {
  readonly threadId: string;
  readonly commentId: number;
  readonly replyIfResolveFails: string;
}

export function planResolution(
  request: ResolutionRequest,
  candidates: readonly ResolutionCandidate[],
  headSha: string,
  redact: (text: string) => string
): ResolutionPlan | undefined {
  const candidate = candidates.find((item) => item.commentId === request.commentId);
  // Checked again here: only a thread whose lines the run's own diff shows changed is ever closed.
  if (candidate === undefined || candidate.lines.kind !== 'changed') return undefined;
  const reason = inlineText(defuseMarkers(redact(request.reason)));
  return {
    threadId: candidate.threadId,
    commentId: candidate.commentId,
    replyIfResolveFails: `Fixed in ${headSha}${reason === '' ? '.' : `: ${reason}`}`
  };
}
