import { RequestError } from '@octokit/request-error';
import {
  GITHUB_WRITE_LIMITS,
  WritePacer,
  WriteRateLimitError,
  rateLimitWait
} from '../../src/github/api/paced-writes.js';
import { WRITE_GAP_MS_VARIABLE, writePaceFor } from '../../src/config/test-switches.js';
import { VirtualClock } from '../../test-support/virtual-clock.js';

/** GitHub's 403 as Octokit throws it: status, message, and the answer's headers. */
function refusal(status: number, message: string, headers: Record<string, string>): RequestError {
  return new RequestError(message, status, {
    request: { method: 'POST', url: 'https://api.github.com/repos/o/r/pulls', headers: {} },
    response: { status, url: 'https://api.github.com/repos/o/r/pulls', headers, data: { message } }
  });
}

const SECONDARY = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';

describe('the write pacer', () => {
  let clock: VirtualClock;
  let started: number[];
  const write = (pacer: WritePacer, result = 'ok') =>
    pacer.pace('POST /x', () => {
      started.push(clock.now());
      return Promise.resolve(result);
    });

  beforeEach(() => {
    clock = new VirtualClock(0);
    started = [];
  });

  it('starts writes at least a second apart, in the order they were asked for', async () => {
    const pacer = new WritePacer({ clock });
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((name) => write(pacer, name)));
    expect(results).toEqual(['a', 'b', 'c', 'd']);
    expect(started).toEqual([0, 1000, 2000, 3000]);
  });

  it('keeps the second from the end of a slow write, so the next cannot arrive sooner', async () => {
    const pacer = new WritePacer({ clock });
    const slow = () =>
      pacer.pace('POST /slow', () => {
        started.push(clock.now());
        clock.advance(300); // the request takes 300 ms on the wire
        return Promise.resolve('ok');
      });
    await Promise.all([slow(), write(pacer)]);
    expect(started).toEqual([0, 1300]);
  });

  it('sleeps again when a timer fired early, so no write starts inside the second', async () => {
    // A clock whose first sleep ends a millisecond early, as Node's timers may against Date.now().
    let early = true;
    const hasty = {
      now: () => clock.now(),
      sleep: (ms: number) => {
        const short = early && ms > 1 ? ms - 1 : ms;
        early = false;
        return clock.sleep(short);
      }
    };
    const pacer = new WritePacer({ clock: hasty });
    await Promise.all([write(pacer), write(pacer)]);
    expect(started).toEqual([0, 1000]);
    expect(clock.sleeps).toEqual([999, 1]);
  });

  it('does not wait when the last write is already a second old', async () => {
    const pacer = new WritePacer({ clock });
    await write(pacer);
    clock.advance(5000);
    await write(pacer);
    expect(started).toEqual([0, 5000]);
    expect(clock.sleeps).toEqual([]);
  });

  it("stays under GitHub's 80 writes a minute and 500 an hour", async () => {
    expect(GITHUB_WRITE_LIMITS.perMinute).toBeLessThan(80);
    expect(GITHUB_WRITE_LIMITS.perHour).toBeLessThan(500);
    // Without the gap, the per-minute count is what holds writes back.
    const pacer = new WritePacer({ clock, limits: { minGapMs: 0, perMinute: 3, perHour: 100 } });
    for (let index = 0; index < 7; index++) await write(pacer);
    expect(started).toEqual([0, 0, 0, 60_000, 60_000, 60_000, 120_000]);
    const hourly = new WritePacer({ clock, limits: { minGapMs: 0, perMinute: 100, perHour: 2 } });
    started = [];
    const from = clock.now();
    for (let index = 0; index < 3; index++) await write(hourly);
    expect(started.map((time) => time - from)).toEqual([0, 0, 3_600_000]);
  });

  it('waits the retry-after of a secondary limit, then tries the same write again', async () => {
    const warnings: string[] = [];
    const pacer = new WritePacer({ clock, logger: { warning: (message) => warnings.push(message) } });
    let calls = 0;
    const result = await pacer.pace('POST /repos/o/r/pulls', () => {
      started.push(clock.now());
      calls++;
      return calls === 1
        ? Promise.reject(refusal(403, SECONDARY, { 'retry-after': '7' }))
        : Promise.resolve('ok');
    });
    expect(result).toBe('ok');
    expect(started).toEqual([0, 7000]);
    expect(warnings).toEqual([
      expect.stringMatching(/secondary rate limit refused POST \/repos\/o\/r\/pulls; waiting 7 s/)
    ]);
    // The hold applies to the next write too, and the gap counts from the retry.
    await write(pacer);
    expect(started.at(-1)).toBe(8000);
  });

  it('waits for x-ratelimit-reset when the primary limit has none left', async () => {
    const wait = rateLimitWait(
      refusal(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1030' }),
      1_000_000,
      0
    );
    // One second past the reset, which is given in whole seconds.
    expect(wait).toEqual({ ms: 31_000, limit: 'rate limit' });
  });

  it('waits a minute, then longer, for a secondary limit without headers', () => {
    const bare = refusal(403, SECONDARY, {});
    expect(rateLimitWait(bare, 0, 0)).toEqual({ ms: 60_000, limit: 'secondary rate limit' });
    expect(rateLimitWait(bare, 0, 1)).toEqual({ ms: 120_000, limit: 'secondary rate limit' });
    expect(rateLimitWait(refusal(429, 'Too many', {}), 0, 0)?.ms).toBe(60_000);
  });

  it('passes a refusal that is no rate limit straight on, without retrying', async () => {
    const pacer = new WritePacer({ clock });
    const denied = refusal(403, 'Resource not accessible by integration', {});
    expect(rateLimitWait(denied, 0, 0)).toBeUndefined();
    let calls = 0;
    await expect(
      pacer.pace('POST /x', () => {
        calls++;
        return Promise.reject(denied);
      })
    ).rejects.toBe(denied);
    expect(calls).toBe(1);
  });

  it('gives up after its retries with an error that says what to do', async () => {
    const pacer = new WritePacer({ clock, rateLimitRetries: 2 });
    let calls = 0;
    const attempt = pacer.pace('PATCH /repos/o/r/pulls/3', () => {
      calls++;
      return Promise.reject(refusal(403, SECONDARY, { 'retry-after': '5' }));
    });
    await expect(attempt).rejects.toThrow(WriteRateLimitError);
    await expect(attempt).rejects.toThrow(
      /refused PATCH \/repos\/o\/r\/pulls\/3 again after 2 wait\(s\); giving up.*re-run this job/
    );
    expect(calls).toBe(3);
    // A failed write does not jam the queue.
    await write(pacer);
    expect(started).toHaveLength(1);
  });

  it('does not wait longer than it may', async () => {
    const pacer = new WritePacer({ clock, maxRateLimitWaitMs: 60_000 });
    await expect(
      pacer.pace('POST /x', () => Promise.reject(refusal(429, 'Too many', { 'retry-after': '3600' })))
    ).rejects.toThrow(/asks to wait 3600 s, longer than the 60 s this action waits/);
  });
});

