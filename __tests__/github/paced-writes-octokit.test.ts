import { OctokitGitHubApi } from '../../src/github/api/octokit-api.js';
import { WritePacer } from '../../src/github/api/paced-writes.js';
import { UNSPACED_LOOPBACK_WRITES_VARIABLE } from '../../src/config/test-switches.js';
import {
  secondaryRateLimit,
  startFakeGitHub,
  type FakeGitHub
} from '../../test-support/fake-github/index.js';
import { expectNoContractViolations } from '../../test-support/github-contract/index.js';
import { VirtualClock } from '../../test-support/virtual-clock.js';

/**
 * Real Octokit with its real plugins against the fake GitHub, whose secondary limit refuses writes
 * less than a second apart. Fake and pacer share a virtual clock, so nothing waits for real. The
 * throttling plugin's own spacing is off (the loopback switch), so only the pacer spaces.
 */
const UNSPACED = { [UNSPACED_LOOPBACK_WRITES_VARIABLE]: '1' };

let fake: FakeGitHub;
let clock: VirtualClock;
let warnings: string[];

beforeEach(async () => {
  clock = new VirtualClock();
  warnings = [];
  fake = await startFakeGitHub({
    repo: { owner: 'octo', name: 'repo', default_branch: 'main' },
    issues: [{ number: 1, title: 'An issue', user: 'octocat' }],
    clock: () => clock.now(),
    secondaryLimitOnFastWrites: { minGapMs: 1000, retryAfterSeconds: 3 }
  });
});

afterEach(async () => {
  expectNoContractViolations(fake);
  await fake.close();
});

function api(writePacer: WritePacer | undefined): OctokitGitHubApi {
  return new OctokitGitHubApi(fake.token, { owner: 'octo', name: 'repo' }, fake.url, {
    env: UNSPACED,
    logger: { warning: (message) => warnings.push(message) },
    resilience: { millisecondsPerSecond: 1, rateLimitRetries: 0 },
    ...(writePacer ? { writePacer } : {})
  });
}

const writeArrivals = () =>
  fake.requests.filter((request) => request.method !== 'GET').map((request) => request.status);

describe('paced writes through our Octokit client', () => {
  it('a burst of writes without the pacer meets the secondary limit', async () => {
    const client = api(undefined);
    await client.createComment(1, 'one');
    await expect(client.createComment(1, 'two')).rejects.toThrow(/secondary rate limit/);
    expect(writeArrivals()).toEqual([201, 403]);
  });

  it('with the pacer, every write goes through the first time, a second apart', async () => {
    const pacer = new WritePacer({ clock });
    const client = api(pacer);
    const created = await client.createComment(1, 'one');
    await client.updateComment(created.id, 'one, edited');
    await client.createComment(1, 'two');
    // Reads are not paced.
    await client.listComments(1);
    expect(writeArrivals()).toEqual([201, 200, 201]);
    expect(clock.sleeps).toEqual([1000, 1000]);
    expect(fake.comments(1).map((comment) => comment.body)).toEqual(['one, edited', 'two']);
  });

  it('two clients sharing a pacer are paced together', async () => {
    const pacer = new WritePacer({ clock });
    const [first, second] = [api(pacer), api(pacer)];
    await Promise.all([
      first.createComment(1, 'a'),
      second.createComment(1, 'b'),
      first.createComment(1, 'c')
    ]);
    expect(writeArrivals()).toEqual([201, 201, 201]);
  });

  it("waits out GitHub's retry-after once, in the pacer, not again in the throttling plugin", async () => {
    const pacer = new WritePacer({ clock, logger: { warning: (message) => warnings.push(message) } });
    const client = new OctokitGitHubApi(fake.token, { owner: 'octo', name: 'repo' }, fake.url, {
      env: UNSPACED,
      logger: { warning: (message) => warnings.push(message) },
      // The plugin would retry twice if it still handled write limits.
      resilience: { millisecondsPerSecond: 1, rateLimitRetries: 2 },
      writePacer: pacer
    });
    fake.failNext(secondaryRateLimit({ method: 'POST', path: /\/comments$/ }, 9));
    const before = clock.now();
    await client.createComment(1, 'after the wait');
    expect(writeArrivals()).toEqual([403, 201]);
    expect(clock.now() - before).toBe(9000);
    expect(warnings).toEqual([
      expect.stringMatching(/^GitHub's secondary rate limit refused POST .*; waiting 9 s as GitHub asks/)
    ]);
  });
});
