/** review_on_pull_request: which pull_request events start a review, on GitHub's own example payloads. */
import { parseEvent } from '../../src/github/events/event.js';
import { decideTrigger, type TriggerSettings } from '../../src/github/events/trigger.js';
import { webhookExample } from '../support/webhook-examples.js';

const settings: TriggerSettings = {
  triggerPhrase: '/agent',
  labelTrigger: undefined,
  assigneeTrigger: undefined,
  botLogin: 'github-actions[bot]',
  prompt: undefined,
  reviewOnPullRequest: true
};

/** A same-repository, non-draft pull request event as GitHub sends it for `action`. */
function pullRequestEvent(action: string, change?: (pull: Record<string, unknown>) => void) {
  const payload = webhookExample('pull_request', action);
  const pull = payload.pull_request as Record<string, unknown> & { head: { repo: { full_name: string } } };
  pull.head.repo.full_name = (payload.repository as { full_name: string }).full_name;
  pull.draft = false;
  change?.(pull);
  return parseEvent('pull_request', payload);
}

it.each(['opened', 'synchronize', 'reopened', 'ready_for_review'])('reviews pull_request.%s', (action) => {
  expect(decideTrigger(pullRequestEvent(action), settings)).toEqual({ run: true, task: 'review' });
});

it('starts nothing while review_on_pull_request is off, and says which input turns it on', () => {
  const decision = decideTrigger(pullRequestEvent('opened'), { ...settings, reviewOnPullRequest: false });
  expect(decision).toEqual({
    run: false,
    reason: expect.stringContaining('only when review_on_pull_request is true') as string
  });
});

it.each(['closed', 'labeled', 'assigned'])('skips pull_request.%s: no new code', (action) => {
  const decision = decideTrigger(pullRequestEvent(action), settings);
  expect(decision.run).toBe(false);
  expect(!decision.run && decision.reason).toContain(`pull_request.${action} brings no new code to review`);
});

it('skips a draft until it is marked ready', () => {
  const decision = decideTrigger(
    pullRequestEvent('opened', (pull) => (pull.draft = true)),
    settings
  );
  expect(!decision.run && decision.reason).toMatch(/is a draft; it is reviewed once marked ready/);
});

it("skips a fork's pull request and says how a maintainer reviews it instead", () => {
  const event = pullRequestEvent('opened', (pull) => {
    (pull.head as { repo: { full_name: string } }).repo.full_name = 'stranger/Hello-World';
  });
  const decision = decideTrigger(event, settings);
  expect(!decision.run && decision.reason).toMatch(
    /fork stranger\/Hello-World, and GitHub gives a fork's pull_request runs no secrets; a maintainer can comment \/agent review/
  );
});

it("skips the action's own pushes", () => {
  const payload = webhookExample('pull_request', 'synchronize');
  const pull = payload.pull_request as { head: { repo: { full_name: string } }; draft: boolean };
  pull.head.repo.full_name = (payload.repository as { full_name: string }).full_name;
  pull.draft = false;
  (payload.sender as { login: string }).login = 'github-actions[bot]';
  const decision = decideTrigger(parseEvent('pull_request', payload), settings);
  expect(!decision.run && decision.reason).toBe('the push is by this action itself');
});

it('names the field of a malformed pull_request payload', () => {
  expect(() => parseEvent('pull_request', { action: 'opened', pull_request: { number: 'x' } })).toThrow(
    /The pull_request event payload is not valid: pull_request\.number/
  );
});

it('refuses pull_request_target, and says why and what to use instead', () => {
  const payload = webhookExample('pull_request', 'opened');
  const decision = decideTrigger(parseEvent('pull_request_target', payload), settings);
  expect(!decision.run && decision.reason).toMatch(
    /^compact-agent does not run on pull_request_target: .*secrets.*pull_request \(review_on_pull_request\).*\/agent review comment$/
  );
});
