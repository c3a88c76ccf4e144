import type { PostedReview, PostedReviewComment } from '../github/api/review-api.js';
import { isActionBotComment } from '../github/events/bot-author.js';
import { FenceTracker } from '../github/markdown/code-fence.js';
import { firstLine, type Finding } from './finding.js';
import { findingFingerprint, normalizeText, readFingerprint } from './fingerprint.js';
import type { PlacedFinding } from './placement.js';

/**
 * "Never the same comment twice": a finding is already said when an earlier finding of the action
 * (the bot's comment that ends with its fingerprint marker) stands on the same file, side and
 * overlapping lines and says the same thing: the same fingerprint, or nearly the same words (a later
 * run rewording it). A comment without the marker is never the action's finding, whoever posted it.
 *
 * Words: the sets of lower-cased word tokens, similar when their Jaccard index (shared / all) is at
 * least 0.8. Word sets ignore order, punctuation and markup, so a re-run that words a finding a
 * little differently still matches; 0.8 needs four in five distinct words shared, so two comments
 * that merely name the same code (its identifiers are the shared words) rarely pass.
 */
export const SIMILARITY_THRESHOLD = 0.8;

export type Novelty =
  | { readonly kind: 'new' }
  | {
      readonly kind: 'already-said';
      readonly commentId: number;
      /** A line comment's id, or, for a finding an earlier review carried in its body, that review's id. */
      readonly by: 'fingerprint' | 'similar words' | 'review body';
    }
  /** The same finding recorded earlier in this run, at `index` of the list. */
  | { readonly kind: 'repeated-in-run'; readonly index: number };

export interface CheckedFinding {
  readonly placed: PlacedFinding;
  readonly fingerprint: string;
  readonly novelty: Novelty;
}

export function checkRepeats(
  placed: readonly PlacedFinding[],
  earlier: readonly PostedReviewComment[],
  botLogin: string,
  earlierReviews: readonly PostedReview[] = []
): CheckedFinding[] {
  const own = ownFindingComments(earlier, botLogin);
  const inBodies = bodyFingerprints(earlierReviews, botLogin);
  const checked: CheckedFinding[] = [];
  placed.forEach((item) => {
    const fingerprint = findingFingerprint(item.finding.path, item.finding.body);
    const said = novelty(item.finding, fingerprint, own, checked);
    const inBody = inBodies.get(fingerprint);
    checked.push({
      placed: item,
      fingerprint,
      novelty:
        said.kind === 'new' && inBody !== undefined
          ? { kind: 'already-said', commentId: inBody, by: 'review body' }
          : said
    });
  });
  return checked;
}

const BODY_MARKER = /^<!-- compact-agent-finding:([0-9a-f]{16}) -->$/gm;

/**
 * The findings the bot's earlier reviews carried in their bodies (off the diff), by fingerprint: each
 * ends with its marker on a line of its own. A finding in a body has no lines to compare, so there
 * the fingerprint alone (the file and what it says) decides. Only the bot's own reviews are read,
 * and the model's text in them was defused, so every marker there is one the action wrote.
 */
function bodyFingerprints(reviews: readonly PostedReview[], botLogin: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const review of reviews) {
    if (!isActionBotComment(review, botLogin)) continue;
    for (const match of review.body.matchAll(BODY_MARKER))
      if (!found.has(match[1]!)) found.set(match[1]!, review.id);
  }
  return found;
}

/**
 * The bot's own findings: its login AND a Bot account (a user may register the login of a bot's
 * name), and not replies (the bot's replies in a thread are "Fixed in …", not findings).
 */
export function ownFindingComments(
  earlier: readonly PostedReviewComment[],
  botLogin: string
): PostedReviewComment[] {
  return earlier.filter(
    (comment) => isActionBotComment(comment, botLogin) && comment.inReplyToId === undefined
  );
}

function novelty(
  finding: Finding,
  fingerprint: string,
  own: readonly PostedReviewComment[],
  before: readonly CheckedFinding[]
): Novelty {
  const index = before.findIndex(
    (other) =>
      other.novelty.kind === 'new' &&
      sameLines(finding, other.placed.finding) &&
      (other.fingerprint === fingerprint || similar(finding.body, other.placed.finding.body))
  );
  if (index !== -1) return { kind: 'repeated-in-run', index };
  for (const comment of own) {
    if (!onSameLines(finding, comment)) continue;
    // Only a comment with the action's marker is one of its findings: the default bot_name,
    // github-actions[bot], is every GITHUB_TOKEN workflow's, and theirs must not silence ours.
    const marked = readFingerprint(comment.body);
    if (marked === undefined) continue;
    if (marked === fingerprint) return { kind: 'already-said', commentId: comment.id, by: 'fingerprint' };
    // The same finding worded a little differently by a later run.
    if (similar(finding.body, commentProse(comment.body)))
      return { kind: 'already-said', commentId: comment.id, by: 'similar words' };
  }
  return { kind: 'new' };
}

function sameLines(a: Finding, b: Finding): boolean {
  return a.path === b.path && a.side === b.side && overlap(firstLine(a), a.line, firstLine(b), b.line);
}

/** An outdated comment (its line is gone from the head: `line` null) is on no line of this head. */
function onSameLines(finding: Finding, comment: PostedReviewComment): boolean {
  if (comment.line === null || comment.path !== finding.path || comment.side !== finding.side) return false;
  return overlap(firstLine(finding), finding.line, comment.startLine ?? comment.line, comment.line);
}

function overlap(firstA: number, lastA: number, firstB: number, lastB: number): boolean {
  return firstA <= lastB && firstB <= lastA;
}

/** Whether two texts use nearly the same words (see SIMILARITY_THRESHOLD). */
export function similar(a: string, b: string): boolean {
  return tokenJaccard(a, b) >= SIMILARITY_THRESHOLD;
}

export function tokenJaccard(a: string, b: string): number {
  const tokensA = tokens(a);
  const tokensB = tokens(b);
  if (tokensA.size === 0 || tokensB.size === 0) return 0;
  let shared = 0;
  for (const token of tokensA) if (tokensB.has(token)) shared++;
  return shared / (tokensA.size + tokensB.size - shared);
}

function tokens(text: string): Set<string> {
  return new Set(normalizeText(text).match(/[\p{L}\p{N}_]+/gu) ?? []);
}

/** A posted comment's own words: without its code blocks (suggestions) and HTML comments. */
export function commentProse(body: string): string {
  const fences = new FenceTracker();
  const kept = body.split('\n').filter((line) => fences.read(line) === 'outside');
  return kept.join('\n').replace(/<!--[\s\S]*?(?:-->|$)/g, ' ');
}
