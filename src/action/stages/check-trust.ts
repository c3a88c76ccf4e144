import { githubClientsOf } from './github-clients.js';
import * as core from '@actions/core';
import { errorMessage } from '../../errors/error-message.js';
import { withSharedThreadReads } from '../../followup/shared-thread-reads.js';
import { checkActor, permissionsOncePerRun, trustedTask } from '../../github/events/permissions.js';
import { redactingGitHubApi } from '../../github/api/redacting-api.js';
import { actorOf, reactToTrigger, threadOf } from '../event-parts.js';
import { publishOutputs } from '../outputs.js';
import type { AcceptedRequest, ActionContext } from './action-context.js';
import type { Decision } from './decide.js';

/** A task longer than this is refused: it is a paste, not a request; put it in a file instead. */
export const MAX_TASK_CHARS = 20_000;

/**
 * Who asked, and whether they may: the actor needs write access (or is an allowed bot), the task
 * is taken only from people with write access, and it must be a request, not a paste. Undefined
 * when the run ends here, with a reply on the thread that says why.
 */
export async function checkTrust(
  action: ActionContext,
  decision: Decision
): Promise<AcceptedRequest | undefined> {
  const { event } = action;
  const settings = action.config.github;
  const github = githubClientsOf(action).api();
  // The thread's comments and pull request are read once per run, whoever asks (shared-thread-reads.ts).
  const api = withSharedThreadReads(redactingGitHubApi(github, action.redact));
  const thread = threadOf(event, settings.reportIssue);
  const say = async (text: string) => {
    if (thread === undefined) return;
    await api
      .createComment(thread, text)
      .catch((error: unknown) => core.warning(`Could not reply: ${errorMessage(error)}`));
  };
  // Each login's permission is asked once per run: the actor's answer serves the thread context too.
  const permissions = permissionsOncePerRun(api);
  const actor = actorOf(event);
  if (actor) {
    const check = await checkActor(permissions, actor, settings.allowedBots);
    if (!check.allowed) {
      core.info(`compact-agent refused: ${check.reason}.`);
      // A push to a pull request asks for nothing in words: no reply, or a bot's pull request would
      // get one on every push.
      if (event.kind !== 'pull_request') await say(`🚫 compact-agent did not start: ${check.reason}.`);
      publishOutputs({ conclusion: 'refused', noChangeReason: `refused: ${check.reason}` });
      return undefined;
    }
  }
  const task = await trustedTask(decision, permissions, actor, core.info);
  if (task.length > MAX_TASK_CHARS) {
    const message =
      `The request is ${task.length.toLocaleString('en-US')} characters long; compact-agent takes at most ` +
      `${MAX_TASK_CHARS.toLocaleString('en-US')}. Put long material in a file in the repository and refer to it.`;
    await say(`⚠️ compact-agent did not start. ${message}`);
    core.setFailed(message);
    publishOutputs({ conclusion: 'failure', noChangeReason: `did not start: ${message}` });
    return undefined;
  }
  await reactToTrigger(event, api);
  return { task, api, artifacts: github, thread, permissions };
}
