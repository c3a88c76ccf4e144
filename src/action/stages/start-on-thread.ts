import { botIdentity } from '../../github/bot-author.js';
import { startOnThread, type RunStart } from '../../followup/follow-up.js';
import { ownWorkflowOrigin } from '../../followup/workflow-origin.js';
import { OctokitWorkflowRunReads } from '../../github/workflow-runs.js';
import { pullRequestNumberOf, repositoryOf } from '../event-parts.js';
import type { AcceptedRequest, ActionContext } from './action-context.js';

/**
 * How the run starts: as a follow-up of the previous run on its thread (its state found and
 * trusted), or fresh. Only a comment continues a run (a review's body counts as one: it is a
 * person's words on the thread): a label or an assignment asks afresh.
 */
export async function startRun(action: ActionContext, request: AcceptedRequest): Promise<RunStart> {
  const { event, runner } = action;
  const settings = action.config.github;
  const { thread, task } = request;
  if (
    thread === undefined ||
    (event.kind !== 'issue_comment' &&
      event.kind !== 'pull_request_review_comment' &&
      event.kind !== 'pull_request_review')
  )
    return { task, originalTask: task, request: task, previous: undefined, refusal: undefined };
  const repository = repositoryOf(event, runner);
  const bot = botIdentity(settings.botName, settings.botEmail);
  const pullRequest = pullRequestNumberOf(event);
  const repositoryFullName = `${repository.owner}/${repository.name}`;
  // The trust root is this workflow, not the bot account (workflow-origin.ts).
  const reads = new OctokitWorkflowRunReads(settings.token, repository, runner.apiUrl, {
    logger: { warning: action.commands.warning }
  });
  const origin = ownWorkflowOrigin(reads, {
    workflowRef: action.env.GITHUB_WORKFLOW_REF,
    repositoryFullName
  });
  return startOnThread(request.api, thread, {
    botLogin: settings.botName,
    origin,
    ...(bot.id !== undefined ? { botId: bot.id } : {}),
    repositoryFullName,
    task,
    redact: action.redact,
    artifacts: request.artifacts,
    ...(event.repository.id !== undefined ? { repositoryId: event.repository.id } : {}),
    ...(pullRequest !== undefined ? { pullRequest } : {})
  });
}
