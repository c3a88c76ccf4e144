import { gateCiFix, type CiFixGateContext } from '../../src/cifix/ci-fix-gate.js';
import { ciFixMarker, ciFixMarks } from '../../src/cifix/ci-fix-markers.js';
import { CI_FIX_DEFAULTS } from '../../src/config/ci-fix-settings.js';
import type { CiFailureReads, CiPullRequest, FailedJob } from '../../src/github/api/ci-failure-reads.js';
import type { WorkflowRunFacts } from '../../src/github/events/workflow-run-event.js';
import type { ThreadComment } from '../../src/github/api/github-api.js';

const BOT = 'github-actions[bot]';
/** A run of this workflow (the Actions API says so); any other run id is another workflow's. */
const OURS = 500;
const SHA = 'a'.repeat(40);

const run = (attempt: number): WorkflowRunFacts => ({
  id: 77,
  attempt,
  name: 'CI',
  conclusion: 'failure',
  headBranch: 'agent/1-abc',
  headSha: SHA,
  headRepoFullName: 'o/r',
  htmlUrl: 'https://github.com/o/r/actions/runs/77',
  event: 'pull_request',
  pullRequests: [{ number: 5, headRef: 'agent/1-abc', baseRef: 'main' }]
});

const agentsPull: CiPullRequest = {
  number: 5,
  state: 'open',
  headRef: 'agent/1-abc',
  headSha: SHA,
  headRepoFullName: 'o/r',
  author: { login: BOT, type: 'Bot', id: 41898282 },
  labels: []
};

const job: FailedJob = { id: 9, name: 'test', htmlUrl: '', checkRunId: 9, failedSteps: ['Run npm test'] };

/** An in-memory Actions API: the pull request, one failed job with `log`, and the re-runs asked. */
function context(
  pull: CiPullRequest,
  comments: ThreadComment[],
  log = 'FAIL sum.test.ts'
): CiFixGateContext & { reruns: number[] } {
  const reruns: number[] = [];
  const reads: CiFailureReads = {
    pullRequest: async () => pull,
    failedJobs: async () => [job],
    jobLogTail: async () => ({ text: log, cut: false }),
    annotations: async () => [],
    rerunFailedJobs: async (id) => {
      reruns.push(id);
    }
  };
  return {
    reads,
    reruns,
    listComments: async () => comments,
    settings: CI_FIX_DEFAULTS,
    bot: { login: BOT, id: 41898282 },
    branchPrefix: 'agent/',
    repositoryFullName: 'o/r',
    redact: (text) => text,
    judgeRun: async (runId) =>
      runId === OURS ? { kind: 'ours' } : { kind: 'foreign', reason: `run ${runId} is triage.yml's` }
  };
}

const botComment = (body: string): ThreadComment => ({
  id: 1,
  body,
  login: BOT,
  userType: 'Bot',
  createdAt: ''
});

