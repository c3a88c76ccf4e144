import type { PostedReviewComment, ReviewThread } from '../../src/github/api/review-api.js';
import { findingFingerprint, fingerprintMarker } from '../../src/review/fingerprint.js';
import { describeCandidates, planResolution, resolutionCandidates } from '../../src/review/fixed-threads.js';

const BOT = 'compact-agent[bot]';
const HEAD = '5f3c0de1a2b3c4d5e6f708192a3b4c5d6e7f8091';
const BODY = 'A limit of 1000 characters lets the unanchored regex run on long input.';

const comment = (id: number, overrides: Partial<PostedReviewComment> = {}): PostedReviewComment => ({
  id,
  body: `${BODY}\n\n\`\`\`suggestion\n  if (str.length > 100) {\n\`\`\`\n\n${fingerprintMarker(findingFingerprint('index.js', BODY))}`,
  login: BOT,
  userType: 'Bot',
  path: 'index.js',
  line: null,
  startLine: null,
  originalCommitId: 'c'.repeat(40),
  originalStartLine: null,
  originalLine: 50,
  side: 'RIGHT',
  commitId: 'a'.repeat(40),
  inReplyToId: undefined,
  createdAt: '2026-11-24T10:00:00Z',
  ...overrides
});
const thread = (id: string, commentIds: number[], overrides: Partial<ReviewThread> = {}): ReviewThread => ({
  id,
  isResolved: false,
  isOutdated: true,
  commentIds,
  ...overrides
});

describe('resolutionCandidates', () => {
  const comments = [
    comment(1),
    comment(2),
    comment(3),
    comment(4, { login: 'octocat', userType: 'User' }),
    comment(5, { userType: 'User' }),
    comment(6),
    comment(7, { inReplyToId: 6, body: 'Fixed in abc.' }),
    comment(8),
    comment(9, { inReplyToId: 8, login: 'octocat', userType: 'User', body: 'Still broken?' })
  ];
  const threads = [
    thread('T1', [1]),
    thread('T2', [2], { isResolved: true }),
    thread('T3', [3], { isOutdated: false }),
    thread('T4', [4]),
    thread('T5', [5]),
    thread('T6', [6, 7]),
    thread('T8', [8, 9]),
    thread('T0', [])
  ];

  it("lists the bot's own unresolved outdated findings that nobody answered yet", () => {
    const candidates = resolutionCandidates(threads, comments, BOT);
    // T6: the bot answered already; T8: a person replied, a discussion the model does not see.
    expect(candidates.map((c) => c.threadId)).toEqual(['T1']);
    expect(candidates[0]).toEqual({
      threadId: 'T1',
      commentId: 1,
      path: 'index.js',
      originalLine: 50,
      excerpt: BODY,
      anchor: { path: 'index.js', commitId: 'c'.repeat(40), side: 'RIGHT', startLine: 50, endLine: 50 },
      // Not trusted until kinds/review.ts has compared the commits with git.
      lines: { kind: 'unknown', reason: 'its lines were not checked' }
    });
  });

  it('describes them for the task, one a line, without suggestion blocks or markers', () => {
    const text = describeCandidates(resolutionCandidates(threads, comments, BOT));
    expect(text).toBe(`- comment_id 1: index.js (was line 50): "${BODY}"`);
  });

  it("leaves out a bot comment without the action's marker (another workflow's, as github-actions[bot])", () => {
    expect(resolutionCandidates([thread('T', [1])], [comment(1, { body: BODY })], BOT)).toEqual([]);
  });

  it('cuts a long excerpt', () => {
    const [candidate] = resolutionCandidates(
      [thread('T', [1])],
      [comment(1, { body: `${'word '.repeat(100)}\n\n${fingerprintMarker('0123456789abcdef')}` })],
      BOT
    );
    expect([...candidate!.excerpt]).toHaveLength(200);
    expect(candidate!.excerpt.endsWith('…')).toBe(true);
  });
});

describe('planResolution', () => {
  const unchecked = resolutionCandidates([thread('T1', [1])], [comment(1)], BOT);
  const candidates = unchecked.map((candidate) => ({ ...candidate, lines: { kind: 'changed' as const } }));
  const redact = (text: string) => text.replaceAll('ghp_secret', '***');

  it('resolves the thread, with a "Fixed in" reply for when resolving is not allowed', () => {
    expect(
      planResolution(
        { commentId: 1, reason: 'The limit is 100 again @octocat ghp_secret' },
        candidates,
        HEAD,
        redact
      )
    ).toEqual({
      threadId: 'T1',
      commentId: 1,
      replyIfResolveFails: `Fixed in ${HEAD}: The limit is 100 again @\u2060octocat ***`
    });
  });

  it('has no plan for a comment that is not a candidate', () => {
    expect(planResolution({ commentId: 2, reason: 'x' }, candidates, HEAD, redact)).toBeUndefined();
  });

  it("has no plan for a thread whose lines the run's own diff did not show changed", () => {
    expect(planResolution({ commentId: 1, reason: 'fixed' }, unchecked, HEAD, redact)).toBeUndefined();
    const unchanged = unchecked.map((candidate) => ({ ...candidate, lines: { kind: 'unchanged' as const } }));
    expect(planResolution({ commentId: 1, reason: 'fixed' }, unchanged, HEAD, redact)).toBeUndefined();
  });
});
