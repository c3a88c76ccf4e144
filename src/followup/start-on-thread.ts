import { isActionBotAccount } from '../github/events/bot-author.js';
import type { GitHubApi } from '../github/api/github-api.js';
import type { ThreadRecord } from '../transcript/events.js';
import { requestsSoFar, type CarriedState } from './carried-state.js';
import { findPreviousRun, followUpRequest, passedOverLine, type PreviousRun } from './previous-run.js';
import type { StateCheck } from './state-check.js';
import { resumeTask } from './resume-task.js';
import { errorMessage } from '../errors/error-message.js';

/** How a run starts: fresh, or as a follow-up of the previous run on its thread. */
export interface RunStart {
  /** The first message's task: the request as it is, or the resume task of a follow-up. */
  readonly task: string;
  /** The thread's original task, carried on to the next run. */
  readonly originalTask: string;
  /** What the person asked in this run. */
  readonly request: string;
  readonly previous: CarriedState | undefined;
  /** Why a state that was found is not used (the report says the run started fresh, and why). */
  readonly refusal: string | undefined;
  /** For a follow-up: one sentence for the report on where the previous run's state came from. */
  readonly source?: string;
  /**
   * What the thread's earlier runs cost in all, as far as their states can be trusted (see
   * findPreviousRun): at least the previous run's total. Absent where no thread was read.
   */
  readonly spentUsd?: number;
  /**
   * Why what the thread spent so far is not known (the thread or a run it names could not be read):
   * the thread's budget cannot be applied, so no run starts.
   */
  readonly spendUnknown?: string;
  /** True when that is because GitHub did not answer: a fault, which fails the step, not a refusal. */
  readonly spendLookupFailed?: boolean;
}

/** What the run's transcript records of its thread: the original task and the requests so far. */
export function threadRecordOf(start: RunStart): ThreadRecord {
  return { original_task: start.originalTask, requests: requestsSoFar(start.previous, start.request) };
}

/**
 * The same start for another request text, from what was already read of the thread (its comments,
 * the previous run's artifact): nothing is read again.
 */
export function restartWith(start: RunStart, task: string): RunStart {
  if (start.previous === undefined) return { ...start, task, originalTask: task, request: task };
  const { request } = followUpRequest(task);
  return { ...start, task: resumeTask(start.previous, request), request };
}

/**
 * Looks for the previous run on the thread. Found: the task becomes the resume task (the previous
 * run as data, the request as the instruction). `/agent continue` with nothing to continue, a
 * state refused, or a thread that cannot be read: a fresh run with the request as the task.
 */
export async function startOnThread(
  api: GitHubApi,
  thread: number,
  options: {
    readonly botLogin: string;
    /** The bot's numeric user id, when known (see botIdentity): a PR's author must have it too. */
    readonly botId?: number;
    readonly repositoryFullName: string;
    readonly task: string;
    /** Set when the thread is a pull request: the action's own PR leads to the issue it was for. */
    readonly pullRequest?: number;
    /** Whether a state was written by a run of this workflow, as its artifact proves (state-check.ts). */
    readonly check: StateCheck;
  }
): Promise<RunStart> {
  const { explicit, request } = followUpRequest(options.task);
  const fresh = (refusal: string | undefined): RunStart => ({
    task: options.task,
    originalTask: options.task,
    request: options.task,
    previous: undefined,
    refusal
  });
  let found: PreviousRun;
  try {
    found = await findPreviousRun(api, thread, options.botLogin, options.repositoryFullName, options.check);
    if (found.kind === 'none' && options.pullRequest !== undefined)
      found = await previousRunOfAgentPullRequest(api, options.pullRequest, options, found);
  } catch (error) {
    const reason = `the earlier run on this thread could not be looked up (${errorMessage(error)}); to continue it, comment again once GitHub answers`;
    return { ...fresh(reason), spendUnknown: reason, spendLookupFailed: true };
  }
  const passed = found.passedOver && passedOverLine(found.passedOver);
  const withPassed = (reason: string | undefined) =>
    passed === undefined ? reason : reason === undefined ? passed : `${reason}; ${passed}`;
  const spend = {
    spentUsd: found.spentUsd,
    ...(found.spendUnknown !== undefined ? { spendUnknown: found.spendUnknown } : {})
  };
  if (found.kind === 'refused') return { ...fresh(withPassed(found.reason)), ...spend };
  if (found.kind === 'none')
    return {
      ...fresh(
        withPassed(
          explicit ? `there is no earlier run of compact-agent on this thread to continue` : undefined
        )
      ),
      ...spend
    };
  const { state, source } = found;
  return {
    task: resumeTask(state, request),
    originalTask: state.task,
    request,
    previous: state,
    refusal: undefined,
    source: passed === undefined ? source : `${source} It ${passed}.`,
    ...spend
  };
}

/**
 * A comment on a pull request the action opened: the run that opened it reported on the issue the
 * PR's first line names. Trusted only when the bot's own account opened the PR (its type is `Bot`,
 * and its id matches when known: a user may hold a login equal to `bot_name`) and that run's state
 * (in the bot's own comment) names this very PR.
 */
async function previousRunOfAgentPullRequest(
  api: GitHubApi,
  pullNumber: number,
  options: {
    readonly botLogin: string;
    readonly botId?: number;
    readonly repositoryFullName: string;
    readonly check: StateCheck;
  },
  /** What the pull request's own thread gave: nothing, perhaps with comments passed over. */
  onThread: PreviousRun
): Promise<PreviousRun> {
  const pull = await api.getPullRequest(pullNumber);
  const bot = { login: options.botLogin, id: options.botId };
  if (pull.author === undefined || !isActionBotAccount(pull.author, bot)) return onThread;
  const issue = /^For #(\d+), by compact-agent/.exec(pull.body)?.[1];
  if (issue === undefined || Number(issue) === pullNumber) return onThread;
  const found = await findPreviousRun(
    api,
    Number(issue),
    options.botLogin,
    options.repositoryFullName,
    options.check
  );
  const passedOver = found.passedOver ?? onThread.passedOver;
  // Both threads' states count towards the spend: the issue's, and any the pull request's own holds.
  const spendUnknown = found.spendUnknown ?? onThread.spendUnknown;
  const spend = {
    spentUsd: Math.max(found.spentUsd, onThread.spentUsd),
    ...(spendUnknown !== undefined ? { spendUnknown } : {}),
    ...(passedOver ? { passedOver } : {})
  };
  if (found.kind === 'found' && found.state.pullRequest !== pullNumber)
    return {
      kind: 'refused',
      reason: `the latest run on #${issue} is about pull request #${found.state.pullRequest ?? 'none'}, not #${pullNumber}`,
      ...spend
    };
  return { ...found, ...spend };
}
