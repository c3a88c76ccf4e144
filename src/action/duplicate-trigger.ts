import { createHash } from 'node:crypto';
import { z } from 'zod';
import { isActionBotComment } from '../github/events/bot-author.js';
import type { ActionEvent } from '../github/events/event.js';
import type { ThreadComment } from '../github/api/github-api.js';
import { CLAIM_MARKER_NAME } from '../github/markdown/outbound-hidden-markers.js';

/**
 * "The same request", the key a run claims on its thread before it works (see thread-queue.ts):
 *
 * - a comment (`issue_comment`) or a review comment: the comment's id. A re-run of the workflow run
 *   gets the same payload, so the same id: it is the same request.
 * - a review's body (`pull_request_review`): the review's id.
 * - an issue (`issues` opened, labeled, assigned or edited): the number and its title and
 *   body as they are now. GitHub delivers `opened` and `labeled` (and `assigned`) separately for an
 *   issue opened with the trigger label: the same words, so the same request, served once. Labeling
 *   the same issue again later, unchanged, is that request again too: a comment asks anew.
 *
 * Other events (a push to a pull request, a dispatch, a schedule) carry no request of a person on a
 * thread: they have no key, claim nothing and are neither queued nor taken for duplicates.
 */
export function requestKeyOf(event: ActionEvent): string | undefined {
  switch (event.kind) {
    case 'issue_comment':
      return `issue-comment:${event.comment.id}`;
    case 'pull_request_review_comment':
      return `review-comment:${event.comment.id}`;
    case 'pull_request_review':
      return `review:${event.review.id}`;
    case 'issues': {
      const words = createHash('sha256').update(`${event.issue.title}\n\n${event.issue.body}`).digest('hex');
      return `issue:${event.issue.number}:${words.slice(0, 16)}`;
    }
    default:
      return undefined;
  }
}

/**
 * What became of a claim: `working` while its run goes on, `served` once the run's report is on the
 * thread (whatever the agent achieved), `failed` when the run ended before a report (a fault, a
 * refusal), `duplicate` when the run found the request served by another and ended quietly.
 */
export type ClaimState = 'working' | 'served' | 'failed' | 'duplicate';

export interface Claim {
  readonly request: string;
  /** GITHUB_RUN_ID of the run that claimed it, and its GITHUB_RUN_ATTEMPT. */
  readonly run: number;
  readonly attempt: number;
  readonly state: ClaimState;
  /**
   * The issue or pull request it was posted on. A genuine claim copied onto another thread (another
   * workflow quoting it) would otherwise hold that thread's queue while its run lives. Claims written
   * before claims named their thread have none and count wherever they are.
   */
  readonly thread?: number;
}

/** The hidden claim in a comment of the action's (defuseMarkers breaks the name in others' text). */
const CLAIM_PATTERN = /<!-- compact-agent-claim (\{[^\n]*?\}) -->/g;

const claimSchema = z.object({
  request: z.string().min(1).max(200),
  run: z.number().int().positive(),
  attempt: z.number().int().positive(),
  state: z.enum(['working', 'served', 'failed', 'duplicate']),
  thread: z.number().int().positive().optional()
});

export function claimMarker(claim: Claim): string {
  return `<!-- ${CLAIM_MARKER_NAME} ${JSON.stringify(claim)} -->`;
}

/** A claim found on the thread, with the comment that holds it. */
export interface ThreadClaim extends Claim {
  readonly commentId: number;
  /** The comment's place on the thread: GitHub lists issue comments by ascending id. */
  readonly position: number;
}

/**
 * The claims in the thread's comments, oldest first. Only the action's own bot writes them (anyone
 * else's comment is not read); the last valid claim of a comment counts, and one that names another
 * thread counts for nothing here (it was copied).
 */
export function claimsOnThread(
  comments: readonly ThreadComment[],
  botLogin: string,
  thread: number
): ThreadClaim[] {
  const claims: ThreadClaim[] = [];
  comments.forEach((comment, position) => {
    if (!isActionBotComment(comment, botLogin)) return;
    const found = [...comment.body.matchAll(CLAIM_PATTERN)]
      .map((match) => parseClaim(match[1]!))
      .filter((claim): claim is Claim => claim !== undefined)
      .at(-1);
    if (found && (found.thread === undefined || found.thread === thread))
      claims.push({ ...found, commentId: comment.id, position });
  });
  return claims;
}

function parseClaim(json: string): Claim | undefined {
  try {
    const parsed = claimSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** This run, as the judge sees it: its claim's comment decides who came first. */
export interface OwnClaim {
  readonly request: string;
  readonly run: number;
  readonly attempt: number;
  readonly commentId: number;
}

export type DuplicateVerdict =
  | { readonly duplicate: false }
  | { readonly duplicate: true; readonly servedBy: ThreadClaim; readonly why: string };

/**
 * Whether another run serves this request already. `isLive` tells whether a `working` claim's run
 * attempt is still going on (one that is over without a report failed before serving: it counts for
 * nothing, and this run serves the request).
 *
 * - An earlier attempt of this very run (a re-run) whose claim is `served`: a duplicate.
 * - Another run whose claim for the same request comes before this run's on the thread and which
 *   served it or is serving it now: a duplicate (opened and labeled, delivered twice). A later claim
 *   is the other run's to judge: it yields to this one.
 */
export function judgeDuplicate(
  claims: readonly ThreadClaim[],
  own: OwnClaim,
  isLive: (claim: ThreadClaim) => boolean
): DuplicateVerdict {
  const ownPosition = claims.find((claim) => claim.commentId === own.commentId)?.position ?? Infinity;
  for (const claim of claims) {
    if (claim.commentId === own.commentId || claim.request !== own.request) continue;
    const sameRun = claim.run === own.run;
    if (sameRun && claim.attempt >= own.attempt) continue;
    if (!sameRun && claim.position > ownPosition) continue;
    if (claim.state === 'served')
      return {
        duplicate: true,
        servedBy: claim,
        why: sameRun
          ? `attempt ${claim.attempt} of this workflow run already served this request`
          : 'another workflow run already served this request'
      };
    if (claim.state === 'working' && isLive(claim))
      return {
        duplicate: true,
        servedBy: claim,
        why: sameRun
          ? `attempt ${claim.attempt} of this workflow run is serving this request`
          : 'another workflow run is serving this request (it reached more than one run: two events, or two workflows)'
      };
  }
  return { duplicate: false };
}

/**
 * The runs this one waits for: claims on the thread before its own whose runs are still going on
 * (`working` and live). Whatever their request, one run at a time works on a thread, in the order
 * their claims were posted.
 */
export function earlierLiveClaims(
  claims: readonly ThreadClaim[],
  own: OwnClaim,
  isLive: (claim: ThreadClaim) => boolean
): ThreadClaim[] {
  const ownPosition = claims.find((claim) => claim.commentId === own.commentId)?.position ?? Infinity;
  return claims.filter(
    (claim) =>
      claim.commentId !== own.commentId &&
      claim.position < ownPosition &&
      claim.state === 'working' &&
      !(claim.run === own.run && claim.attempt === own.attempt) &&
      isLive(claim)
  );
}
