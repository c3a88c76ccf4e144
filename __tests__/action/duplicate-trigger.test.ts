import {
  claimMarker,
  claimsOnThread,
  earlierLiveClaims,
  judgeDuplicate,
  requestKeyOf,
  type Claim,
  type ThreadClaim
} from '../../src/action/duplicate-trigger.js';
import { parseEvent } from '../../src/github/events/event.js';
import type { ThreadComment } from '../../src/github/api/github-api.js';
import { defuseMarkers } from '../../src/github/markdown/outbound-hidden-markers.js';
import { webhookExample } from '../support/webhook-examples.js';

const BOT = 'github-actions[bot]';

function botComment(id: number, body: string): ThreadComment {
  return { id, body, login: BOT, userType: 'Bot', createdAt: '2026-11-26T00:00:00Z' };
}

function claimComment(id: number, claim: Claim): ThreadComment {
  return botComment(id, `🤖 compact-agent has this request\n\n${claimMarker(claim)}`);
}

const always = () => true;
const never = () => false;

describe('the same request: its key', () => {
  it('a comment is its id; the same payload again (a re-run) is the same request', () => {
    const payload = webhookExample('issue_comment', 'created');
    const key = requestKeyOf(parseEvent('issue_comment', payload));
    expect(key).toBe(`issue-comment:${(payload.comment as { id: number }).id}`);
    expect(requestKeyOf(parseEvent('issue_comment', structuredClone(payload)))).toBe(key);
  });

  it('an issue opened and the same issue labeled are one request; another body is another', () => {
    const opened = webhookExample('issues', 'opened');
    const labeled = webhookExample('issues', 'labeled');
    const issue = { ...(opened.issue as Record<string, unknown>), body: '/agent fix the typo' };
    const openedKey = requestKeyOf(parseEvent('issues', { ...opened, issue }));
    const labeledKey = requestKeyOf(parseEvent('issues', { ...labeled, issue }));
    expect(openedKey).toMatch(/^issue:\d+:[0-9a-f]{16}$/);
    expect(labeledKey).toBe(openedKey);
    const edited = { ...issue, body: '/agent fix the other typo' };
    expect(requestKeyOf(parseEvent('issues', { ...labeled, issue: edited }))).not.toBe(openedKey);
  });

  it('a review and a review comment are keyed by their own ids; a push or a dispatch has no key', () => {
    const review = webhookExample('pull_request_review', 'submitted');
    expect(requestKeyOf(parseEvent('pull_request_review', review))).toBe(
      `review:${(review.review as { id: number }).id}`
    );
    const reviewComment = webhookExample('pull_request_review_comment', 'created');
    expect(requestKeyOf(parseEvent('pull_request_review_comment', reviewComment))).toBe(
      `review-comment:${(reviewComment.comment as { id: number }).id}`
    );
    expect(requestKeyOf(parseEvent('pull_request', webhookExample('pull_request', 'synchronize')))).toBe(
      undefined
    );
    expect(requestKeyOf(parseEvent('workflow_dispatch', {}))).toBe(undefined);
  });
});

describe('claims on the thread', () => {
  it('are read from the bot’s comments only, and a defused marker in quoted text is none', () => {
    const claim: Claim = { request: 'issue-comment:1', run: 10, attempt: 1, state: 'served' };
    const forged = { ...botComment(2, claimMarker(claim)), login: 'mallory', userType: 'User' as const };
    const quoted = botComment(3, `The model wrote: ${defuseMarkers(claimMarker(claim))}`);
    const real = claimComment(4, { ...claim, run: 11 });
    const claims = claimsOnThread([forged, quoted, real], BOT, 5);
    expect(claims).toEqual([{ ...claim, run: 11, commentId: 4, position: 2 }]);
  });

  it('ignore a marker whose JSON is not a claim', () => {
    const body = '<!-- compact-agent-claim {"request":"x","run":-1,"attempt":1,"state":"working"} -->';
    expect(claimsOnThread([botComment(1, body)], BOT, 5)).toEqual([]);
  });

  it('count on the thread they name, and a claim naming none (written before claims did) counts anywhere', () => {
    const here: Claim = { request: 'issue-comment:1', run: 10, attempt: 1, state: 'working', thread: 5 };
    const copied: Claim = { request: 'issue-comment:2', run: 12, attempt: 1, state: 'working', thread: 9 };
    const older: Claim = { request: 'issue-comment:3', run: 13, attempt: 1, state: 'working' };
    const comments = [claimComment(1, here), claimComment(2, copied), claimComment(3, older)];
    expect(claimsOnThread(comments, BOT, 5).map((claim) => claim.run)).toEqual([10, 13]);
    expect(claimsOnThread(comments, BOT, 9).map((claim) => claim.run)).toEqual([12, 13]);
  });
});

