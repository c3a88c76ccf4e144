/** The fake's PATCH /pulls/{n}, seen through the real Octokit (a follow-up run updates its PR with it). */
import { getOctokit } from '@actions/github';
import { startFakeGitHub, type FakeGitHub } from '../../test-support/fake-github/index.js';

const repo = { owner: 'acme', repo: 'widgets' };
let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function withPull() {
  fake = await startFakeGitHub({ repo: { owner: 'acme', name: 'widgets' } });
  const octokit = getOctokit(fake.token, { baseUrl: fake.url });
  const { data } = await octokit.rest.pulls.create({
    ...repo,
    title: 'T',
    head: 'agent/x',
    base: 'main',
    body: 'old'
  });
  return { octokit, number: data.number, fake };
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    return (error as { status: number }).status;
  }
  throw new Error('expected the call to fail');
}

describe('PATCH /repos/{o}/{r}/pulls/{n}', () => {
  it('replaces the body (and title, state) and answers the pull request', async () => {
    const { octokit, number, fake: f } = await withPull();
    const { data, status } = await octokit.rest.pulls.update({
      ...repo,
      pull_number: number,
      body: 'new body'
    });
    expect(status).toBe(200);
    expect(data.body).toBe('new body');
    expect(data.html_url).toBe(`https://github.com/acme/widgets/pull/${number}`);
    expect(f.pull(number)!.body).toBe('new body');
    await octokit.rest.pulls.update({ ...repo, pull_number: number, state: 'closed', title: 'T2' });
    expect(f.pull(number)).toMatchObject({ state: 'closed', title: 'T2', body: 'new body' });
    expect(f.requestsTo('PATCH', new RegExp(`/pulls/${number}$`))).toHaveLength(2);
  });

  it('answers 404 for an unknown PR and 422 for a bad state or a body over the limit, changing nothing', async () => {
    const { octokit, number, fake: f } = await withPull();
    expect(await statusOf(octokit.rest.pulls.update({ ...repo, pull_number: 999, body: 'x' }))).toBe(404);
    expect(
      await statusOf(
        octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
          ...repo,
          pull_number: number,
          state: 'merged' as never
        })
      )
    ).toBe(422);
    expect(
      await statusOf(octokit.rest.pulls.update({ ...repo, pull_number: number, body: 'b'.repeat(65_537) }))
    ).toBe(422);
    expect(f.pull(number)).toMatchObject({ state: 'open', body: 'old' });
  });
});
