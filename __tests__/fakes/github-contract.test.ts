/**
 * The fake GitHub against GitHub's OpenAPI description (@octokit/openapi): every route it serves,
 * asked through the real Octokit, is answered without a contract violation; and the check can fail,
 * for a request and for an answer.
 */
import { getOctokit } from '@actions/github';
import { startFakeGitHub, type FakeGitHub } from '../../test-support/fake-github/index.js';
import {
  describeViolation,
  expectNoContractViolations,
  findOperation
} from '../../test-support/github-contract/index.js';

type Octokit = ReturnType<typeof getOctokit>;

const repo = { owner: 'acme', repo: 'widgets' };
const HEAD = 'a'.repeat(40);
const PATCH = '@@ -1,2 +1,3 @@\n line one\n+line two\n line three';

let fake: FakeGitHub;
let octokit: Octokit;

beforeEach(async () => {
  fake = await startFakeGitHub({
    repo: { owner: 'acme', name: 'widgets' },
    permissions: { alice: 'maintain' },
    issues: [
      {
        number: 1,
        title: 'Bug',
        body: 'It breaks.',
        user: 'alice',
        labels: ['bug'],
        comments: [{ id: 10, user: 'alice', body: '/agent fix' }]
      }
    ],
    pulls: [
      {
        number: 2,
        title: 'Fix',
        body: 'Fixes #1',
        user: 'bob',
        head: { ref: 'fix', sha: HEAD },
        base: { ref: 'main' },
        files: [
          { filename: 'a.txt', additions: 1, patch: PATCH },
          { filename: 'moved.txt', status: 'renamed', previous_filename: 'old.txt' }
        ],
        comments: [{ user: 'bob', body: 'please look' }],
        review_comments: [{ id: 500, user: 'alice', body: 'hmm', path: 'a.txt', line: 2 }]
      },
      {
        number: 3,
        title: 'From a fork',
        user: 'carol',
        head: { ref: 'patch-1', sha: 'b'.repeat(40), repo: { full_name: 'carol/widgets' } },
        base: { ref: 'main' },
        draft: true
      }
    ]
  });
  octokit = getOctokit(fake.token, { baseUrl: fake.url });
});

afterEach(async () => {
  await fake.close();
});

test('repository, permission, issue and comments', async () => {
  await octokit.rest.repos.get(repo);
  await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: 'alice' });
  await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: 'stranger' });
  await octokit.rest.issues.get({ ...repo, issue_number: 1 });
  await octokit.rest.issues.get({ ...repo, issue_number: 2 });
  await octokit.rest.issues.listComments({ ...repo, issue_number: 1 });
  const { data: created } = await octokit.rest.issues.createComment({
    ...repo,
    issue_number: 1,
    body: 'On it.'
  });
  await octokit.rest.issues.getComment({ ...repo, comment_id: created.id });
  await octokit.rest.issues.updateComment({ ...repo, comment_id: created.id, body: 'Done.' });
  expect(fake.requests.every((r) => r.status < 300)).toBe(true);
  expectNoContractViolations(fake);
});

test('reactions on issues, issue comments and review comments', async () => {
  await octokit.rest.reactions.createForIssueComment({ ...repo, comment_id: 10, content: 'eyes' });
  await octokit.rest.reactions.createForIssueComment({ ...repo, comment_id: 10, content: 'eyes' }); // 200
  await octokit.rest.reactions.listForIssueComment({ ...repo, comment_id: 10 });
  await octokit.rest.reactions.createForIssue({ ...repo, issue_number: 1, content: 'rocket' });
  await octokit.rest.reactions.createForPullRequestReviewComment({ ...repo, comment_id: 500, content: '+1' });
  expect(fake.requests.map((r) => r.status)).toEqual([201, 200, 200, 201, 201]);
  expectNoContractViolations(fake);
});

