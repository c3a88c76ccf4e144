/**
 * A job log's end through the real Octokit reads (OctokitCiFailureReads) against the fake GitHub,
 * whose log storage takes Range as Azure Blob Storage does: the failing line at the end of a log
 * far over the read bound is seen, and a storage that ignores Range is read through to its end.
 */
import { OctokitCiFailureReads } from '../../src/github/api/ci-failure-reads.js';
import { startFakeGitHub, type FakeGitHub, type FakeJobSeed } from '../../test-support/fake-github/index.js';

const REPO = { owner: 'octo', name: 'repo', id: 4242 };
const FAILING = 'FAIL sum.test.js: expected 5, received 6';

let github: FakeGitHub;
beforeEach(async () => {
  github = await startFakeGitHub({ repo: { ...REPO } });
});
afterEach(async () => {
  await github.close();
});

function reads(): OctokitCiFailureReads {
  return new OctokitCiFailureReads(github.token, REPO, github.url, {
    resilience: { serverErrorRetries: 0 },
    logger: { warning: () => {} }
  });
}

/** A log of `megabytes` of passing lines, then the failure at its very end. */
function job(megabytes: number, extra: Partial<FakeJobSeed> = {}): FakeJobSeed {
  const line = 'PASS a passing test, one of very many\n';
  return {
    id: 61,
    name: 'test',
    conclusion: 'failure',
    steps: [{ name: 'Run npm test', conclusion: 'failure' }],
    log: `${line.repeat(Math.ceil((megabytes * 1024 * 1024) / line.length))}${FAILING}\n`,
    ...extra
  };
}

const LIMITS = { maxReadBytes: 1024 * 1024, keepBytes: 4096 };
const storageRanges = () =>
  github.requests.filter((request) => request.path.includes('signedlogcontent')).length;

describe('the end of a job log', () => {
  it('is asked for by range: a log far over the read bound still shows its last line', async () => {
    github.setRunJobs(7, 1, [job(3)]);
    const tail = await reads().jobLogTail(61, LIMITS);
    expect(tail.cut).toBe(true);
    expect(tail.text.endsWith(`${FAILING}\n`)).toBe(true);
    expect(tail.text.length).toBeLessThanOrEqual(LIMITS.keepBytes);
    // Whole lines only: the partial first line of the range is dropped.
    expect(tail.text.startsWith('PASS a passing test')).toBe(true);
    expect(storageRanges()).toBe(2);
  });

  it('is read through to its end, keeping the last bytes, when the storage ignores Range', async () => {
    github.setRunJobs(7, 1, [job(0.5, { ignoresRange: true })]);
    const tail = await reads().jobLogTail(61, LIMITS);
    expect(tail.cut).toBe(true);
    expect(tail.text.endsWith(`${FAILING}\n`)).toBe(true);
    expect(tail.text.length).toBeLessThanOrEqual(LIMITS.keepBytes);
  });

  it('is whole when the log is short, and empty when there is none', async () => {
    github.setRunJobs(7, 1, [
      { ...job(0), log: `${FAILING}\n` },
      { ...job(0), id: 62, log: '' }
    ]);
    await expect(reads().jobLogTail(61, LIMITS)).resolves.toEqual({ text: `${FAILING}\n`, cut: false });
    await expect(reads().jobLogTail(62, LIMITS)).resolves.toEqual({ text: '', cut: false });
  });
});