describe("the test runner's switch for the gap between writes", () => {
  const asked = { [WRITE_GAP_MS_VARIABLE]: '20' };

  it('shortens the gap only against a loopback API, and keeps the minute and hour counts', () => {
    expect(writePaceFor('http://127.0.0.1:8080', asked, GITHUB_WRITE_LIMITS)).toEqual({
      ...GITHUB_WRITE_LIMITS,
      minGapMs: 20
    });
    for (const url of ['https://api.github.com', 'http://localhost:8080', undefined])
      expect(writePaceFor(url, asked, GITHUB_WRITE_LIMITS)).toBe(GITHUB_WRITE_LIMITS);
    expect(
      writePaceFor('http://127.0.0.1:8080', { [WRITE_GAP_MS_VARIABLE]: 'soon' }, GITHUB_WRITE_LIMITS)
    ).toBe(GITHUB_WRITE_LIMITS);
  });
});

describe('a write that is no API request (a git push)', () => {
  it('keeps the gap but is not counted in the minute', async () => {
    const clock = new VirtualClock(0);
    const started: string[] = [];
    const pacer = new WritePacer({ clock, limits: { minGapMs: 1000, perMinute: 2, perHour: 100 } });
    const write = (name: string, counted: boolean) =>
      pacer.pace(
        name,
        () => {
          started.push(`${name}@${clock.now()}`);
          return Promise.resolve();
        },
        { counted }
      );
    await write('push-1', false);
    await write('pr-1', true);
    await write('push-2', false);
    await write('pr-2', true);
    await write('push-3', false);
    // Two API writes fill the minute: the third waits for the first to be a minute old.
    await write('pr-3', true);
    expect(started).toEqual([
      'push-1@0',
      'pr-1@1000',
      'push-2@2000',
      'pr-2@3000',
      'push-3@4000',
      'pr-3@61000'
    ]);
    expect(pacer.recentWrites).toBe(3);
  });
});