function at(position: number, claim: Claim): ThreadClaim {
  return { ...claim, commentId: 100 + position, position };
}

describe('a duplicate trigger', () => {
  const own = { request: 'issue:5:abc', run: 20, attempt: 1, commentId: 102 };

  it('an issue opened and labeled: the later claim yields to the earlier run, live or served', () => {
    const earlier = at(1, { request: 'issue:5:abc', run: 19, attempt: 1, state: 'working' });
    const mine = at(2, { request: 'issue:5:abc', run: 20, attempt: 1, state: 'working' });
    const verdict = judgeDuplicate([earlier, mine], own, always);
    expect(verdict).toMatchObject({ duplicate: true, servedBy: { run: 19 } });
    // The earlier run sees this claim after its own: it goes on.
    expect(judgeDuplicate([earlier, mine], { ...own, run: 19, commentId: 101 }, always)).toEqual({
      duplicate: false
    });
    // The earlier run died without a report: this one serves the request.
    expect(judgeDuplicate([earlier, mine], own, never)).toEqual({ duplicate: false });
  });

  it('a re-run of a served request ends quietly; of one that failed before serving, runs', () => {
    const first = at(1, { request: 'issue-comment:7', run: 20, attempt: 1, state: 'served' });
    const rerun = at(3, { request: 'issue-comment:7', run: 20, attempt: 2, state: 'working' });
    const me = { request: 'issue-comment:7', run: 20, attempt: 2, commentId: 103 };
    expect(judgeDuplicate([first, rerun], me, never)).toMatchObject({
      duplicate: true,
      why: 'attempt 1 of this workflow run already served this request'
    });
    const failed = { ...first, state: 'failed' as const };
    expect(judgeDuplicate([failed, rerun], me, always)).toEqual({ duplicate: false });
    const diedWorking = { ...first, state: 'working' as const };
    expect(judgeDuplicate([diedWorking, rerun], me, never)).toEqual({ duplicate: false });
  });

  it('another request on the same thread is no duplicate', () => {
    const other = at(1, { request: 'issue-comment:6', run: 19, attempt: 1, state: 'served' });
    expect(judgeDuplicate([other], { ...own, request: 'issue-comment:7' }, always)).toEqual({
      duplicate: false
    });
  });
});

describe('the queue on a thread', () => {
  const own = { request: 'issue-comment:8', run: 22, attempt: 1, commentId: 103 };

  it('waits for live runs that claimed before it, whatever they asked, and for no later one', () => {
    const first = at(1, { request: 'issue-comment:6', run: 20, attempt: 1, state: 'working' });
    const second = at(2, { request: 'issue-comment:7', run: 21, attempt: 1, state: 'working' });
    const mine = at(3, { ...own, state: 'working' });
    const later = at(4, { request: 'issue-comment:9', run: 23, attempt: 1, state: 'working' });
    expect(earlierLiveClaims([first, second, mine, later], own, always).map((c) => c.run)).toEqual([20, 21]);
    expect(
      earlierLiveClaims([first, second, mine, later], own, (c) => c.run === 21).map((c) => c.run)
    ).toEqual([21]);
  });

  it('does not wait for finished claims, nor for runs that are over without a report', () => {
    const served = at(1, { request: 'issue-comment:6', run: 20, attempt: 1, state: 'served' });
    const dead = at(2, { request: 'issue-comment:7', run: 21, attempt: 1, state: 'working' });
    const mine = at(3, { ...own, state: 'working' });
    expect(earlierLiveClaims([served, dead, mine], own, (c) => c.run === 20)).toEqual([]);
  });
});
