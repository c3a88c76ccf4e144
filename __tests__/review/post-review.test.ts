import {
  ReviewRejectedError,
  type NewReview,
  type PostedReview,
  type PostedReviewComment,
  type PullRequestReviews,
  type ReviewFile,
  type ReviewThread
} from '../../src/github/api/review-api.js';
import type { Finding } from '../../src/review/finding.js';
import { FindingsCollector } from '../../src/review/findings-collector.js';
import { findingFingerprint, fingerprintMarker } from '../../src/review/fingerprint.js';
import { postReview } from '../../src/review/post-review.js';
import type { ReviewContext } from '../../src/review/review-context.js';
import { readReviewContext } from '../../src/review/review-context.js';
import { renderReviewSection } from '../../src/review/review-report.js';
import { MS_PATH, msHead, msPatch } from './fixtures.js';

const BOT = 'github-actions[bot]';
const HEAD = '5f3c0de1a2b3c4d5e6f708192a3b4c5d6e7f8091';

/** Our interface in memory: records what a review run asks of GitHub, and can say no. */
class MemoryReviews implements PullRequestReviews {
  readonly created: NewReview[] = [];
  readonly replies: { commentId: number; body: string }[] = [];
  readonly resolvedThreads: string[] = [];
  rejectInlineOnce: string | undefined;
  rejectAll: string | undefined;
  resolveForbidden = false;
  threadsFail = false;

  constructor(
    private readonly files: ReviewFile[],
    private readonly comments: PostedReviewComment[] = [],
    private readonly threads: ReviewThread[] = [],
    private readonly reviews: PostedReview[] = []
  ) {}

  headSha = async () => HEAD;
  listReviewFiles = async () => this.files;
  listReviewComments = async () => this.comments;
  listReviews = async () => this.reviews;
  async createReview(_pull: number, review: NewReview) {
    if (this.rejectAll !== undefined) throw new ReviewRejectedError(this.rejectAll);
    if (this.rejectInlineOnce !== undefined && review.comments.length > 0) {
      const message = this.rejectInlineOnce;
      this.rejectInlineOnce = undefined;
      throw new ReviewRejectedError(message);
    }
    this.created.push(review);
    return {
      id: 900 + this.created.length,
      url: `https://github.com/o/r/pull/7#pullrequestreview-${900 + this.created.length}`
    };
  }
  async replyToReviewComment(_pull: number, commentId: number, body: string) {
    this.replies.push({ commentId, body });
    return { id: 1, url: 'u' };
  }
  async listReviewThreads() {
    if (this.threadsFail) throw new Error('GraphQL: Something went wrong');
    return this.threads;
  }
  async resolveReviewThread(threadId: string) {
    if (this.resolveForbidden) throw new Error('Resource not accessible by integration');
    this.resolvedThreads.push(threadId);
  }
}

const files: ReviewFile[] = [
  { filename: MS_PATH, status: 'modified', previousFilename: undefined, patch: msPatch }
];
const onDiff: Finding = {
  path: MS_PATH,
  line: 51,
  startLine: 50,
  side: 'RIGHT',
  body: 'Raising the limit to 1000 lets the regex below run on ten times longer input.',
  suggestion: '  if (str.length > 100) {\n    return undefined;'
};
const offDiff: Finding = {
  ...onDiff,
  line: 30,
  startLine: undefined,
  body: 'This branch is never taken.',
  suggestion: undefined
};

/** `linesChanged`: what the run's own diff found for each thread (kinds/review.ts checks it with git). */
async function run(
  reviews: MemoryReviews,
  findings: Finding[],
  resolutions: number[] = [],
  linesChanged = true
) {
  const read: ReviewContext = await readReviewContext(reviews, 7, BOT, () => undefined);
  const lines = linesChanged ? { kind: 'changed' as const } : { kind: 'unchanged' as const };
  const context = { ...read, candidates: read.candidates.map((candidate) => ({ ...candidate, lines })) };
  const collector = new FindingsCollector();
  for (const finding of findings) collector.add(finding);
  for (const commentId of resolutions)
    collector.requestResolution({ commentId, reason: 'the limit is back' });
  return postReview(reviews, context, collector, {
    botLogin: BOT,
    redact: (text) => text,
    focus: undefined,
    assessment: 'One regression in parse.',
    event: 'COMMENT',
    readHead: (path) => (path === MS_PATH ? msHead : undefined)
  });
}