test('pull requests: get (same repository and fork), list, files across pages, create, update', async () => {
  await octokit.rest.pulls.get({ ...repo, pull_number: 2 });
  await octokit.rest.pulls.get({ ...repo, pull_number: 3 });
  await octokit.rest.pulls.list({ ...repo, state: 'all' });
  await octokit.paginate(octokit.rest.pulls.listFiles, { ...repo, pull_number: 2, per_page: 1 });
  expect(fake.requestsTo('GET', /^\/repositories\/\d+\/pulls\/2\/files$/)).toHaveLength(1);
  const { data: pull } = await octokit.rest.pulls.create({
    ...repo,
    title: 'Agent: fix',
    head: 'agent/fix-1',
    base: 'main',
    body: 'Fixes #1',
    draft: true
  });
  await octokit.rest.pulls.update({ ...repo, pull_number: pull.number, body: 'Fixes #1 (updated)' });
  await octokit.rest.pulls.update({ ...repo, pull_number: pull.number, state: 'closed' });
  expectNoContractViolations(fake);
});

test('reviews: review comments, a review with comments, reviews, a reply, a pending review', async () => {
  await octokit.rest.pulls.getReviewComment({ ...repo, comment_id: 500 });
  await octokit.rest.pulls.listReviewComments({ ...repo, pull_number: 2 });
  await octokit.rest.pulls.createReview({
    ...repo,
    pull_number: 2,
    commit_id: HEAD,
    body: 'Looks fine.',
    event: 'COMMENT',
    comments: [
      { path: 'a.txt', line: 2, side: 'RIGHT', body: 'one line' },
      { path: 'a.txt', start_line: 1, start_side: 'RIGHT', line: 3, side: 'RIGHT', body: 'a range' }
    ]
  });
  await octokit.rest.pulls.createReview({ ...repo, pull_number: 2, body: 'draft' }); // PENDING
  await octokit.rest.pulls.listReviews({ ...repo, pull_number: 2 });
  await octokit.rest.pulls.createReplyForReviewComment({
    ...repo,
    pull_number: 2,
    comment_id: 500,
    body: 'ok'
  });
  const { data: comments } = await octokit.rest.pulls.listReviewComments({ ...repo, pull_number: 2 });
  expect(comments).toHaveLength(4);
  fake.pushHead(2, { sha: 'c'.repeat(40), files: [{ filename: 'a.txt', patch: '@@ -1,1 +1,1 @@\n-x\n+y' }] });
  const { data: outdated } = await octokit.rest.pulls.listReviewComments({ ...repo, pull_number: 2 });
  expect(outdated.every((c) => (c as { line: number | null }).line === null)).toBe(true);
  expect(fake.requests.every((r) => r.status < 300)).toBe(true);
  expectNoContractViolations(fake);
});

test("review refusals are GitHub's documented 422s", async () => {
  const refused = async (promise: Promise<unknown>): Promise<number> =>
    promise.then(
      () => 0,
      (e: { status: number }) => e.status
    );
  expect(
    await refused(
      octokit.rest.pulls.createReview({
        ...repo,
        pull_number: 2,
        event: 'COMMENT',
        body: 'x',
        comments: [{ path: 'a.txt', line: 40, body: 'far away' }]
      })
    )
  ).toBe(422);
  expect(
    await refused(octokit.rest.pulls.createReview({ ...repo, pull_number: 2, commit_id: 'f'.repeat(40) }))
  ).toBe(422);
  expect(fake.reviews(2)).toHaveLength(1); // the seeded comment's
  expectNoContractViolations(fake);
});

test('artifacts: get, and the download redirect', async () => {
  fake.addArtifact({
    id: 77,
    name: 'run-state',
    bytes: Buffer.from('PK\u0005\u0006'),
    workflowRun: { id: 9 }
  });
  await octokit.rest.actions.getArtifact({ ...repo, artifact_id: 77 });
  const download = await octokit.rest.actions.downloadArtifact({
    ...repo,
    artifact_id: 77,
    archive_format: 'zip',
    request: { redirect: 'manual' }
  });
  expect(download.status).toBe(302);
  expectNoContractViolations(fake);
});

test('404s for unknown numbers answer the documented error shape', async () => {
  await expect(octokit.rest.issues.get({ ...repo, issue_number: 999 })).rejects.toMatchObject({
    status: 404
  });
  await expect(octokit.rest.pulls.get({ ...repo, pull_number: 999 })).rejects.toMatchObject({ status: 404 });
  expectNoContractViolations(fake);
});

