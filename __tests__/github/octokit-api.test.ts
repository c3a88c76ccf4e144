import { OctokitGitHubApi } from '../../src/github/api/octokit-api.js';
import { checkActor } from '../../src/github/events/permissions.js';
import { startFakeGitHub, type FakeGitHub } from '../../test-support/fake-github/index.js';

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub({
    repo: { owner: 'octo', name: 'repo', default_branch: 'main' },
    permissions: { keeper: 'maintain', sorter: 'triage', writer: 'write' },
    issues: [
      {
        number: 3,
        title: 'Comment authors',
        user: 'keeper',
        comments: [
          { id: 31, user: 'github-actions[bot]', body: 'report' },
          { id: 32, user: 'my-agent', body: 'a user named like a bot' }
        ]
      }
    ]
  });
});
afterAll(() => fake.close());

describe('OctokitGitHubApi against the fake GitHub', () => {
  it('reads the role, so maintainers may start a run and triagers may not', async () => {
    const api = new OctokitGitHubApi(fake.token, { owner: 'octo', name: 'repo' }, fake.url);
    expect(await api.permission('keeper')).toBe('maintain');
    expect(await api.permission('sorter')).toBe('triage');
    expect(await checkActor(api, { login: 'keeper', type: 'User' }, [])).toEqual({ allowed: true });
    expect(await checkActor(api, { login: 'sorter', type: 'User' }, [])).toMatchObject({ allowed: false });
    expect(await checkActor(api, { login: 'nobody', type: 'User' }, [])).toMatchObject({ allowed: false });
  });

  it("carries each comment author's account type, as GitHub reports it", async () => {
    const api = new OctokitGitHubApi(fake.token, { owner: 'octo', name: 'repo' }, fake.url);
    const comments = await api.listComments(3);
    expect(comments.map(({ id, login, userType }) => ({ id, login, userType }))).toEqual([
      { id: 31, login: 'github-actions[bot]', userType: 'Bot' },
      { id: 32, login: 'my-agent', userType: 'User' }
    ]);
  });
});
