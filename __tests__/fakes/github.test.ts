/** The fake GitHub REST API, seen through the real Octokit of @actions/github. */
import { getOctokit } from '@actions/github';
import { createRequire } from 'node:module';
import {
  MAX_BODY_CHARS,
  startFakeGitHub,
  stateFromPayload,
  type FakeGitHub,
  type FakeGitHubOptions
} from '../../test-support/fake-github/index.js';

type Octokit = ReturnType<typeof getOctokit>;

const require = createRequire(import.meta.url);
const webhooks = require('@octokit/webhooks-examples') as Array<{ name: string; examples: unknown[] }>;

function example(event: string, action: string): Record<string, unknown> {
  const found = webhooks
    .find((w) => w.name === event)
    ?.examples.find((e) => (e as { action?: string }).action === action);
  if (!found) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found) as Record<string, unknown>;
}

/** The status of a rejected Octokit call (and the error, to look at). */
async function failure(
  promise: Promise<unknown>
): Promise<{ status: number; error: Error & { response?: { data?: unknown } } }> {
  try {
    await promise;
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status !== 'number') throw error;
    return { status, error: error as Error };
  }
  throw new Error('expected the call to fail');
}

const OWNER = 'acme';
const REPO = 'widgets';
const repo = { owner: OWNER, repo: REPO };

let fakes: FakeGitHub[] = [];
async function start(options: FakeGitHubOptions = {}): Promise<{ fake: FakeGitHub; octokit: Octokit }> {
  const fake = await startFakeGitHub({ repo: { owner: OWNER, name: REPO }, ...options });
  fakes.push(fake);
  return { fake, octokit: getOctokit(fake.token, { baseUrl: fake.url }) };
}

afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

const issue42 = {
  number: 42,
  title: 'Crash on empty input',
  body: 'It crashes.',
  user: 'reporter',
  labels: ['bug'],
  comments: [{ id: 9001, user: 'maintainer', body: '/agent fix this' }]
};

describe('permissions', () => {
  test('a writer, a reader, a maintainer (legacy field says write) and a stranger', async () => {
    const { octokit } = await start({
      permissions: { maintainer: 'write', reader: 'read', lead: 'maintain', triager: 'triage' }
    });
    const get = async (username: string): Promise<[string, string]> => {
      const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username });
      expect(data.user?.login).toBe(username);
      return [data.permission, data.role_name];
    };
    expect(await get('maintainer')).toEqual(['write', 'write']);
    expect(await get('reader')).toEqual(['read', 'read']);
    expect(await get('lead')).toEqual(['write', 'maintain']);
    expect(await get('triager')).toEqual(['read', 'triage']);
    expect(await get('stranger')).toEqual(['none', 'none']);
  });

  test('the owner of a user-owned repository is admin; the collaborator object carries the flags', async () => {
    const fake = await startFakeGitHub({ repo: { owner: 'solo', name: 'tool', ownerType: 'User' } });
    fakes.push(fake);
    const octokit = getOctokit(fake.token, { baseUrl: fake.url });
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
      owner: 'solo',
      repo: 'tool',
      username: 'solo'
    });
    expect(data.permission).toBe('admin');
    expect(data.user?.permissions).toEqual({
      admin: true,
      maintain: true,
      push: true,
      triage: true,
      pull: true
    });
  });
});