it('posts one review: the diff finding inline with an applicable suggestion, the other in the body', async () => {
  const reviews = new MemoryReviews(files);
  const outcome = await run(reviews, [onDiff, offDiff]);
  expect(reviews.created).toHaveLength(1);
  const [review] = reviews.created;
  expect(review!.commitId).toBe(HEAD);
  expect(review!.event).toBe('COMMENT');
  expect(review!.comments).toHaveLength(1);
  expect(review!.comments[0]).toMatchObject({ path: MS_PATH, line: 51, startLine: 50, side: 'RIGHT' });
  expect(review!.comments[0]!.body).toContain(
    '```suggestion\n  if (str.length > 100) {\n    return undefined;\n```'
  );
  expect(review!.body).toContain('> One regression in parse.');
  expect(review!.body).toContain('index.js:30');
  expect(review!.body).toContain('line 30 is not part of the diff');
  expect(outcome.summary).toMatchObject({ inline: 1, inBody: 1, alreadySaid: 0 });
  expect(renderReviewSection(outcome, '/agent')).toContain(
    'Posted [one review](https://github.com/o/r/pull/7#pullrequestreview-901): 1 on the diff, 1 in its body.'
  );
});

it('keeps the findings for the report when GitHub takes no review at all', async () => {
  const reviews = new MemoryReviews(files);
  reviews.rejectAll = 'Unprocessable Entity: Can not request changes on your own pull request';
  const outcome = await run(reviews, [onDiff, offDiff]);
  expect(reviews.created).toHaveLength(0);
  expect(outcome.postError).toBe('Unprocessable Entity: Can not request changes on your own pull request');
  const section = renderReviewSection(outcome, '/agent');
  expect(section).toContain('❌ The review could not be posted: Unprocessable Entity');
  expect(section).toContain('Findings not posted (2)');
  expect(section).toContain('index.js:50-51: Raising the limit to 1000');
});

it('posts the findings again in the body alone when GitHub refuses the line comments (422)', async () => {
  const reviews = new MemoryReviews(files);
  reviews.rejectInlineOnce = 'Unprocessable Entity: Line could not be resolved';
  const outcome = await run(reviews, [onDiff]);
  expect(reviews.created).toHaveLength(1);
  expect(reviews.created[0]!.comments).toHaveLength(0);
  expect(reviews.created[0]!.body).toContain(
    "GitHub refused the review's line comments (Unprocessable Entity: Line could not be resolved)"
  );
  expect(outcome.refusedInline).toBe('Unprocessable Entity: Line could not be resolved');
  expect(renderReviewSection(outcome, '/agent')).toContain('⚠️ GitHub refused the line comments');
});

it('posts nothing when every finding was already said by the bot, and the report says so', async () => {
  const first = new MemoryReviews(files);
  await run(first, [onDiff]);
  const posted = first.created[0]!.comments[0]!;
  const earlier: PostedReviewComment = {
    id: 5001,
    body: posted.body,
    login: BOT,
    userType: 'Bot',
    path: posted.path,
    line: posted.line,
    startLine: posted.startLine ?? null,
    originalCommitId: 'c'.repeat(40),
    originalStartLine: null,
    originalLine: posted.line,
    side: 'RIGHT',
    commitId: HEAD,
    inReplyToId: undefined,
    createdAt: '2026-11-25T10:00:00Z'
  };
  const second = new MemoryReviews(files, [earlier]);
  const outcome = await run(second, [onDiff]);
  expect(second.created).toHaveLength(0);
  expect(outcome.review).toBeUndefined();
  expect(outcome.summary.alreadySaid).toBe(1);
  expect(renderReviewSection(outcome, '/agent')).toContain(
    'No review posted: every finding was already said'
  );
});

