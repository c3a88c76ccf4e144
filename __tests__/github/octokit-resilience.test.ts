import { createServer, type Server, type Socket } from 'node:net';
import { OctokitGitHubApi } from '../../src/github/api/octokit-api.js';
import { GitHubUnavailableError } from '../../src/github/api/octokit-resilience.js';
import {
  primaryRateLimit,
  secondaryRateLimit,
  startFakeGitHub,
  type FakeGitHub
} from '../../test-support/fake-github/index.js';

/** Real Octokit and its real plugins against the fake; only the clock unit is shrunk (20 ms per "second"). */
const FAST = { millisecondsPerSecond: 20 };
const PULL_PATH = /\/pulls\/7$/;

let fake: FakeGitHub;
let warnings: string[];

function api(baseUrl = fake.url): OctokitGitHubApi {
  return new OctokitGitHubApi(fake.token, { owner: 'octo', name: 'repo' }, baseUrl, {
    logger: { warning: (message) => warnings.push(message) },
    resilience: FAST
  });
}

function pullRequests(): number {
  return fake.requestsTo('GET', PULL_PATH).length;
}

beforeAll(async () => {
  fake = await startFakeGitHub({
    repo: { owner: 'octo', name: 'repo', default_branch: 'main' },
    permissions: { writer: 'write' },
    pulls: [
      {
        number: 7,
        title: 'Fix it',
        user: 'writer',
        head: { ref: 'fix', sha: 'a'.repeat(40) },
        base: { ref: 'main' }
      }
    ]
  });
});
beforeEach(() => {
  fake.clearFaults();
  warnings = [];
});
afterAll(() => fake.close());

describe('server errors: retried with backoff, bounded', () => {
  it('a 502 then success: the call succeeds after one retry', async () => {
    const before = pullRequests();
    fake.failNext({ method: 'GET', path: PULL_PATH, status: 502 });
    await expect(api().getPullRequest(7)).resolves.toMatchObject({ number: 7, headRef: 'fix' });
    expect(pullRequests() - before).toBe(2);
  });

  it('a persistent 500 fails after 1 + 3 attempts with an error that says what to do', async () => {
    const before = pullRequests();
    fake.failAlways({ method: 'GET', path: PULL_PATH, status: 500 });
    const failure = api().getPullRequest(7);
    await expect(failure).rejects.toBeInstanceOf(GitHubUnavailableError);
    await expect(failure).rejects.toMatchObject({ status: 500 });
    await expect(failure).rejects.toThrow(/GitHub answered 500 .* on all 4 attempts.*githubstatus\.com/s);
    expect(pullRequests() - before).toBe(4);
  });

  it('a dropped connection is retried, then named as unreachable', async () => {
    const dropped: Socket[] = [];
    const dropper: Server = createServer((socket) => {
      dropped.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    const address = dropper.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      const failure = api(`http://127.0.0.1:${address.port}`).getPullRequest(7);
      await expect(failure).rejects.toThrow(/Could not reach GitHub .* in 4 attempts/s);
      expect(dropped).toHaveLength(4);
    } finally {
      await new Promise((resolve) => dropper.close(resolve));
    }
  });
});

describe('client errors: never retried', () => {
  it('a 404 is one request, and the error is GitHub’s own', async () => {
    const before = fake.requestsTo('GET', /\/pulls\/404$/).length;
    await expect(api().getPullRequest(404)).rejects.toMatchObject({ status: 404 });
    expect(fake.requestsTo('GET', /\/pulls\/404$/).length - before).toBe(1);
    expect(warnings).toEqual([]);
  });

  it.each([409, 422, 405])('a %i is one request', async (status) => {
    const before = pullRequests();
    fake.failNext({ method: 'GET', path: PULL_PATH, status, times: 5 });
    await expect(api().getPullRequest(7)).rejects.toMatchObject({ status });
    expect(pullRequests() - before).toBe(1);
  });

  it('a 403 refusal that is not a rate limit is one request', async () => {
    const before = pullRequests();
    fake.failNext({ method: 'GET', path: PULL_PATH, status: 403, times: 5 });
    await expect(api().getPullRequest(7)).rejects.toThrow(/Resource not accessible by integration/);
    expect(pullRequests() - before).toBe(1);
  });
});

describe('rate limits: waited out as GitHub asks, a bounded number of times', () => {
  it('a primary rate limit resetting in 1 s: waits, warns, succeeds', async () => {
    const before = pullRequests();
    fake.failNext(primaryRateLimit({ method: 'GET', path: PULL_PATH }, new Date(Date.now() + 1000)));
    await expect(api().getPullRequest(7)).resolves.toMatchObject({ number: 7 });
    expect(pullRequests() - before).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/GitHub's rate limit refused GET .*pulls.*; waiting [1-3] s .*\(1 of 2\)/);
  });

  it('a secondary rate limit with retry-after: waits that long, warns, succeeds', async () => {
    const before = pullRequests();
    fake.failNext(secondaryRateLimit({ method: 'GET', path: PULL_PATH }, 3));
    await expect(api().getPullRequest(7)).resolves.toMatchObject({ number: 7 });
    expect(pullRequests() - before).toBe(2);
    expect(warnings).toEqual([expect.stringMatching(/secondary rate limit refused GET .*; waiting 3 s /)]);
  });

  it('a rate limit that persists: gives up after 2 waits (3 requests), not forever', async () => {
    const before = pullRequests();
    fake.failAlways(secondaryRateLimit({ method: 'GET', path: PULL_PATH }, 1));
    await expect(api().getPullRequest(7)).rejects.toMatchObject({ status: 403 });
    expect(pullRequests() - before).toBe(3);
    expect(warnings).toHaveLength(3);
    expect(warnings[2]).toMatch(/again after 2 waits; giving up/);
  });

  it('a reset an hour away is not waited for: one request, and a warning that says why', async () => {
    const before = pullRequests();
    fake.failNext(primaryRateLimit({ method: 'GET', path: PULL_PATH }, new Date(Date.now() + 3_600_000)));
    await expect(api().getPullRequest(7)).rejects.toThrow(/API rate limit exceeded/);
    expect(pullRequests() - before).toBe(1);
    expect(warnings).toEqual([expect.stringMatching(/asks to wait \d+ s, longer than the 300 s/)]);
  });

  it('a 429 is handled by the rate-limit rules, not retried as a server error', async () => {
    const before = pullRequests();
    fake.failNext({
      ...secondaryRateLimit({ method: 'GET', path: PULL_PATH }, 2),
      status: 429
    });
    await expect(api().getPullRequest(7)).resolves.toMatchObject({ number: 7 });
    expect(pullRequests() - before).toBe(2);
    expect(warnings).toEqual([expect.stringMatching(/waiting 2 s/)]);
  });
});