describe('comments', () => {
  test('create, edit and react: the answers and the stored state agree', async () => {
    const { fake, octokit } = await start({ issues: [issue42] });
    const created = await octokit.rest.issues.createComment({
      ...repo,
      issue_number: 42,
      body: 'Working on it.'
    });
    expect(created.status).toBe(201);
    expect(created.data.user?.login).toBe('github-actions[bot]');
    expect(created.data.user?.type).toBe('Bot');
    expect(created.data.html_url).toBe(
      `https://github.com/${OWNER}/${REPO}/issues/42#issuecomment-${created.data.id}`
    );
    expect(created.data.url).toBe(`${fake.url}/repos/${OWNER}/${REPO}/issues/comments/${created.data.id}`);
    expect(created.data.performed_via_github_app?.slug).toBe('github-actions');
    expect(created.headers.location).toBe(created.data.url);

    const edited = await octokit.rest.issues.updateComment({
      ...repo,
      comment_id: created.data.id,
      body: 'Done: #43'
    });
    expect(edited.status).toBe(200);
    expect(edited.data.body).toBe('Done: #43');
    expect(fake.comment(created.data.id)?.body).toBe('Done: #43');
    expect(fake.comment(created.data.id)?.history).toEqual(['Working on it.']);

    const reaction = await octokit.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: 9001,
      content: 'eyes'
    });
    expect(reaction.status).toBe(201);
    expect(reaction.data.content).toBe('eyes');
    const again = await octokit.rest.reactions.createForIssueComment({
      ...repo,
      comment_id: 9001,
      content: 'eyes'
    });
    expect(again.status).toBe(200); // the same reaction by the same user already exists
    expect(again.data.id).toBe(reaction.data.id);
    expect(fake.reactionsOn({ kind: 'issue_comment', id: 9001 }).map((r) => r.content)).toEqual(['eyes']);

    const fetched = await octokit.rest.issues.getComment({ ...repo, comment_id: 9001 });
    expect(fetched.data.reactions?.eyes).toBe(1);
    expect(fetched.data.reactions?.total_count).toBe(1);
    expect(fake.comments(42).map((c) => c.body)).toEqual(['/agent fix this', 'Done: #43']);
  });

  test('the request log has method, path, lower-case headers, parsed body and status', async () => {
    const { fake, octokit } = await start({ issues: [issue42] });
    await octokit.rest.issues.createComment({ ...repo, issue_number: 42, body: 'hi' });
    const [post] = fake.requestsTo('POST', /\/issues\/\d+\/comments$/);
    expect(post?.path).toBe(`/repos/${OWNER}/${REPO}/issues/42/comments`);
    expect(post?.headers.authorization).toBe('token ghs_test');
    expect(post?.body).toEqual({ body: 'hi' });
    expect(post?.status).toBe(201);
    expect(fake.requestsTo('GET', /comments/)).toEqual([]);
  });

  test('a reaction that is not one of the eight is refused with 422', async () => {
    const { fake, octokit } = await start({ issues: [issue42] });
    const { status, error } = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
        ...repo,
        comment_id: 9001,
        content: 'smile' as 'eyes'
      })
    );
    expect(status).toBe(422);
    expect(error.message).toContain('"smile" is not one of');
    expect(fake.reactions).toHaveLength(0);
  });

  test('reactions on a pull request review comment and on an unknown comment', async () => {
    const { fake, octokit } = await start({
      pulls: [
        {
          number: 7,
          title: 'Add widgets',
          user: 'contributor',
          head: { ref: 'widgets', sha: 'a'.repeat(40) },
          base: { ref: 'main' },
          review_comments: [
            { id: 555, user: 'maintainer', body: '/agent fix this', path: 'src/a.ts', line: 3 }
          ]
        }
      ]
    });
    const ok = await octokit.rest.reactions.createForPullRequestReviewComment({
      ...repo,
      comment_id: 555,
      content: 'rocket'
    });
    expect(ok.status).toBe(201);
    expect(fake.reactionsOn({ kind: 'pull_request_review_comment', id: 555 })).toHaveLength(1);
    expect(fake.reactionsOn({ kind: 'issue_comment', id: 555 })).toHaveLength(0);
    const missing = await failure(
      octokit.rest.reactions.createForPullRequestReviewComment({
        ...repo,
        comment_id: 556,
        content: 'rocket'
      })
    );
    expect(missing.status).toBe(404);
  });

  test('listing across pages follows GitHub link headers (by repository id)', async () => {
    const comments = Array.from({ length: 7 }, (_, i) => ({
      user: i % 2 ? 'alice' : 'bob',
      body: `comment ${i + 1}`,
      created_at: `2026-01-01T00:00:0${i}Z`
    }));
    const { fake, octokit } = await start({ issues: [{ ...issue42, comments }] });
    const all = await octokit.paginate(octokit.rest.issues.listComments, {
      ...repo,
      issue_number: 42,
      per_page: 3
    });
    expect(all.map((c) => c.body)).toEqual(comments.map((c) => c.body));
    const gets = fake.requestsTo('GET', /\/issues\/42\/comments$/);
    expect(gets.map((r) => r.query.page ?? '1')).toEqual(['1', '2', '3']);
    expect(gets[1]?.path).toBe(`/repositories/${fake.repo.id}/issues/42/comments`);
    const first = await octokit.rest.issues.listComments({ ...repo, issue_number: 42, per_page: 3 });
    expect(first.headers.link).toBe(
      `<${fake.url}/repositories/${fake.repo.id}/issues/42/comments?per_page=3&page=2>; rel="next", ` +
        `<${fake.url}/repositories/${fake.repo.id}/issues/42/comments?per_page=3&page=3>; rel="last"`
    );
  });

  test('a body of 65,537 characters gets 422 Validation Failed; 65,536 is accepted', async () => {
    const { fake, octokit } = await start({ issues: [issue42] });
    const { status, error } = await failure(
      octokit.rest.issues.createComment({ ...repo, issue_number: 42, body: 'x'.repeat(MAX_BODY_CHARS + 1) })
    );
    expect(status).toBe(422);
    const data = error.response?.data as { message: string; errors: Array<Record<string, string>> };
    expect(data.message).toBe('Validation Failed');
    expect(data.errors[0]).toMatchObject({ resource: 'IssueComment', code: 'custom', field: 'body' });
    expect(data.errors[0]?.message).toContain('65536');
    expect(fake.comments(42)).toHaveLength(1);
    const ok = await octokit.rest.issues.createComment({
      ...repo,
      issue_number: 42,
      body: 'y'.repeat(MAX_BODY_CHARS)
    });
    expect(ok.status).toBe(201);
    // An edit is limited the same way.
    const edit = await failure(
      octokit.rest.issues.updateComment({
        ...repo,
        comment_id: ok.data.id,
        body: 'z'.repeat(MAX_BODY_CHARS + 1)
      })
    );
    expect(edit.status).toBe(422);
    expect(fake.comment(ok.data.id)?.body).toHaveLength(MAX_BODY_CHARS);
  });

  test('an injected 500 on the comment edit reaches the caller as a RequestError; state is untouched', async () => {
    const { fake, octokit } = await start({ issues: [issue42] });
    fake.failNext({ method: 'PATCH', path: /\/issues\/comments\/\d+$/, status: 500 });
    const { status, error } = await failure(
      octokit.rest.issues.updateComment({ ...repo, comment_id: 9001, body: 'new' })
    );
    expect(status).toBe(500);
    expect(error.name).toBe('HttpError'); // @octokit/request-error's RequestError
    expect(fake.comment(9001)?.body).toBe('/agent fix this');
    expect(fake.requestsTo('PATCH', /comments/)[0]?.faulted).toBe(true);
    // Only once: the next edit goes through.
    await octokit.rest.issues.updateComment({ ...repo, comment_id: 9001, body: 'new' });
    expect(fake.comment(9001)?.body).toBe('new');
  });

  test('failAlways keeps failing until removed; other routes are not affected', async () => {
    const { octokit, fake } = await start({
      issues: [issue42],
      failRoutes: [{ path: /\/reactions$/, status: 503 }]
    });
    expect(
      (
        await failure(
          octokit.rest.reactions.createForIssueComment({ ...repo, comment_id: 9001, content: '+1' })
        )
      ).status
    ).toBe(503);
    expect(
      (
        await failure(
          octokit.rest.reactions.createForIssueComment({ ...repo, comment_id: 9001, content: '+1' })
        )
      ).status
    ).toBe(503);
    const stop = fake.failAlways({ method: 'GET', path: /\/issues\/42$/, status: 403 });
    expect((await failure(octokit.rest.issues.get({ ...repo, issue_number: 42 }))).status).toBe(403);
    stop();
    expect((await octokit.rest.issues.get({ ...repo, issue_number: 42 })).data.title).toBe(
      'Crash on empty input'
    );
    expect((await octokit.rest.issues.listComments({ ...repo, issue_number: 42 })).data).toHaveLength(1);
  });
});

