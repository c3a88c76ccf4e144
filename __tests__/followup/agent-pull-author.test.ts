import { TRACKING_MARKER } from '../../src/github/markdown/outbound-hidden-markers.js';
import { embedState, type CarriedState } from '../../src/followup/carried-state.js';
import type { StateCheck } from '../../src/followup/state-check.js';
/** Every state counts as proven by its run's artifact here: state-check and workflow-origin tests test that check. */
const OURS: StateCheck = {
  check: (state) => Promise.resolve({ kind: 'verified', state, source: 'Read from its artifact.' })
};
import { startOnThread, type RunStart } from '../../src/followup/start-on-thread.js';
import { botIdentity, isActionBotAccount } from '../../src/github/events/bot-author.js';
import { OctokitGitHubApi } from '../../src/github/api/octokit-api.js';
import {
  ACTIONS_BOT,
  startFakeGitHub,
  stateFromPayload,
  type FakeGitHub,
  type UserSeed
} from '../../test-support/fake-github/index.js';
import { webhookExample } from '../support/webhook-examples.js';

/**
 * A follow-up on a pull request continues the run that opened it only when the action's own Bot
 * account opened it: a PR by a user whose login equals `bot_name`, or by an account with that
 * login but another id, leads nowhere. Real Octokit against the fake GitHub, seeded from the
 * pull_request.opened example of @octokit/webhooks-examples (PR #2 of Codertocat/Hello-World).
 */
const BOT = 'github-actions[bot]';
const DEFAULT_BOT_EMAIL = '41898282+github-actions[bot]@users.noreply.github.com';
const ISSUE = 1;
const redact = (text: string) => text;

let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function previousState(pullRequest: number): CarriedState {
  return {
    version: 1,
    repository: 'Codertocat/Hello-World',
    runId: '41-1',
    runUrl: 'https://github.com/Codertocat/Hello-World/actions/runs/41',
    task: 'Fix the word count.',
    summary: 'Fixed countWords.',
    ledger: 'Stop reason: success',
    recentUserMessages: ['Fix the word count.'],
    branch: 'agent/1-abc123',
    pullRequest,
    artifactId: null,
    costUsd: 0.25,
    previousRuns: []
  };
}

/**
 * PR #2 opened by `author`, its body naming issue #1 as the action's PRs do; issue #1 holds a report
 * whose state names PR #2, posted by the same account (the fake keeps one account per login).
 */
async function pullOpenedBy(author: UserSeed): Promise<{ fake: FakeGitHub; pullNumber: number }> {
  const payload = webhookExample('pull_request', 'opened');
  const pr = payload.pull_request as { number: number; body: string | null; user: Record<string, unknown> };
  pr.body = `For #${ISSUE}, by compact-agent ([run](https://github.com/Codertocat/Hello-World/actions/runs/41)).`;
  pr.user = { ...pr.user, ...author };
  const seed = stateFromPayload(payload);
  const started = await startFakeGitHub({
    ...seed,
    issues: [
      {
        number: ISSUE,
        title: 'The word count is wrong',
        user: 'Codertocat',
        comments: [
          {
            user: author,
            body: `Done.\n\n${embedState(previousState(pr.number), redact)}\n\n${TRACKING_MARKER}`
          }
        ]
      }
    ]
  });
  fake = started;
  return { fake: started, pullNumber: pr.number };
}

async function followUpOnPull(
  github: FakeGitHub,
  pullNumber: number,
  botEmail: string = DEFAULT_BOT_EMAIL
): Promise<RunStart> {
  const api = new OctokitGitHubApi(
    github.token,
    { owner: github.repo.owner, name: github.repo.name },
    github.url
  );
  const bot = botIdentity(BOT, botEmail);
  return startOnThread(api, pullNumber, {
    check: OURS,
    botLogin: BOT,
    ...(bot.id !== undefined ? { botId: bot.id } : {}),
    repositoryFullName: 'Codertocat/Hello-World',
    task: 'also handle negative numbers',
    pullRequest: pullNumber
  });
}

const issueListings = (github: FakeGitHub) =>
  github.requestsTo('GET', new RegExp(`/issues/${ISSUE}/comments$`));

describe('which pull request is the action’s own', () => {
  it('is not one a User opened under a login equal to the bot name', async () => {
    const { fake: github, pullNumber } = await pullOpenedBy({ login: BOT, type: 'User' });
    const start = await followUpOnPull(github, pullNumber);
    expect(start).toMatchObject({ previous: undefined, refusal: undefined });
    // Not treated as the agent's PR: the issue its body names is never even read.
    expect(issueListings(github)).toEqual([]);
  });

  it('is not one a Bot account with the bot name but another id opened', async () => {
    const { fake: github, pullNumber } = await pullOpenedBy({ login: BOT, type: 'Bot', id: 99_999 });
    const start = await followUpOnPull(github, pullNumber);
    expect(start).toMatchObject({ previous: undefined, refusal: undefined });
    expect(issueListings(github)).toEqual([]);
  });

  it("is the real bot's: the follow-up continues the run on the issue the PR was for", async () => {
    const { fake: github, pullNumber } = await pullOpenedBy(ACTIONS_BOT);
    const start = await followUpOnPull(github, pullNumber);
    expect(start.refusal).toBeUndefined();
    expect(start.previous).toMatchObject({ runId: '41-1', pullRequest: pullNumber });
    expect(start.task).toContain('<previous-run');
    expect(issueListings(github)).toHaveLength(1);
  });

  it('checks the type alone when bot_email does not give the bot an id', async () => {
    const { fake: github, pullNumber } = await pullOpenedBy({ login: BOT, type: 'Bot', id: 99_999 });
    const start = await followUpOnPull(github, pullNumber, 'agent@example.com');
    expect(start.previous).toMatchObject({ runId: '41-1', pullRequest: pullNumber });
  });
});

describe('the bot identity', () => {
  it("takes the id from GitHub's noreply address for the same login only", () => {
    expect(botIdentity(BOT, DEFAULT_BOT_EMAIL)).toEqual({ login: BOT, id: 41898282 });
    expect(botIdentity('my-app[bot]', DEFAULT_BOT_EMAIL)).toEqual({ login: 'my-app[bot]' });
    expect(botIdentity(BOT, 'bot@example.com')).toEqual({ login: BOT });
    expect(botIdentity(BOT, '41898282+github-actions[bot]@example.com')).toEqual({ login: BOT });
  });

  it('needs the Bot type and the login, and the id where both sides know it', () => {
    const bot = { login: BOT, id: 41898282 };
    expect(isActionBotAccount({ login: BOT, type: 'Bot', id: 41898282 }, bot)).toBe(true);
    expect(isActionBotAccount({ login: BOT, type: 'Bot' }, bot)).toBe(true);
    expect(isActionBotAccount({ login: BOT, type: 'User', id: 41898282 }, bot)).toBe(false);
    expect(isActionBotAccount({ login: BOT, type: 'Unknown', id: 41898282 }, bot)).toBe(false);
    expect(isActionBotAccount({ login: BOT, type: 'Bot', id: 7 }, bot)).toBe(false);
    expect(isActionBotAccount({ login: 'other[bot]', type: 'Bot', id: 41898282 }, bot)).toBe(false);
  });
});