test('GraphQL (not in the REST description) answers threads and the resolve mutation', async () => {
  const answer = await octokit.graphql<{
    repository: { pullRequest: { reviewThreads: { nodes: Array<{ id: string }> } } };
  }>(
    'query ($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { pullRequest(number: 2) { reviewThreads(first: 10) { nodes { id isResolved } } } } }',
    { owner: 'acme', name: 'widgets' }
  );
  const [thread] = answer.repository.pullRequest.reviewThreads.nodes;
  await octokit.graphql(
    'mutation ($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }',
    {
      id: thread?.id
    }
  );
  expect(fake.threads(2)[0]?.isResolved).toBe(true);
  await expect(octokit.graphql('{ repository(owner: "acme", name: "widgets") { nope } }')).rejects.toThrow(
    "Field 'nope' doesn't exist on type 'Repository'"
  );
  expect(fake.requestsTo('POST', /\/repos\/.*graphql/)).toEqual([]);
  expectNoContractViolations(fake);
});

describe('the check can fail', () => {
  test('a request body with a wrong type is refused as GitHub refuses it, and recorded', async () => {
    const attempt = octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...repo,
      issue_number: 1,
      body: 5 as unknown as string
    });
    await expect(attempt).rejects.toMatchObject({ status: 422 });
    await expect(attempt).rejects.toThrow("Invalid request.\n\nFor 'properties/body', 5 is not a string.");
    expect(fake.comments(1)).toHaveLength(1);
    expect(fake.contractViolations).toEqual([
      expect.objectContaining({
        direction: 'request',
        method: 'POST',
        operationId: 'issues/create-comment',
        errors: [expect.objectContaining({ in: 'body', instancePath: '/body', keyword: 'type' })]
      })
    ]);
    expect(() => expectNoContractViolations(fake)).toThrow('issues/create-comment');
  });

  test('a review event outside the enum is refused', async () => {
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
        ...repo,
        pull_number: 2,
        event: 'LGTM' as 'COMMENT',
        body: 'x'
      })
    ).rejects.toThrow(
      `For 'properties/event', "LGTM" is not one of ["APPROVE", "REQUEST_CHANGES", "COMMENT"].`
    );
    expect(fake.contractViolations[0]?.operationId).toBe('pulls/create-review');
  });

  test('a broken answer is recorded (a fault body with a missing field and a wrong type)', async () => {
    fake.failNext({ method: 'GET', path: /\/issues\/1$/, status: 200, body: { id: 'one', number: 1 } });
    await octokit.rest.issues.get({ ...repo, issue_number: 1 });
    const [violation] = fake.contractViolations;
    expect(violation).toMatchObject({ direction: 'response', status: 200, operationId: 'issues/get' });
    expect(violation?.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ keyword: 'required', params: { missingProperty: 'title' } }),
        expect.objectContaining({ instancePath: '/id', keyword: 'type' })
      ])
    );
    expect(describeViolation(violation!)).toContain(
      'response GET /repos/acme/widgets/issues/1 → 200 (issues/get)'
    );
  });

  test('a route the description does not have is recorded', async () => {
    await expect(octokit.request('GET /repos/{owner}/{repo}/no-such-thing', repo)).rejects.toMatchObject({
      status: 404
    });
    expect(fake.contractViolations).toEqual([
      expect.objectContaining({
        direction: 'request',
        operationId: undefined,
        path: '/repos/acme/widgets/no-such-thing'
      })
    ]);
  });

  test('operations are found for both path forms GitHub uses', () => {
    expect(findOperation('GET', '/repos/acme/widgets/pulls/comments/5')?.operationId).toBe(
      'pulls/get-review-comment'
    );
    expect(findOperation('GET', '/repos/acme/widgets/pulls/5')?.operationId).toBe('pulls/get');
    expect(findOperation('POST', '/repos/acme/widgets/pulls/5/comments/6/replies')?.operationId).toBe(
      'pulls/create-reply-for-review-comment'
    );
    expect(findOperation('GET', '/repositories/1/pulls/5')).toBeUndefined(); // canonicalPath maps these first
  });
});