describe('auth and routing', () => {
  test('a bad token gets 401 Bad credentials; Bearer works; unknown routes and repos get 404', async () => {
    const { fake, octokit } = await start({ issues: [issue42] });
    const bad = getOctokit('ghs_wrong', { baseUrl: fake.url });
    const { status, error } = await failure(bad.rest.issues.get({ ...repo, issue_number: 42 }));
    expect(status).toBe(401);
    expect((error.response?.data as { message: string }).message).toBe('Bad credentials');

    const bearer = await fetch(`${fake.url}/repos/${OWNER}/${REPO}/issues/42`, {
      headers: { authorization: 'Bearer ghs_test', 'user-agent': 'test' }
    });
    expect(bearer.status).toBe(200);
    const none = await fetch(`${fake.url}/repos/${OWNER}/${REPO}/issues/42`, {
      headers: { 'user-agent': 'test' }
    });
    expect(none.status).toBe(401);

    expect((await failure(octokit.rest.issues.get({ ...repo, issue_number: 41 }))).status).toBe(404);
    expect(
      (await failure(octokit.rest.issues.get({ owner: OWNER, repo: 'other', issue_number: 42 }))).status
    ).toBe(404);
    const unknown = await failure(octokit.request('GET /repos/{owner}/{repo}/branches', repo));
    expect(unknown.status).toBe(404);
    expect((unknown.error.response?.data as { message: string }).message).toBe('Not Found');
  });

  test('malformed JSON gets 400 and a missing parameter 422', async () => {
    const { fake } = await start({ issues: [issue42] });
    const post = (body: string): Promise<Response> =>
      fetch(`${fake.url}/repos/${OWNER}/${REPO}/issues/42/comments`, {
        method: 'POST',
        headers: {
          authorization: 'token ghs_test',
          'user-agent': 'test',
          'content-type': 'application/json'
        },
        body
      });
    const broken = await post('{"body":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { message: string }).message).toBe('Problems parsing JSON');
    const missing = await post('{}');
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { message: string }).message).toContain('"body" wasn\'t supplied');
    expect(fake.comments(42)).toHaveLength(1);
  });

  test('two fakes run at once without sharing state', async () => {
    const a = await start({ issues: [issue42] });
    const b = await start({ issues: [issue42] });
    expect(a.fake.url).not.toBe(b.fake.url);
    await a.octokit.rest.issues.createComment({ ...repo, issue_number: 42, body: 'only in a' });
    expect(a.fake.comments(42)).toHaveLength(2);
    expect(b.fake.comments(42)).toHaveLength(1);
    expect(b.fake.requests).toHaveLength(0);
  });
});

