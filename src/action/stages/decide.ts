import * as core from '@actions/core';
import { InputError } from '../../config/inputs.js';
import { errorMessage } from '../../errors/error-message.js';
import { readRegularFile } from '../../files/bounded-file.js';
import { MAX_PROMPT_FILE_BYTES } from '../../files/prompt-file-limit.js';
import { decideTrigger, type TriggerDecision } from '../../github/events/trigger.js';
import { Workspace } from '../../tools/workspace.js';
import { publishOutputs } from '../outputs.js';
import type { ActionContext } from './action-context.js';

export type Decision = Extract<TriggerDecision, { run: true }>;

/**
 * Whether the event asks for the agent, and what it asks, with the validated inputs (the trigger
 * phrase, labels, assignees, the prompt or prompt_file). Undefined when it does not: skipped.
 */
export async function decide(action: ActionContext): Promise<Decision | undefined> {
  const { config, runner } = action;
  const settings = config.github;
  const prompt =
    config.agent.prompt ??
    (settings.promptFile ? await readPromptFile(runner.workspace, settings.promptFile) : undefined);
  const decision = decideTrigger(action.event, {
    triggerPhrase: settings.triggerPhrase,
    labelTrigger: settings.labelTrigger,
    assigneeTrigger: settings.assigneeTrigger,
    botLogin: settings.botName,
    prompt,
    reviewOnPullRequest: settings.reviewOnPullRequest
  });
  if (decision.run) return decision;
  core.info(`compact-agent skipped: ${decision.reason}.`);
  publishOutputs({ conclusion: 'skipped', noChangeReason: `skipped: ${decision.reason}` });
  return undefined;
}

async function readPromptFile(workspace: string, file: string): Promise<string> {
  try {
    // Inside the workspace and a regular file only: a link the checked-out repository holds could
    // name a runner file outside it (whose text would go to the model), a FIFO or /dev/zero.
    const inside = new Workspace(workspace).resolveForRead(file);
    const text = (await readRegularFile(inside, MAX_PROMPT_FILE_BYTES)).toString('utf8').trim();
    if (text === '') throw new Error('it is empty');
    return text;
  } catch (error) {
    throw new InputError([`prompt_file ${file} could not be used: ${errorMessage(error)}`]);
  }
}
