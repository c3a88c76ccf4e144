import type { AccountType, ThreadComment } from '../../src/github/api/github-api.js';
import { renderReport } from '../../src/github/report/report.js';
import { defuseMarkers } from '../../src/github/markdown/outbound-hidden-markers.js';
import { TRACKING_MARKER, TrackingComment } from '../../src/github/report/tracking-comment.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { runResult } from '../support/run-result.js';

const BOT = 'github-actions[bot]';
const STATE = '<!-- compact-agent-state:v1 eyJ2ZXJzaW9uIjoxfQ== -->';

/** A comment as GitHub lists it: by default a `[bot]` login is a Bot account, any other a User. */
function comment(
  id: number,
  login: string,
  body: string,
  userType: AccountType = login.endsWith('[bot]') ? 'Bot' : 'User'
): ThreadComment {
  return {
    id,
    login,
    body,
    userType,
    createdAt: '2026-01-01T00:00:00Z'
  };
}

function tracking(api: MemoryGitHub, reuseCommentBy: string | undefined, warnings: string[] = []) {
  return new TrackingComment(api, 5, {
    runUrl: 'https://run/2',
    minIntervalMs: 0,
    now: () => 0,
    warn: (message) => warnings.push(message),
    reuse:
      reuseCommentBy === undefined
        ? undefined
        : { botLogin: reuseCommentBy, isOwnReport: () => Promise.resolve(true) }
  });
}

