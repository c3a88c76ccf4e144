import { claimMarker, type ClaimState } from '../../src/action/duplicate-trigger.js';
import {
  claimStartBody,
  TRACKING_MARKER,
  TrackingComment
} from '../../src/github/report/tracking-comment.js';
import { MemoryGitHub } from '../support/memory-github.js';

const BOT = 'github-actions[bot]';
const marker = (state: ClaimState) => claimMarker({ request: 'issue-comment:7', run: 42, attempt: 1, state });

const RUN_URL = 'https://github.com/o/r/actions/runs/42';
const STATE = '<!-- compact-agent-state:v1 eyJ2ZXJzaW9uIjoxfQ== -->';

function tracking(api: MemoryGitHub, claimId: number, sticky = false) {
  const body = api.comments.get(claimId)!.body;
  return new TrackingComment(api, 5, {
    runUrl: RUN_URL,
    minIntervalMs: 0,
    now: () => 0,
    warn: () => undefined,
    reuse: sticky ? { botLogin: BOT, isOwnReport: () => Promise.resolve(true) } : undefined,
    claim: { commentId: claimId, body, marker }
  });
}

describe('the tracking comment and the run’s claim', () => {
  it('a claim that still shows the start is taken over without an edit', async () => {
    const api = new MemoryGitHub();
    const claim = await api.createComment(5, claimStartBody(RUN_URL, marker('working')));
    const comment = tracking(api, claim.id);
    await comment.start();
    expect(comment.id).toBe(claim.id);
    expect(api.edits).toEqual([]);
    expect(api.comments.get(claim.id)!.body).toContain('compact-agent is working on this');
    expect(api.comments.get(claim.id)!.body.endsWith(TRACKING_MARKER)).toBe(true);
  });

  it('a sticky comment is never another run’s claim at work', async () => {
    const api = new MemoryGitHub();
    const waiting = claimMarker({ request: 'issue-comment:8', run: 43, attempt: 1, state: 'working' });
    api.threadComments.push(
      {
        id: 900,
        login: BOT,
        userType: 'Bot',
        body: `old report\n\n${TRACKING_MARKER}`,
        createdAt: '2026-01-01T00:00:00Z'
      },
      {
        id: 901,
        login: BOT,
        userType: 'Bot',
        body: claimStartBody(RUN_URL, waiting),
        createdAt: '2026-01-01T00:00:01Z'
      }
    );
    const claim = await api.createComment(5, marker('working'));
    const comment = tracking(api, claim.id, true);
    await comment.start();
    expect(comment.id).toBe(900);
  });

  it('takes over the claim comment; the claim says working, then served with the report', async () => {
    const api = new MemoryGitHub();
    const claim = await api.createComment(5, `🤖 compact-agent has this request\n\n${marker('working')}`);
    const comment = tracking(api, claim.id);
    await comment.start();
    expect(comment.id).toBe(claim.id);
    expect(api.comments.size).toBe(1);
    expect(api.edits[0]!.body).toContain('compact-agent is working on this');
    expect(api.edits[0]!.body).toContain(marker('working'));
    await comment.finish('the report', { replacedByReport: true });
    expect(api.edits.at(-1)).toEqual({
      id: claim.id,
      body: `the report\n\n${marker('served')}\n\n${TRACKING_MARKER}`
    });
  });

  it('keeps the state the report brings as its last block, where the next run reads it', async () => {
    const api = new MemoryGitHub();
    const claim = await api.createComment(5, marker('working'));
    const comment = tracking(api, claim.id);
    await comment.start();
    await comment.finish('the report', { replacedByReport: true, state: STATE });
    expect(api.edits.at(-1)!.body).toBe(
      `the report\n\n${marker('served')}\n\n${STATE}\n\n${TRACKING_MARKER}`
    );
  });

  it('a fault report leaves the claim failed: a re-run serves the request', async () => {
    const api = new MemoryGitHub();
    const claim = await api.createComment(5, marker('working'));
    const comment = tracking(api, claim.id);
    await comment.start();
    await comment.finish('what failed', { replacedByReport: false });
    expect(api.edits.at(-1)!.body).toContain(marker('failed'));
    expect(api.edits.at(-1)!.body).not.toContain(marker('served'));
  });

  it('with a reused sticky comment, the claim stays its own comment and is ended with the report', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push({
      id: 900,
      login: BOT,
      userType: 'Bot',
      body: `old report\n\n${TRACKING_MARKER}`,
      createdAt: '2026-01-01T00:00:00Z'
    });
    const claim = await api.createComment(5, marker('working'));
    const comment = tracking(api, claim.id, true);
    await comment.start();
    expect(comment.id).toBe(900);
    await comment.finish('the new report', { replacedByReport: true });
    const sticky = api.edits.filter((edit) => edit.id === 900).at(-1)!;
    expect(sticky.body).not.toContain('compact-agent-claim');
    const ended = api.edits.filter((edit) => edit.id === claim.id).at(-1)!;
    expect(ended.body).toContain('served this request');
    expect(ended.body).toContain(marker('served'));
  });

  it('a sticky comment does not carry an earlier run’s claim into the next report', async () => {
    const api = new MemoryGitHub();
    const earlierClaim = claimMarker({ request: 'issue-comment:6', run: 41, attempt: 1, state: 'served' });
    api.threadComments.push({
      id: 900,
      login: BOT,
      userType: 'Bot',
      body: `old report\n\n${earlierClaim}\n${TRACKING_MARKER}`,
      createdAt: '2026-01-01T00:00:00Z'
    });
    const claim = await api.createComment(5, marker('working'));
    const comment = tracking(api, claim.id, true);
    await comment.start();
    await comment.finish('what failed', { replacedByReport: false });
    for (const edit of api.edits.filter((e) => e.id === 900)) expect(edit.body).not.toContain(earlierClaim);
  });
});
