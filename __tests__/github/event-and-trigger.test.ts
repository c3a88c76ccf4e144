import { MalformedEventError, parseEvent } from '../../src/github/events/event.js';
import { decideTrigger, taskAfterPhrase, type TriggerSettings } from '../../src/github/events/trigger.js';
import { webhookExample } from '../support/webhook-examples.js';

const settings: TriggerSettings = {
  triggerPhrase: '/agent',
  labelTrigger: 'agent',
  assigneeTrigger: 'agent-bot',
  botLogin: 'github-actions[bot]',
  prompt: undefined,
  reviewOnPullRequest: false
};

function commentEvent(body: string, action = 'created') {
  const payload = webhookExample('issue_comment', action);
  (payload.comment as { body: string }).body = body;
  return parseEvent('issue_comment', payload);
}

describe('parseEvent on real webhook payloads', () => {
  it('reads an issue comment', () => {
    const event = parseEvent('issue_comment', webhookExample('issue_comment', 'created'));
    expect(event).toMatchObject({
      kind: 'issue_comment',
      action: 'created',
      repository: {
        owner: 'Codertocat',
        name: 'Hello-World',
        fullName: 'Codertocat/Hello-World',
        defaultBranch: 'master'
      },
      issue: { number: 1, isPullRequest: false },
      comment: { user: { login: 'Codertocat', type: 'User' } }
    });
  });

  it('reads a review comment with its path, line and hunk', () => {
    const event = parseEvent(
      'pull_request_review_comment',
      webhookExample('pull_request_review_comment', 'created')
    );
    if (event.kind !== 'pull_request_review_comment') throw new Error(event.kind);
    expect(event.pullRequest).toMatchObject({
      number: 2,
      headRef: 'changes',
      baseRef: 'master',
      headRepoFullName: 'Codertocat/Hello-World'
    });
    expect(event.comment.path).toBe('README.md');
    expect(event.comment.diffHunk).toContain('@@');
  });

  it('reads labeled and assigned issues, and a dispatch', () => {
    expect(parseEvent('issues', webhookExample('issues', 'labeled'))).toMatchObject({
      kind: 'issues',
      label: 'bug'
    });
    expect(parseEvent('issues', webhookExample('issues', 'assigned'))).toMatchObject({
      kind: 'issues',
      assignee: 'Codertocat'
    });
    expect(parseEvent('workflow_dispatch', webhookExample('workflow_dispatch'))).toMatchObject({
      kind: 'workflow_dispatch'
    });
    expect(parseEvent('schedule', { schedule: '0 3 * * 1' })).toEqual({
      kind: 'schedule',
      repository: undefined,
      sender: undefined
    });
  });

  it('refuses a malformed payload with the field that is wrong', () => {
    const payload = webhookExample('issue_comment', 'created');
    (payload.issue as { number: unknown }).number = 'one';
    expect(() => parseEvent('issue_comment', payload)).toThrow(MalformedEventError);
    expect(() => parseEvent('issue_comment', payload)).toThrow(/issue\.number: .*number/);
    expect(() => parseEvent('issue_comment', {})).toThrow(/not valid/);
  });
});