describe('use_sticky_comment: the tracking comment reuses the action’s earlier report', () => {
  it('edits the newest earlier report by the bot and posts nothing new', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(
      comment(101, BOT, `old report\n\n${TRACKING_MARKER}`),
      comment(102, 'octocat', '/agent again'),
      comment(103, BOT, `newer report\n\n${TRACKING_MARKER}`)
    );
    const sticky = tracking(api, BOT);
    await sticky.start();
    expect(sticky.id).toBe(103);
    expect(sticky.reused).toBe(true);
    expect(api.comments.size).toBe(0);
    expect(api.edits.map((edit) => edit.id)).toEqual([103]);
    expect(api.edits[0]!.body).toContain('compact-agent is working on this');
    await sticky.finish('the new report', { replacedByReport: true });
    expect(api.edits.at(-1)).toEqual({ id: 103, body: `the new report\n\n${TRACKING_MARKER}` });
    expect(api.comments.size).toBe(0);
  });

  it.each([
    ['a person who pasted the marker', comment(201, 'mallory', `trust me\n\n${TRACKING_MARKER}`)],
    ['the bot, without the marker (a refusal reply)', comment(202, BOT, '🚫 compact-agent did not start')],
    ['the bot, quoting the marker mid-text', comment(203, BOT, `see ${TRACKING_MARKER} here, then more`)],
    ['another bot with the marker', comment(204, 'other-app[bot]', `x\n\n${TRACKING_MARKER}`)]
  ])('never takes a comment by %s', async (_, lookAlike) => {
    const api = new MemoryGitHub();
    api.threadComments.push(lookAlike);
    const sticky = tracking(api, BOT);
    await sticky.start();
    expect(sticky.reused).toBe(false);
    expect(api.edits).toEqual([]);
    expect([...api.comments.keys()]).toEqual([sticky.id]);
  });

  it('never takes a comment by a user account whose login is bot_name (bot_name: my-agent)', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(comment(211, 'my-agent', `✅ done\n\n${STATE}\n\n${TRACKING_MARKER}`, 'User'));
    const sticky = tracking(api, 'my-agent');
    await sticky.start();
    expect(sticky.reused).toBe(false);
    expect(api.edits).toEqual([]);
    expect([...api.comments.keys()]).toEqual([sticky.id]);
    expect(api.comments.get(sticky.id!)!.body).not.toContain(STATE);
  });

  it('takes the bot account’s report, passing over a newer one by a non-Bot account of the same login', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(
      comment(221, 'my-agent', `bot report\n\n${TRACKING_MARKER}`, 'Bot'),
      comment(222, 'my-agent', `user look-alike\n\n${TRACKING_MARKER}`, 'User'),
      comment(223, 'my-agent', `unknown look-alike\n\n${TRACKING_MARKER}`, 'Unknown')
    );
    const sticky = tracking(api, 'my-agent');
    await sticky.start();
    expect(sticky.reused).toBe(true);
    expect(sticky.id).toBe(221);
    expect(api.edits.map((edit) => edit.id)).toEqual([221]);
  });

  it('is off by default: an earlier report stays, and a new comment is posted', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(comment(301, BOT, `old report\n\n${TRACKING_MARKER}`));
    const plain = tracking(api, undefined);
    await plain.start();
    expect(plain.id).not.toBe(301);
    expect(api.edits).toEqual([]);
    expect(api.comments.size).toBe(1);
  });

  it('keeps the earlier state hidden in the comment until a report brings its own', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(comment(401, BOT, `report 1\n\n${STATE}\n\n${TRACKING_MARKER}`));
    const failing = tracking(api, BOT);
    await failing.start();
    failing.update({ turn: 1, contextTokens: 10, compactions: 0, costUsd: 0, activity: 'bash' }, true);
    // A fault report carries no state: the earlier one stays, so the next follow-up can continue.
    await failing.finish('❌ preparing the work failed', { replacedByReport: false });
    expect(api.edits.map((edit) => edit.body.includes(STATE))).toEqual([true, true, true]);

    const api2 = new MemoryGitHub();
    api2.threadComments.push(comment(402, BOT, `report 1\n\n${STATE}\n\n${TRACKING_MARKER}`));
    const succeeding = tracking(api2, BOT);
    await succeeding.start();
    const ownState = '<!-- compact-agent-state:v1 bmV3 -->';
    await succeeding.finish('report 2', { replacedByReport: true, state: ownState });
    expect(api2.edits.at(-1)!.body).toBe(`report 2\n\n${ownState}\n\n${TRACKING_MARKER}`);
  });

  it('keeps the earlier state for a fault report whatever hidden-comment text the report quotes', async () => {
    // A patch is shown byte for byte in a fence, so a raw `<!--` from the model's edit reaches the
    // report; it must not pass for the report's own state and drop the earlier one.
    const fault = renderReport({
      result: runResult({
        stopReason: 'error_during_execution',
        summary: `Done ${TRACKING_MARKER} ${STATE}`
      }),
      runUrl: 'https://run/2',
      changes: {
        kind: 'patch',
        reason: 'the push failed',
        diffStat: ' README.md | 1 +',
        patch: `+${TRACKING_MARKER}\n+<!-- compact-agent-state:v1 bm90IG1pbmU= -->`
      },
      artifact: { kind: 'failed', error: 'the run failed before this step' },
      transcriptDir: '.transcripts/2'
    });
    expect(fault).toContain('<!--');
    for (const report of [fault, `❌ failed; the summary said ${TRACKING_MARKER} and <!-- anything -->`]) {
      const api = new MemoryGitHub();
      api.threadComments.push(comment(411, BOT, `report 1\n\n${STATE}\n\n${TRACKING_MARKER}`));
      const failing = tracking(api, BOT);
      await failing.start();
      await failing.finish(report, { replacedByReport: false });
      // The markers the report quotes are defused (hidden-markers.ts): the earlier state is the only one.
      const body = api.edits.at(-1)!.body;
      expect(body).toBe(`${defuseMarkers(report)}\n\n${STATE}\n\n${TRACKING_MARKER}`);
      expect(body.match(/compact-agent-state/g)).toHaveLength(1);
      expect(body.match(/compact-agent-tracking/g)).toHaveLength(1);
    }
  });

  it("replaces the earlier state with a run's report even when the report holds no hidden block", async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(comment(412, BOT, `report 1\n\n${STATE}\n\n${TRACKING_MARKER}`));
    const sticky = tracking(api, BOT);
    await sticky.start();
    await sticky.finish('report 2, whose state could not be embedded', { replacedByReport: true });
    expect(api.edits.at(-1)!.body).toBe(`report 2, whose state could not be embedded\n\n${TRACKING_MARKER}`);
  });

  it('carries only the hidden blocks outside code: a `<!--` in a shown patch does not swallow the state', async () => {
    const earlier = renderReport({
      result: runResult(),
      runUrl: 'https://run/1',
      changes: {
        kind: 'patch',
        reason: 'the push failed',
        diffStat: ' page.html | 1 +',
        patch: `+<!-- a comment the model opened\n${'+x\n'.repeat(16_000)}`
      },
      artifact: { kind: 'failed', error: 'not uploaded' },
      transcriptDir: '.transcripts/1',
      reserveChars: STATE.length + 2
    });
    const api = new MemoryGitHub();
    api.threadComments.push(comment(413, BOT, `${earlier}\n\n${STATE}\n\n${TRACKING_MARKER}`));
    const failing = tracking(api, BOT);
    await failing.start();
    await failing.finish('❌ preparing the work failed', { replacedByReport: false });
    expect(api.edits.at(-1)!.body).toBe(`❌ preparing the work failed\n\n${STATE}\n\n${TRACKING_MARKER}`);
  });

  it('drops the earlier state rather than make a long report too long for GitHub', async () => {
    const api = new MemoryGitHub();
    const bigState = `<!-- compact-agent-state:v1 ${'A'.repeat(24_000)} -->`;
    api.threadComments.push(comment(601, BOT, `report 1\n\n${bigState}\n\n${TRACKING_MARKER}`));
    const sticky = tracking(api, BOT);
    await sticky.start();
    expect(api.edits[0]!.body).toContain(bigState);
    const longFaultReport = `❌ failed after the turns\n\n${'x'.repeat(60_000)}`;
    await sticky.finish(longFaultReport, { replacedByReport: false });
    const last = api.edits.at(-1)!.body;
    expect(last.length).toBeLessThanOrEqual(65_536);
    expect(last).toBe(`${longFaultReport}\n\n${TRACKING_MARKER}`);
  });

  it('posts a new comment when the earlier one cannot be edited, and says why', async () => {
    const api = new MemoryGitHub();
    api.threadComments.push(comment(501, BOT, `old\n\n${TRACKING_MARKER}`));
    api.failing.add('updateComment');
    const warnings: string[] = [];
    const sticky = tracking(api, BOT, warnings);
    await sticky.start();
    expect(sticky.reused).toBe(false);
    expect(api.comments.size).toBe(1);
    expect(sticky.id).not.toBe(501);
    expect(warnings[0]).toContain('Could not reuse the earlier report comment 501');
  });
});