it("does not carry a body finding again that an earlier review of the bot's had in its body", async () => {
  const first = new MemoryReviews(files);
  await run(first, [offDiff]);
  const earlierBody = first.created[0]!.body;
  expect(earlierBody).toMatch(/^<!-- compact-agent-finding:[0-9a-f]{16} -->$/m);
  const review = (login: string, userType: PostedReview['userType']): PostedReview => ({
    id: 777,
    body: earlierBody,
    login,
    userType,
    commitId: HEAD
  });
  const again = new MemoryReviews(files, [], [], [review(BOT, 'Bot')]);
  const outcome = await run(again, [offDiff]);
  expect(again.created).toHaveLength(0);
  expect(outcome.summary.alreadySaid).toBe(1);
  // A person's review that quotes the bot's body (markers and all) counts for nothing.
  const quoted = new MemoryReviews(files, [], [], [review(BOT, 'User')]);
  await run(quoted, [offDiff]);
  expect(quoted.created).toHaveLength(1);
});

describe('earlier threads the new code fixes', () => {
  const earlier: PostedReviewComment = {
    id: 6001,
    body: `The limit check is gone.\n\n${fingerprintMarker(findingFingerprint(MS_PATH, 'The limit check is gone.'))}`,
    login: BOT,
    userType: 'Bot',
    path: MS_PATH,
    line: null,
    startLine: null,
    originalCommitId: 'c'.repeat(40),
    originalStartLine: null,
    originalLine: 12,
    side: 'RIGHT',
    commitId: 'a'.repeat(40),
    inReplyToId: undefined,
    createdAt: '2026-11-24T10:00:00Z'
  };
  const thread: ReviewThread = { id: 'PRRT_1', isResolved: false, isOutdated: true, commentIds: [6001] };

  it('resolves the thread the model names', async () => {
    const reviews = new MemoryReviews(files, [earlier], [thread]);
    const outcome = await run(reviews, [], [6001]);
    expect(reviews.resolvedThreads).toEqual(['PRRT_1']);
    expect(outcome).toMatchObject({ resolved: 1, replied: 0 });
    expect(renderReviewSection(outcome, '/agent')).toContain('1 resolved, 0 answered');
  });

  it("neither resolves nor answers a thread whose lines the run's own diff shows unchanged", async () => {
    const reviews = new MemoryReviews(files, [earlier], [thread]);
    reviews.resolveForbidden = true;
    const outcome = await run(reviews, [], [6001], false);
    expect(reviews.resolvedThreads).toEqual([]);
    expect(reviews.replies).toEqual([]);
    expect(outcome).toMatchObject({ resolved: 0, replied: 0 });
  });

  it('answers in the thread when the token may not resolve', async () => {
    const reviews = new MemoryReviews(files, [earlier], [thread]);
    reviews.resolveForbidden = true;
    const outcome = await run(reviews, [], [6001]);
    expect(reviews.replies).toEqual([{ commentId: 6001, body: `Fixed in ${HEAD}: the limit is back` }]);
    expect(outcome).toMatchObject({ resolved: 0, replied: 1 });
  });

  it('reviews without resolving when the threads cannot be read, and warns', async () => {
    const reviews = new MemoryReviews(files, [earlier], [thread]);
    reviews.threadsFail = true;
    const warnings: string[] = [];
    const context = await readReviewContext(reviews, 7, BOT, (line) => warnings.push(line));
    expect(context.candidates).toEqual([]);
    expect(warnings[0]).toMatch(
      /review threads of #7 could not be read \(GraphQL: Something went wrong\); no earlier thread is resolved/
    );
  });
});

it('keeps a lone carriage return from opening a fence that would swallow the suggestion and marker', async () => {
  const reviews = new MemoryReviews(files);
  await run(reviews, [{ ...onDiff, body: 'x\r```js\rmore' }]);
  const body = reviews.created[0]!.comments[0]!.body;
  expect(body).not.toContain('\r');
  // The model's open fence is closed before the suggestion, which stays a block of its own.
  expect(body).toMatch(/x\n```js\nmore\n```\n\n```suggestion\n/);
});
