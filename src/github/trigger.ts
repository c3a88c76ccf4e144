import type { ActionEvent } from './event.js';

export interface TriggerSettings {
  readonly triggerPhrase: string;
  readonly labelTrigger: string | undefined;
  readonly assigneeTrigger: string | undefined;
  /** The login the action comments as: its own comments never start a run. */
  readonly botLogin: string;
  /** The `prompt` input (or the content of `prompt_file`), for dispatched and scheduled runs. */
  readonly prompt: string | undefined;
}

export type TriggerDecision =
  { readonly run: true; readonly task: string } | { readonly run: false; readonly reason: string };

const BARE_PHRASE_TASK = 'Do what this issue asks.';

/** Decides whether the event starts a run, and with which task. Pure: the event and the settings only. */
export function decideTrigger(event: ActionEvent, settings: TriggerSettings): TriggerDecision {
  switch (event.kind) {
    case 'issue_comment':
    case 'pull_request_review_comment': {
      if (event.action !== 'created') return skip(`the comment was ${event.action}, not created`);
      if (event.comment.user.login === settings.botLogin) return skip('the comment is by this action itself');
      const task = taskAfterPhrase(event.comment.body, settings.triggerPhrase);
      return task === undefined
        ? skip(`the comment does not contain ${settings.triggerPhrase}`)
        : { run: true, task };
    }
    case 'issues':
      return decideIssue(event, settings);
    case 'workflow_dispatch':
    case 'schedule':
      return settings.prompt
        ? { run: true, task: settings.prompt }
        : skip(`a ${event.kind} run needs the prompt or prompt_file input`);
    case 'other':
      return skip(`the ${event.name} event does not start the agent`);
  }
}

function decideIssue(
  event: Extract<ActionEvent, { kind: 'issues' }>,
  settings: TriggerSettings
): TriggerDecision {
  const issueTask = `${event.issue.title}\n\n${event.issue.body}`.trim();
  switch (event.action) {
    case 'opened':
    case 'edited': {
      const task = taskAfterPhrase(event.issue.body, settings.triggerPhrase);
      if (task === undefined) return skip(`the issue body does not contain ${settings.triggerPhrase}`);
      return { run: true, task: task === BARE_PHRASE_TASK ? issueTask : task };
    }
    case 'labeled':
      if (!settings.labelTrigger) return skip('no label_trigger is set');
      return event.label === settings.labelTrigger
        ? { run: true, task: issueTask }
        : skip(`the label is not ${settings.labelTrigger}`);
    case 'assigned':
      if (!settings.assigneeTrigger) return skip('no assignee_trigger is set');
      return event.assignee === settings.assigneeTrigger
        ? { run: true, task: issueTask }
        : skip(`the assignee is not ${settings.assigneeTrigger}`);
    default:
      return skip(`issues.${event.action} does not start the agent`);
  }
}

/**
 * The text after the trigger phrase, where the phrase stands as a word of its own (`/agent` but not
 * `/agents` or `x/agent`). A bare phrase asks for what the issue says.
 */
export function taskAfterPhrase(body: string, phrase: string): string | undefined {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(^|\\s)${escaped}(?=\\s|$)`).exec(body);
  if (!match) return undefined;
  const rest = body.slice(match.index + match[0].length).trim();
  return rest === '' ? BARE_PHRASE_TASK : rest;
}

function skip(reason: string): TriggerDecision {
  return { run: false, reason };
}
