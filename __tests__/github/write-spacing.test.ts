import path from 'node:path';
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { OctokitGitHubApi } from '../../src/github/api/octokit-api.js';
import {
  QUEUE_MAX_WAIT_MS_VARIABLE,
  QUEUE_POLL_MS_VARIABLE,
  UNSPACED_LOOPBACK_WRITES_VARIABLE,
  queueTimingFor,
  spacesWrites
} from '../../src/config/test-switches.js';
import {
  secondaryRateLimit,
  startFakeGitHub,
  stateFromPayload
} from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload } from '../support/action-world.js';

const startWorld = actionWorldPerTest();
const ASKED = { [UNSPACED_LOOPBACK_WRITES_VARIABLE]: '1' };

describe("the throttling plugin's write spacing", () => {
  // The one spawned-action test that keeps the spacing: every other one runs without it.
  it('is on in the built action: its writes to GitHub arrive at least a second apart', async () => {
    const payload = examplePayload(
      'issue_comment',
      'created',
      '/agent the word count test fails, please fix it'
    );
    const world = await startWorld({
      seed: path.resolve('examples/word-stats'),
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      anthropic: { script: wordStatsFixer }
    });
    const run = await world.run({ eventName: 'issue_comment', payload, spaceGitHubWrites: true });
    expect(run.code).toBe(0);
    const writes = world.github.requests.filter((request) => request.method !== 'GET');
    // The reaction, the tracking comment, its edits, the pull request: enough to see the spacing.
    expect(writes.length).toBeGreaterThanOrEqual(4);
    // The plugin STARTS writes 1000 ms apart, so a write that is slow to arrive (a loaded CI machine:
    // 700 ms seen) shortens the next gap on arrival. Two writes apart are 2000 ms apart at their
    // starts, so at least 1000 ms apart on arrival for any write slower than a second; unspaced, the
    // built action's writes come within a few hundred ms of each other at the end of the run.
    const spans = writes.slice(2).map((write, index) => write.arrivedAt - writes[index]!.arrivedAt);
    expect(Math.min(...spans)).toBeGreaterThanOrEqual(1000);
  }, 120_000);

  it('is off only when asked for and the API is a loopback IP address', () => {
    expect(spacesWrites('http://127.0.0.1:8080', ASKED)).toBe(false);
    expect(spacesWrites('http://127.5.6.7', ASKED)).toBe(false);
    expect(spacesWrites('http://[::1]:8080', ASKED)).toBe(false);
    expect(spacesWrites('http://127.0.0.1:8080', {})).toBe(true);
    expect(spacesWrites('http://127.0.0.1:8080', { [UNSPACED_LOOPBACK_WRITES_VARIABLE]: 'true' })).toBe(true);
    // GitHub, GHES, no URL (Octokit's default, api.github.com), and names that only resolve to loopback.
    expect(spacesWrites('https://api.github.com', ASKED)).toBe(true);
    expect(spacesWrites('https://ghes.example.com/api/v3', ASKED)).toBe(true);
    expect(spacesWrites(undefined, ASKED)).toBe(true);
    expect(spacesWrites('http://localhost:8080', ASKED)).toBe(true);
    expect(spacesWrites('http://127.0.0.1.evil.example', ASKED)).toBe(true);
    expect(spacesWrites('not a url', ASKED)).toBe(true);
  });

  it('when off, comments are written back to back, with the rate-limit handling still in place', async () => {
    const fake = await startFakeGitHub({
      repo: { owner: 'octo', name: 'repo', default_branch: 'main' },
      issues: [{ number: 1, title: 'An issue', user: 'octocat' }]
    });
    try {
      const warnings: string[] = [];
      const api = new OctokitGitHubApi(fake.token, { owner: 'octo', name: 'repo' }, fake.url, {
        env: ASKED,
        logger: { warning: (message) => warnings.push(message) },
        resilience: { millisecondsPerSecond: 20 }
      });
      const started = Date.now();
      for (const body of ['one', 'two', 'three']) await api.createComment(1, body);
      // Spaced, these would take six seconds (a comment notifies: three seconds between them).
      expect(Date.now() - started).toBeLessThan(1500);
      expect(fake.comments(1).map((comment) => comment.body)).toEqual(['one', 'two', 'three']);
      fake.failNext(secondaryRateLimit({ method: 'POST', path: /\/comments$/ }, 1));
      await api.createComment(1, 'four');
      expect(warnings).toEqual([expect.stringMatching(/secondary rate limit refused POST .*; waiting 1 s /)]);
      expect(fake.comments(1).at(-1)!.body).toBe('four');
    } finally {
      await fake.close();
    }
  });
});

describe('the queue timing switches', () => {
  const production = { pollMs: 30_000, maxWaitMs: 4_800_000 };
  const asked = { [QUEUE_POLL_MS_VARIABLE]: '100', [QUEUE_MAX_WAIT_MS_VARIABLE]: '1500' };

  it('shorten the queue only against a loopback API', () => {
    expect(queueTimingFor('http://127.0.0.1:8080', asked, production)).toEqual({
      pollMs: 100,
      maxWaitMs: 1500
    });
    expect(queueTimingFor('https://api.github.com', asked, production)).toEqual(production);
    expect(queueTimingFor('http://localhost:8080', asked, production)).toEqual(production);
    expect(queueTimingFor(undefined, asked, production)).toEqual(production);
  });

  it('ignore values that are not positive whole numbers', () => {
    const odd = { [QUEUE_POLL_MS_VARIABLE]: '-5', [QUEUE_MAX_WAIT_MS_VARIABLE]: 'soon' };
    expect(queueTimingFor('http://127.0.0.1:8080', odd, production)).toEqual(production);
  });
});