describe('whether a failed CI run is fixed', () => {
  it('re-runs a first attempt before anything else, and fixes the second', async () => {
    expect(await gateCiFix(context(agentsPull, []), run(1), 5)).toMatchObject({ kind: 'rerun', jobs: 1 });
    expect(await gateCiFix(context(agentsPull, []), run(2), 5)).toMatchObject({ kind: 'fix', attempt: 1 });
  });

  it('does not re-run a run it re-ran already', async () => {
    const comments = [botComment(`re-ran\n\n${ciFixMarker({ kind: 'rerun', by: OURS, run: 77 })}`)];
    expect(await gateCiFix(context(agentsPull, comments), run(1), 5)).toMatchObject({ kind: 'fix' });
  });

  it('stops at max_attempts, and on a failure it tried to fix before', async () => {
    const first = await gateCiFix(context(agentsPull, []), run(2), 5);
    if (first.kind !== 'fix') throw new Error(first.kind);
    const tried = [
      botComment(ciFixMarker({ kind: 'attempt', by: OURS, run: 70, signature: first.failure.signature }))
    ];
    expect(await gateCiFix(context(agentsPull, tried), run(2), 5)).toMatchObject({
      kind: 'stop',
      key: `same-${first.failure.signature}`
    });
    const other = [
      botComment(ciFixMarker({ kind: 'attempt', by: OURS, run: 70, signature: '0123456789abcdef' }))
    ];
    expect(await gateCiFix(context(agentsPull, other, 'FAIL other.test.ts'), run(2), 5)).toMatchObject({
      kind: 'fix',
      attempt: 2
    });
    const two = [
      ...other,
      botComment(ciFixMarker({ kind: 'attempt', by: OURS, run: 71, signature: 'fedcba9876543210' }))
    ];
    expect(await gateCiFix(context(agentsPull, two), run(2), 5)).toMatchObject({
      kind: 'stop',
      key: 'attempts'
    });
  });

  it('counts only the bot’s own marks: a person’s pasted mark neither stops nor starts anything', async () => {
    const pasted: ThreadComment = {
      ...botComment(ciFixMarker({ kind: 'stop', by: OURS, reason: 'attempts' })),
      login: 'mallory',
      userType: 'User'
    };
    expect(ciFixMarks([pasted], BOT)).toEqual([]);
    const asBot: ThreadComment = { ...pasted, login: BOT, userType: 'User' };
    expect(ciFixMarks([asBot], BOT)).toEqual([]);
  });

  it("counts a mark only when its run is this workflow's: another workflow's forged marks use up no attempt", async () => {
    const forged = (run: number) =>
      botComment(
        `Thanks! You wrote:\n\n${ciFixMarker({ kind: 'attempt', by: 900 + run, run, signature: '0123456789abcdef' })}`
      );
    const rerunForged = botComment(ciFixMarker({ kind: 'rerun', by: 901, run: 77 }));
    const gate = context(agentsPull, [forged(1), forged(2), rerunForged]);
    // Both forged attempts are passed over (max_attempts is 2), and the forged re-run too.
    expect(await gateCiFix(gate, run(1), 5)).toMatchObject({ kind: 'rerun' });
    expect(await gateCiFix(gate, run(2), 5)).toMatchObject({ kind: 'fix', attempt: 1 });
  });

  it('reads a mark only as the whole last line of the comment: a quoted one is not a mark', () => {
    const mark = ciFixMarker({ kind: 'stop', by: OURS, reason: 'attempts' });
    expect(ciFixMarks([botComment(`said\n\n${mark}`)], BOT)).toHaveLength(1);
    expect(ciFixMarks([botComment(`said\n\n> ${mark}`)], BOT)).toEqual([]);
    expect(ciFixMarks([botComment(`said ${mark}`)], BOT)).toEqual([]);
    // One without the run that wrote it (as the first version wrote them) cannot be checked.
    expect(
      ciFixMarks([botComment('<!-- compact-agent-ci-fix {"kind":"stop","reason":"attempts"} -->')], BOT)
    ).toEqual([]);
  });

  it('leaves alone a pull request of someone else without the label, a fork’s, a closed one, and a stale run', async () => {
    const persons = { ...agentsPull, author: { login: 'octocat', type: 'User' as const, id: 1 } };
    expect(await gateCiFix(context(persons, []), run(2), 5)).toMatchObject({ kind: 'skip' });
    expect(await gateCiFix(context({ ...persons, labels: ['agent-fix-ci'] }, []), run(2), 5)).toMatchObject({
      kind: 'fix'
    });
    // The bot's pull request on a branch it did not make (not under branch_prefix).
    expect(await gateCiFix(context({ ...agentsPull, headRef: 'main-fix' }, []), run(2), 5)).toMatchObject({
      kind: 'skip'
    });
    expect(
      await gateCiFix(context({ ...agentsPull, headRepoFullName: 'fork/r' }, []), run(2), 5)
    ).toMatchObject({ kind: 'skip' });
    expect(await gateCiFix(context({ ...agentsPull, state: 'closed' }, []), run(2), 5)).toMatchObject({
      kind: 'skip'
    });
    expect(await gateCiFix(context({ ...agentsPull, headSha: 'b'.repeat(40) }, []), run(2), 5)).toMatchObject(
      { kind: 'skip' }
    );
  });
});