describe('pull requests', () => {
  const seededPull = {
    number: 7,
    title: 'Add widgets',
    body: 'Adds widgets.',
    user: 'contributor',
    head: { ref: 'feature/widgets', sha: 'b'.repeat(40), repo: { full_name: 'contributor/widgets' } },
    base: { ref: 'main' },
    files: Array.from({ length: 205 }, (_, i) => ({
      filename: `src/file-${String(i).padStart(3, '0')}.ts`,
      status: i === 0 ? ('added' as const) : ('modified' as const),
      additions: i,
      deletions: 1,
      patch: `@@ -1 +1 @@\n-old ${i}\n+new ${i}`
    }))
  };

  test('get a PR from a fork, and list its files across pages', async () => {
    const { octokit } = await start({ pulls: [seededPull] });
    const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: 7 });
    expect(data.head.ref).toBe('feature/widgets');
    expect(data.head.repo?.full_name).toBe('contributor/widgets');
    expect(data.head.repo?.fork).toBe(true);
    expect(data.head.label).toBe('contributor:feature/widgets');
    expect(data.base.ref).toBe('main');
    expect(data.base.repo.full_name).toBe(`${OWNER}/${REPO}`);
    expect(data.changed_files).toBe(205);
    expect(data.html_url).toBe(`https://github.com/${OWNER}/${REPO}/pull/7`);
    const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
      ...repo,
      pull_number: 7,
      per_page: 100
    });
    expect(files).toHaveLength(205);
    expect(files[0]).toMatchObject({
      filename: 'src/file-000.ts',
      status: 'added',
      additions: 0,
      deletions: 1,
      changes: 1
    });
    expect(files[204]?.patch).toBe('@@ -1 +1 @@\n-old 204\n+new 204');
    // A PR is an issue too: the conversation is on /issues/7.
    const asIssue = await octokit.rest.issues.get({ ...repo, issue_number: 7 });
    expect(asIssue.data.pull_request?.html_url).toBe(`https://github.com/${OWNER}/${REPO}/pull/7`);
    expect((await failure(octokit.rest.pulls.get({ ...repo, pull_number: 8 }))).status).toBe(404);
  });

  test('create a PR, then a duplicate gets the 422 GitHub sends', async () => {
    const { fake, octokit } = await start({ issues: [issue42] });
    const request = {
      ...repo,
      title: 'Fix #42',
      head: 'agent/fix-42',
      base: 'main',
      body: 'Fixes #42',
      draft: true
    };
    const { data, status } = await octokit.rest.pulls.create(request);
    expect(status).toBe(201);
    expect(data.number).toBe(43);
    expect(data.draft).toBe(true);
    expect(data.html_url).toBe(`https://github.com/${OWNER}/${REPO}/pull/43`);
    expect(data.user.login).toBe('github-actions[bot]');
    expect(data.head.ref).toBe('agent/fix-42');
    expect(fake.createdPulls.map((p) => [p.number, p.head.ref, p.base.ref, p.body])).toEqual([
      [43, 'agent/fix-42', 'main', 'Fixes #42']
    ]);

    const dup = await failure(octokit.rest.pulls.create(request));
    expect(dup.status).toBe(422);
    expect(dup.error.response?.data).toMatchObject({
      message: 'Validation Failed',
      errors: [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: `A pull request already exists for ${OWNER}:agent/fix-42.`
        }
      ]
    });
    expect(fake.createdPulls).toHaveLength(1);
    // The same head with an owner prefix is the same PR too.
    expect(
      (await failure(octokit.rest.pulls.create({ ...request, head: `${OWNER}:agent/fix-42` }))).status
    ).toBe(422);
  });

  test('head == base, a too long body, unknown branches, and Actions not allowed to open PRs', async () => {
    const { fake, octokit } = await start({ branches: ['agent/fix'] });
    const base = { ...repo, title: 'T', head: 'agent/fix', base: 'main' };
    const same = await failure(octokit.rest.pulls.create({ ...base, head: 'main' }));
    expect(same.status).toBe(422);
    expect(JSON.stringify(same.error.response?.data)).toContain('No commits between main and main');
    expect((await failure(octokit.rest.pulls.create({ ...base, body: 'b'.repeat(65_537) }))).status).toBe(
      422
    );
    const unknown = await failure(octokit.rest.pulls.create({ ...base, head: 'agent/missing' }));
    expect(unknown.error.response?.data).toMatchObject({
      errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]
    });
    fake.addBranch('agent/missing');
    expect((await octokit.rest.pulls.create({ ...base, head: 'agent/missing' })).status).toBe(201);

    const locked = await start({ allowActionsToCreatePullRequests: false });
    const refused = await failure(locked.octokit.rest.pulls.create({ ...base }));
    expect(refused.status).toBe(403);
    expect(refused.error.message).toContain(
      'GitHub Actions is not permitted to create or approve pull requests.'
    );
  });
});

