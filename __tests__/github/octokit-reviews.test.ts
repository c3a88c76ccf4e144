/** The real review boundary (real Octokit) against the fake GitHub over HTTP. */
import { gitHubClients } from '../../src/github/api/clients.js';
import type { PullRequestReviews } from '../../src/github/api/review-api.js';
import { UNSPACED_LOOPBACK_WRITES_VARIABLE } from '../../src/config/test-switches.js';
import { ReviewRejectedError } from '../../src/github/api/review-api.js';
import { expectNoContractViolations } from '../../test-support/github-contract/index.js';
import {
  startFakeGitHub,
  type FakeGitHub,
  type FakeGitHubOptions
} from '../../test-support/fake-github/index.js';

const HEAD = 'a'.repeat(40);
const PATCH = [
  '@@ -1,4 +1,5 @@',
  ' import { a } from "./a.js";',
  '-const x = 1;',
  '+const x = 2;',
  '+const y = 3;',
  ' export { x };',
  ' // end',
  '@@ -20,2 +21,3 @@ function later() {',
  ' keep();',
  '+added();',
  ' done();'
].join('\n');

let fakes: FakeGitHub[] = [];
async function start(
  options: FakeGitHubOptions = {}
): Promise<{ fake: FakeGitHub; reviews: PullRequestReviews }> {
  const fake = await startFakeGitHub({
    repo: { owner: 'acme', name: 'widgets' },
    pulls: [
      {
        number: 7,
        title: 'Change x',
        user: 'author',
        head: { ref: 'feature', sha: HEAD },
        base: { ref: 'main' },
        files: [
          { filename: 'src/x.ts', additions: 3, deletions: 1, patch: PATCH },
          { filename: 'logo.png', status: 'added' }
        ]
      }
    ],
    ...options
  });
  fakes.push(fake);
  const reviews = gitHubClients({
    token: fake.token,
    repository: { owner: 'acme', name: 'widgets' },
    apiUrl: fake.url,
    options: {
      logger: { warning: () => undefined },
      env: { [UNSPACED_LOOPBACK_WRITES_VARIABLE]: '1' }
    }
  }).reviews();
  return { fake, reviews };
}