describe('decideTrigger', () => {
  it('takes the text after the phrase as the task; a bare phrase means "do what the issue asks"', () => {
    expect(decideTrigger(commentEvent('Please /agent fix the flaky test\nin utils'), settings)).toEqual({
      run: true,
      task: 'fix the flaky test\nin utils'
    });
    expect(decideTrigger(commentEvent('/agent'), settings)).toEqual({
      run: true,
      task: 'Do what this issue asks.'
    });
    expect(taskAfterPhrase('see /agents or x/agent here', '/agent')).toBeUndefined();
  });

  it('skips edited and deleted comments, comments without the phrase, and its own comments', () => {
    expect(decideTrigger(commentEvent('/agent go', 'edited'), settings)).toEqual({
      run: false,
      reason: 'the comment was edited, not created'
    });
    expect(decideTrigger(commentEvent('/agent go', 'deleted'), settings)).toMatchObject({ run: false });
    expect(decideTrigger(commentEvent('looks good'), settings)).toEqual({
      run: false,
      reason: 'the comment does not contain /agent outside quotes and code'
    });
    const own = webhookExample('issue_comment', 'created');
    (own.comment as { body: string; user: { login: string; type: string } }).body = '/agent loop';
    (own.comment as { user: { login: string; type: string } }).user = {
      login: 'github-actions[bot]',
      type: 'Bot'
    };
    expect(decideTrigger(parseEvent('issue_comment', own), settings)).toEqual({
      run: false,
      reason: 'the comment is by this action itself'
    });
  });

  it('starts on the trigger label and assignee, with the issue as the task', () => {
    const labeled = webhookExample('issues', 'labeled');
    (labeled.label as { name: string }).name = 'agent';
    const decision = decideTrigger(parseEvent('issues', labeled), settings);
    expect(decision).toMatchObject({
      run: true,
      task: expect.stringContaining('Spelling error in the README file')
    });
    expect(decideTrigger(parseEvent('issues', webhookExample('issues', 'labeled')), settings)).toEqual({
      run: false,
      reason: 'the label is not agent'
    });
    const assigned = webhookExample('issues', 'assigned');
    (assigned.assignee as { login: string }).login = 'agent-bot';
    expect(decideTrigger(parseEvent('issues', assigned), settings)).toMatchObject({ run: true });
  });

  it('runs a dispatch or schedule only with a prompt, and skips other events', () => {
    const dispatch = parseEvent('workflow_dispatch', webhookExample('workflow_dispatch'));
    expect(decideTrigger(dispatch, settings)).toEqual({
      run: false,
      reason: 'a workflow_dispatch run needs the prompt or prompt_file input'
    });
    expect(decideTrigger(dispatch, { ...settings, prompt: 'Refactor utils' })).toEqual({
      run: true,
      task: 'Refactor utils'
    });
    // The skip says what would start a run, and what to change in the workflow.
    expect(decideTrigger(parseEvent('push', {}), settings)).toEqual({
      run: false,
      reason: expect.stringMatching(
        /^the push event does not start the agent \(it starts on .*pull_request_review,.*\); remove it from the workflow's on: block/
      )
    });
  });

  it('says which input to set when a label or an assignment meets no trigger input', () => {
    const unset = { ...settings, labelTrigger: undefined, assigneeTrigger: undefined };
    expect(decideTrigger(parseEvent('issues', webhookExample('issues', 'labeled')), unset)).toEqual({
      run: false,
      reason:
        'the issue was labeled, but no label_trigger is set: set the input label_trigger to the label that should start a run'
    });
    expect(decideTrigger(parseEvent('issues', webhookExample('issues', 'assigned')), unset)).toMatchObject({
      run: false,
      reason: expect.stringContaining('set the input assignee_trigger')
    });
  });
});

function reviewEvent(body: string | null, action = 'submitted', login = 'Codertocat') {
  const payload = webhookExample('pull_request_review', action);
  const review = payload.review as { body: string | null; user: { login: string; type: string } };
  review.body = body;
  review.user = { ...review.user, login };
  return parseEvent('pull_request_review', payload);
}

describe('a submitted pull request review', () => {
  it('is read from the real payload: the PR, and the review as the request', () => {
    const event = parseEvent('pull_request_review', webhookExample('pull_request_review', 'submitted'));
    if (event.kind !== 'pull_request_review') throw new Error(event.kind);
    expect(event).toMatchObject({
      action: 'submitted',
      repository: { fullName: 'Codertocat/Hello-World' },
      pullRequest: {
        number: 2,
        headRef: 'changes',
        baseRef: 'master',
        headRepoFullName: 'Codertocat/Hello-World'
      },
      review: { id: 237895671, body: '', state: 'commented', user: { login: 'Codertocat', type: 'User' } },
      sender: { login: 'Codertocat' }
    });
  });

  it('refuses a malformed review where it enters, naming the field', () => {
    const payload = webhookExample('pull_request_review', 'submitted');
    delete (payload.review as Record<string, unknown>).state;
    expect(() => parseEvent('pull_request_review', payload)).toThrow(/review\.state/);
  });

  it('starts a run with the text after the phrase, like a comment', () => {
    expect(decideTrigger(reviewEvent('Nearly there. /agent rename `x` to `count`'), settings)).toEqual({
      run: true,
      task: 'rename `x` to `count`'
    });
  });

  it('skips a review without the phrase (or without a body), an edited or dismissed one, and its own', () => {
    expect(decideTrigger(reviewEvent('LGTM'), settings)).toEqual({
      run: false,
      reason: 'the review body does not contain /agent outside quotes and code'
    });
    expect(decideTrigger(reviewEvent(null), settings)).toMatchObject({ run: false });
    expect(decideTrigger(reviewEvent('> /agent quoted'), settings)).toMatchObject({ run: false });
    expect(decideTrigger(reviewEvent('/agent go', 'dismissed'), settings)).toEqual({
      run: false,
      reason: 'the review was dismissed, not submitted'
    });
    const edited = { ...reviewEvent('/agent go'), action: 'edited' } as const;
    expect(decideTrigger(edited, settings)).toEqual({
      run: false,
      reason: 'the review was edited, not submitted'
    });
    expect(decideTrigger(reviewEvent('/agent go', 'submitted', 'github-actions[bot]'), settings)).toEqual({
      run: false,
      reason: 'the review is by this action itself'
    });
  });
});