describe('seeding from @octokit/webhooks-examples payloads', () => {
  test('issue_comment.created: the issue, its comment and the sender are there', async () => {
    const payload = example('issue_comment', 'created');
    const p = payload as {
      repository: { owner: { login: string }; name: string; id: number };
      issue: { number: number; title: string };
      comment: { id: number; body: string; user: { login: string } };
      sender: { login: string };
    };
    const fake = await startFakeGitHub(stateFromPayload(payload, { senderPermission: 'write' }));
    fakes.push(fake);
    const octokit = getOctokit(fake.token, { baseUrl: fake.url });
    const r = { owner: p.repository.owner.login, repo: p.repository.name };
    expect(fake.repo.id).toBe(p.repository.id);
    const issue = await octokit.rest.issues.get({ ...r, issue_number: p.issue.number });
    expect(issue.data.title).toBe(p.issue.title);
    expect(issue.data.pull_request).toBeUndefined();
    const comments = await octokit.rest.issues.listComments({ ...r, issue_number: p.issue.number });
    expect(comments.data.map((c) => [c.id, c.body, c.user?.login])).toEqual([
      [p.comment.id, p.comment.body, p.comment.user.login]
    ]);
    const perm = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...r, username: p.sender.login });
    expect(perm.data.role_name).toBe('write');
  });

  test('issue_comment on a PR (pull_request marker added) seeds the PR with the given head', async () => {
    const payload = example('issue_comment', 'created') as {
      issue: Record<string, unknown>;
      repository: { owner: { login: string }; name: string };
    };
    payload.issue.pull_request = { url: 'x', html_url: 'x', diff_url: 'x', patch_url: 'x' };
    const number = payload.issue.number as number;
    const fake = await startFakeGitHub(
      stateFromPayload(payload, {
        pull: { head: { ref: 'feature', sha: 'c'.repeat(40) } },
        files: [{ filename: 'README.md', additions: 1, deletions: 1 }]
      })
    );
    fakes.push(fake);
    const octokit = getOctokit(fake.token, { baseUrl: fake.url });
    const r = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const pull = await octokit.rest.pulls.get({ ...r, pull_number: number });
    expect(pull.data.head.ref).toBe('feature');
    expect(pull.data.head.sha).toBe('c'.repeat(40));
    const files = await octokit.rest.pulls.listFiles({ ...r, pull_number: number });
    expect(files.data.map((f) => f.filename)).toEqual(['README.md']);
    // The payload's comment is on the PR conversation, and its html_url says /pull/.
    const comments = await octokit.rest.issues.listComments({ ...r, issue_number: number });
    expect(comments.data).toHaveLength(1);
    expect(comments.data[0]?.html_url).toContain(`/pull/${number}#issuecomment-`);
  });

  test('pull_request_review_comment.created: the review comment can be reacted to', async () => {
    const payload = example('pull_request_review_comment', 'created') as {
      comment: { id: number };
      pull_request: { number: number; head: { ref: string } };
      repository: { owner: { login: string }; name: string };
    };
    const fake = await startFakeGitHub(stateFromPayload(payload));
    fakes.push(fake);
    const octokit = getOctokit(fake.token, { baseUrl: fake.url });
    const r = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const reaction = await octokit.rest.reactions.createForPullRequestReviewComment({
      ...r,
      comment_id: payload.comment.id,
      content: 'eyes'
    });
    expect(reaction.status).toBe(201);
    const pull = await octokit.rest.pulls.get({ ...r, pull_number: payload.pull_request.number });
    expect(pull.data.head.ref).toBe(payload.pull_request.head.ref);
    expect(pull.data.review_comments).toBe(1);
  });
});