afterEach(async () => {
  for (const fake of fakes) expectNoContractViolations(fake);
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

test('the head sha and the changed files with their patches (none for a binary)', async () => {
  const { reviews } = await start();
  expect(await reviews.headSha(7)).toBe(HEAD);
  expect(await reviews.listReviewFiles(7)).toEqual([
    { filename: 'src/x.ts', status: 'modified', previousFilename: undefined, patch: PATCH },
    { filename: 'logo.png', status: 'added', previousFilename: undefined, patch: undefined }
  ]);
});

test('review comments across pages, oldest first, replies pointing at their parent', async () => {
  const { fake, reviews } = await start();
  for (let i = 0; i < 130; i++)
    fake.addReviewComment(7, { user: 'bob', body: `note ${i}`, path: 'src/x.ts', line: 2 });
  const first = fake.reviewComments(7)[0];
  fake.addReviewComment(7, { user: 'author', body: 'fixed', in_reply_to: first?.id });
  const comments = await reviews.listReviewComments(7);
  expect(comments).toHaveLength(131);
  expect(fake.requestsTo('GET', /\/pulls\/7\/comments$/)).toHaveLength(2);
  expect(comments[0]).toMatchObject({
    body: 'note 0',
    login: 'bob',
    userType: 'User',
    path: 'src/x.ts',
    line: 2
  });
  expect(comments[0]).toMatchObject({ side: 'RIGHT', commitId: HEAD, inReplyToId: undefined });
  expect(comments[130]).toMatchObject({ body: 'fixed', inReplyToId: first?.id });
});

test('one review with a single-line and a multi-line comment', async () => {
  const { fake, reviews } = await start();
  const created = await reviews.createReview(7, {
    commitId: HEAD,
    body: 'Two notes.',
    event: 'COMMENT',
    comments: [
      { path: 'src/x.ts', line: 3, side: 'RIGHT', startLine: 2, body: 'both lines' },
      { path: 'src/x.ts', line: 2, side: 'LEFT', body: 'the old value' }
    ]
  });
  const [review] = fake.reviews(7);
  expect(created).toEqual({
    id: review?.id,
    url: expect.stringContaining(`#pullrequestreview-${review?.id}`)
  });
  expect(review).toMatchObject({ state: 'COMMENTED', body: 'Two notes.', commitId: HEAD });
  const comments = await reviews.listReviewComments(7);
  expect(comments.map((c) => [c.line, c.startLine, c.side])).toEqual([
    [3, 2, 'RIGHT'],
    [2, null, 'LEFT']
  ]);
  expect(fake.reviewComments(7).map((c) => c.position)).toEqual([4, 2]);
});

test('a line outside the diff: ReviewRejectedError with GitHub words, and nothing is created', async () => {
  const { fake, reviews } = await start();
  const attempt = reviews.createReview(7, {
    commitId: HEAD,
    body: 'Notes.',
    event: 'COMMENT',
    comments: [
      { path: 'src/x.ts', line: 3, side: 'RIGHT', body: 'fine' },
      { path: 'src/x.ts', line: 12, side: 'RIGHT', body: 'not in the diff' }
    ]
  });
  await expect(attempt).rejects.toThrow(ReviewRejectedError);
  await expect(attempt).rejects.toThrow(
    "Unprocessable Entity: Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank"
  );
  expect(fake.reviews(7)).toEqual([]);
  expect(fake.reviewComments(7)).toEqual([]);
  await expect(
    reviews.createReview(7, {
      commitId: HEAD,
      body: 'x',
      event: 'COMMENT',
      comments: [{ path: 'src/x.ts', line: 22, side: 'RIGHT', startLine: 3, body: 'across hunks' }]
    })
  ).rejects.toThrow('start line must be part of the same hunk as the line.');
  await expect(
    reviews.createReview(7, {
      commitId: HEAD,
      body: 'x',
      event: 'COMMENT',
      comments: [{ path: 'src/y.ts', line: 1, side: 'RIGHT', body: 'no such file' }]
    })
  ).rejects.toThrow('Unprocessable Entity: Path could not be resolved');
  await expect(
    reviews.createReview(7, { commitId: 'b'.repeat(40), body: 'x', event: 'COMMENT', comments: [] })
  ).rejects.toThrow(ReviewRejectedError);
  expect(fake.reviews(7)).toEqual([]);
});

test('a reply joins the thread; threads list, resolve, and a forbidden resolve', async () => {
  const { fake, reviews } = await start();
  const top = fake.addReviewComment(7, { user: 'bob', body: 'why?', path: 'src/x.ts', line: 3 });
  const other = fake.addReviewComment(7, { user: 'bob', body: 'and this', path: 'src/x.ts', line: 22 });
  const reply = await reviews.replyToReviewComment(7, top.id, 'because');
  expect(reply.url).toContain(`#discussion_r${reply.id}`);
  const threads = await reviews.listReviewThreads(7);
  expect(threads).toEqual([
    {
      id: expect.stringMatching(/^PRRT_/),
      isResolved: false,
      isOutdated: false,
      commentIds: [top.id, reply.id]
    },
    { id: expect.stringMatching(/^PRRT_/), isResolved: false, isOutdated: false, commentIds: [other.id] }
  ]);
  await reviews.resolveReviewThread(threads[0]?.id ?? '');
  expect(fake.threads(7).map((t) => t.isResolved)).toEqual([true, false]);
  fake.forbidResolvingThreads();
  await expect(reviews.resolveReviewThread(threads[1]?.id ?? '')).rejects.toThrow(
    'FORBIDDEN: Resource not accessible by integration'
  );
  expect(fake.threads(7)[1]?.isResolved).toBe(false);
  fake.forbidResolvingThreads(false);
  await expect(reviews.resolveReviewThread('PRRT_nope')).rejects.toThrow('NOT_FOUND');
});

test('threads across GraphQL pages', async () => {
  const { fake, reviews } = await start();
  for (let i = 0; i < 105; i++)
    fake.addReviewComment(7, { user: 'bob', body: `n${i}`, path: 'src/x.ts', line: 3 });
  expect(await reviews.listReviewThreads(7)).toHaveLength(105);
  expect(fake.requestsTo('POST', '/graphql')).toHaveLength(2);
});

test('a pushed head makes a comment on a changed line outdated; one on an unchanged line stays', async () => {
  const { fake, reviews } = await start();
  await reviews.createReview(7, {
    commitId: HEAD,
    body: 'Notes.',
    event: 'COMMENT',
    comments: [
      { path: 'src/x.ts', line: 3, side: 'RIGHT', body: 'y?' },
      { path: 'src/x.ts', line: 22, side: 'RIGHT', body: 'added()?' }
    ]
  });
  const next = 'c'.repeat(40);
  fake.pushHead(7, {
    sha: next,
    files: [{ filename: 'src/x.ts', patch: PATCH.replace('+const y = 3;', '+const y = 4;') }]
  });
  expect(await reviews.headSha(7)).toBe(next);
  const comments = await reviews.listReviewComments(7);
  expect(comments.map((c) => [c.line, c.originalLine, c.commitId])).toEqual([
    [null, 3, HEAD],
    [22, 22, next]
  ]);
  // Where each was first posted: what resolve_thread's check compares the reviewed head with.
  expect(comments.map((c) => [c.originalCommitId, c.originalStartLine])).toEqual([
    [HEAD, null],
    [HEAD, null]
  ]);
  const threads = await reviews.listReviewThreads(7);
  expect(threads.map((t) => t.isOutdated)).toEqual([true, false]);
  // The old head is still a commit of the pull request; an unknown one is not.
  await expect(
    reviews.createReview(7, { commitId: HEAD, body: 'late', event: 'COMMENT', comments: [] })
  ).resolves.toEqual(expect.objectContaining({ id: expect.any(Number) }));
});
