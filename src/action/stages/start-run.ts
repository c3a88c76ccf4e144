import { githubClientsOf } from './github-clients.js';
import { botIdentity } from '../../github/events/bot-author.js';
import type { ThreadComment } from '../../github/api/github-api.js';
import { extractState } from '../../followup/carried-state.js';
import { claimsOnThread } from '../duplicate-trigger.js';
import { startOnThread, type RunStart } from '../../followup/start-on-thread.js';
import { workflowStateCheck } from '../../followup/state-check.js';
import { ownWorkflowOrigin, type StateOrigin } from '../../followup/workflow-origin.js';
import { pullRequestNumberOf, repositoryOf } from '../event-parts.js';
import type { AcceptedRequest, ActionContext } from './action-context.js';

/** One origin check per action run (keyed by its runner), so the queue, the follow-up and the sticky comment share its lookups. */
const origins = new WeakMap<object, StateOrigin>();

/**
 * Whether a state or claim on a thread was written by a run of this workflow: the trust root is this
 * workflow, not the bot account (workflow-origin.ts). Its lookups are cached and bounded per run.
 */
export function workflowOriginOf(action: ActionContext): StateOrigin {
  const known = origins.get(action.runner);
  if (known !== undefined) return known;
  const repository = repositoryOf(action.event, action.runner);
  const reads = githubClientsOf(action).workflowRunReads();
  const origin = ownWorkflowOrigin(reads, {
    workflowRef: action.env.GITHUB_WORKFLOW_REF,
    repositoryFullName: `${repository.owner}/${repository.name}`,
    sharedWorkflowFiles: action.config.github.threadWorkflows
  });
  origins.set(action.runner, origin);
  return origin;
}

/**
 * Whether a tracking comment of the bot account is this workflow's own report, for
 * use_sticky_comment: its state names a run of this workflow that uploaded the artifact it names,
 * or (a comment without a state: a run that ended before it had one) its claim names a run of this
 * workflow. Another workflow's comment ending in the marker is never taken over.
 */
export function ownReportCheck(
  action: ActionContext,
  thread: number
): (comment: ThreadComment) => Promise<boolean> {
  const origin = workflowOriginOf(action);
  const botLogin = action.config.github.botName;
  return async (comment) => {
    const extracted = extractState(comment, botLogin);
    if (extracted.kind === 'found') return (await origin.judge(extracted.state)).kind === 'ours';
    if (extracted.kind === 'refused') return false;
    const claim = claimsOnThread([comment], botLogin, thread).at(-1);
    return claim !== undefined && (await origin.judgeRun(claim.run)).kind === 'ours';
  };
}

/**
 * How the run starts: as a follow-up of the previous run on its thread (its state found and
 * trusted), or fresh. Only a comment continues a run (a review's body counts as one: it is a
 * person's words on the thread): a label or an assignment asks afresh.
 */
export async function startRun(action: ActionContext, request: AcceptedRequest): Promise<RunStart> {
  const start = await startOnItsThread(action, request);
  // The claims the queue passed over are named in the report like the states passed over.
  const claims = request.claim?.passedOver;
  if (claims === undefined) return start;
  if (start.previous !== undefined) return { ...start, source: `${start.source ?? ''} It ${claims}.`.trim() };
  return { ...start, refusal: start.refusal === undefined ? claims : `${start.refusal}; ${claims}` };
}

async function startOnItsThread(action: ActionContext, request: AcceptedRequest): Promise<RunStart> {
  const { event, runner } = action;
  const settings = action.config.github;
  const { thread, task } = request;
  if (
    thread === undefined ||
    (event.kind !== 'issue_comment' &&
      event.kind !== 'pull_request_review_comment' &&
      event.kind !== 'pull_request_review' &&
      // A CI fix counts against its pull request's thread budget, and carries its state on.
      event.kind !== 'workflow_run')
  )
    return { task, originalTask: task, request: task, previous: undefined, refusal: undefined };
  const repository = repositoryOf(event, runner);
  const bot = botIdentity(settings.botName, settings.botEmail);
  const pullRequest = pullRequestNumberOf(event);
  const check = workflowStateCheck(workflowOriginOf(action), {
    artifacts: request.artifacts,
    repositoryId: event.repository.id,
    redact: action.redact,
    thread
  });
  return startOnThread(request.api, thread, {
    botLogin: settings.botName,
    check,
    ...(bot.id !== undefined ? { botId: bot.id } : {}),
    repositoryFullName: `${repository.owner}/${repository.name}`,
    task,
    ...(pullRequest !== undefined ? { pullRequest } : {})
  });
}
