import { githubClientsOf } from './github-clients.js';
import * as core from '@actions/core';
import { errorMessage } from '../../errors/error-message.js';
import { withSharedThreadReads } from '../../followup/shared-thread-reads.js';
import type { GitHubApi, ThreadComment } from '../../github/api/github-api.js';
import { queueTimingFor, type QueueTiming } from '../../config/test-switches.js';
import { redactingGitHubApi } from '../../github/api/redacting-api.js';
import { claimStartBody, type TrackingClaim } from '../../github/report/tracking-comment.js';
import type { WorkflowRuns } from '../../github/api/workflow-runs.js';
import {
  claimMarker,
  claimsOnThread,
  earlierLiveClaims,
  judgeDuplicate,
  requestKeyOf,
  type ClaimState,
  type OwnClaim,
  type ThreadClaim
} from '../duplicate-trigger.js';
import { publishOutputs } from '../outputs.js';
import { runUrl } from '../runner-env.js';
import type { AcceptedRequest, ActionContext } from './action-context.js';
import { workflowOriginOf } from './start-run.js';
import type { StateOrigin } from '../../followup/workflow-origin.js';
import { passedOverLine } from '../../followup/previous-run.js';

/**
 * How long a run waits for the runs before it on its thread, and how often it looks. The wait is
 * bounded well below the example workflow's 180-minute job timeout (examples/workflows/agent.yml):
 * a run that gives up can still say so, and one that waited long still has time to work. Tests
 * shorten both (config/test-switches.ts), against a loopback API only.
 */
export const QUEUE_TIMING: QueueTiming = { pollMs: 30_000, maxWaitMs: 80 * 60_000 };

/** The run's turn on its thread: the request with fresh thread reads, and the claim the run holds. */
export interface Turn {
  readonly request: AcceptedRequest;
  readonly claim: TrackingClaim | undefined;
}

/**
 * One run at a time on a thread, in the order they asked, and one run per request. The workflow
 * cannot express either: GitHub keeps one pending run per concurrency group (a third request evicts
 * the second) and delivers an issue opened with the trigger label twice (opened, labeled); a
 * re-run delivers its request again.
 *
 * The run claims its request with a comment (hidden: the request's key, its run and attempt, and
 * "working"), then reads the thread's claims:
 * - the request is served, or being served, by another run or an earlier attempt
 *   (duplicate-trigger.ts): the claim becomes a short note that links that run, and the step succeeds;
 * - runs that claimed before it still go on (the Actions API says whether): it waits for them,
 *   saying so in its claim, up to a bound;
 * - otherwise it is its turn: the claim becomes the run's tracking comment.
 * Undefined when the run ends here. A run whose claim cannot be posted goes on unqueued, as before.
 */
export async function takeTurn(
  action: ActionContext,
  request: AcceptedRequest,
  timing: QueueTiming = queueTiming(action)
): Promise<Turn | undefined> {
  const key = requestKeyOf(action.event);
  const runId = Number(action.runner.runId);
  const attempt = Number(action.runner.runAttempt);
  const thread = request.thread;
  if (thread === undefined || key === undefined) return { request, claim: undefined };
  if (!Number.isSafeInteger(runId) || runId <= 0 || !Number.isSafeInteger(attempt) || attempt <= 0) {
    core.info('Not in a workflow run (no numeric GITHUB_RUN_ID): runs on this thread are not queued.');
    return { request, claim: undefined };
  }
  const api = freshApi(action);
  const url = runUrl(action.runner);
  const marker = (state: ClaimState) => claimMarker({ request: key, run: runId, attempt, state, thread });
  const say = (text: string, state: ClaimState) => `${text} · [workflow run](${url})\n\n${marker(state)}`;
  // The claim starts as the tracking comment would: a run that needs not wait takes it over as it is.
  const start = claimStartBody(url, marker('working'));
  let commentId: number;
  try {
    commentId = (await api.createComment(thread, start)).id;
  } catch (error) {
    core.warning(`Could not claim the request on #${thread} (${errorMessage(error)}); it is not queued.`);
    return { request, claim: undefined };
  }
  const own: OwnClaim = { request: key, run: runId, attempt, commentId };
  const runs = githubClientsOf(action).workflowRuns();
  const botLogin = action.config.github.botName;
  const passed = new PassedOverClaims(botLogin);
  const queue: Queue = { api, runs, thread, own, timing, url, botLogin, over: new Set() };
  const waited = await waitForTurn(
    { ...queue, trusted: (claims) => claimsOfThisWorkflow(claims, own, workflowOriginOf(action), passed) },
    start
  );
  const passedOver = passed.line();
  if (passedOver !== undefined) core.warning(passedOver);
  const edit = (body: string) =>
    api
      .updateComment(commentId, body)
      .catch((error: unknown) => core.warning(`Could not update the claim comment: ${errorMessage(error)}`));
  if (waited.kind === 'duplicate') {
    const note =
      `compact-agent did not start a second run for this request: ${waited.why}, in [workflow run ${waited.servedBy.run}]` +
      `(${runLink(url, waited.servedBy.run)}). To ask for more, comment a new request`;
    core.info(`${note}.`);
    await edit(say(`ℹ️ ${note}`, 'duplicate'));
    publishOutputs({ conclusion: 'skipped', noChangeReason: `skipped: ${waited.why}` });
    return undefined;
  }
  if (waited.kind === 'gave-up') {
    const message =
      `compact-agent waited ${minutes(timing.maxWaitMs)} for ${describeRuns(waited.blocking, url)} ` +
      'on this thread to finish, and gave up. When it has finished, ask again (or cancel it if it hangs)';
    await edit(say(`⚠️ ${message}.`, 'failed'));
    core.setFailed(message);
    publishOutputs({ conclusion: 'failure', noChangeReason: `did not start: ${message}` });
    return undefined;
  }
  // The run goes on with fresh reads of the thread: the runs it waited for have changed it. Without a
  // wait, the listing the queue made is the thread as the run found it (its own claim left out).
  const listed = waited.comments && { issue: thread, comments: waited.comments };
  const next = { ...request, api: withSharedThreadReads(api, listed) };
  return {
    request: next,
    claim: { commentId, body: waited.body, marker, ...(passedOver !== undefined ? { passedOver } : {}) }
  };
}

type Waited =
  /**
   * `body`: what the claim comment says now ('' when unknown, an edit having failed). `comments`:
   * the thread without the claim, when the turn came at the first look (nothing changed it since).
   */
  | { readonly kind: 'turn'; readonly body: string; readonly comments: readonly ThreadComment[] | undefined }
  | { readonly kind: 'duplicate'; readonly servedBy: ThreadClaim; readonly why: string }
  | { readonly kind: 'gave-up'; readonly blocking: readonly ThreadClaim[] };

interface Queue {
  readonly api: GitHubApi;
  readonly runs: WorkflowRuns;
  readonly thread: number;
  readonly own: OwnClaim;
  readonly timing: QueueTiming;
  readonly url: string;
  /** Only the action's own bot's claims count (bot_name). */
  readonly botLogin: string;
  /** Run attempts found over: they stay over. */
  readonly over: Set<string>;
  /** The claims that count: those of runs of this workflow (claimsOfThisWorkflow). */
  readonly trusted?: (claims: readonly ThreadClaim[]) => Promise<ThreadClaim[]>;
}

/** Reads the thread's claims until it is this run's turn, it is a duplicate, or the bound is reached. */
async function waitForTurn(queue: Queue, start: string): Promise<Waited> {
  const { api, thread, own, timing } = queue;
  const started = Date.now();
  let shown = '';
  let body = start;
  for (let look = 1; ; look++) {
    const comments = await api.listComments(thread);
    const onThread = claimsOnThread(comments, queue.botLogin, thread);
    const claims = queue.trusted ? await queue.trusted(onThread) : onThread;
    const live = await liveness(queue, claims);
    const verdict = judgeDuplicate(claims, own, live);
    if (verdict.duplicate) return { kind: 'duplicate', servedBy: verdict.servedBy, why: verdict.why };
    const blocking = earlierLiveClaims(claims, own, live);
    if (blocking.length === 0)
      return {
        kind: 'turn',
        body,
        comments: look === 1 ? comments.filter((comment) => comment.id !== own.commentId) : undefined
      };
    const waitedMs = Date.now() - started;
    if (waitedMs >= timing.maxWaitMs) return { kind: 'gave-up', blocking };
    const progress =
      `⏳ compact-agent has this request, and waits for ${describeRuns(blocking, queue.url)} on this thread ` +
      `to finish first (${Math.floor(waitedMs / 60_000)} min so far; it gives up after ` +
      `${minutes(timing.maxWaitMs)})`;
    if (progress !== shown) {
      shown = progress;
      core.info(progress);
      const next = `${progress} · [workflow run](${queue.url})\n\n${claimMarker({ ...own, state: 'working', thread })}`;
      body = await api.updateComment(own.commentId, next).then(
        () => next,
        (error: unknown) => {
          core.warning(`Could not show the wait: ${errorMessage(error)}`);
          return '';
        }
      );
    }
    await new Promise((resolve) => setTimeout(resolve, timing.pollMs));
  }
}

/**
 * Which `working` claims before this run's still go on: only those can make it wait or yield. An
 * attempt found over stays over (asked once per run); one that cannot be asked counts as live:
 * waiting a little longer is better than two runs at once.
 */
async function liveness(
  queue: Queue,
  claims: readonly ThreadClaim[]
): Promise<(claim: ThreadClaim) => boolean> {
  const { own, over } = queue;
  const ownPosition = claims.find((claim) => claim.commentId === own.commentId)?.position ?? Infinity;
  const live = new Set<string>();
  for (const claim of claims) {
    const id = `${claim.run}-${claim.attempt}`;
    if (claim.state !== 'working' || claim.position >= ownPosition || over.has(id) || live.has(id)) continue;
    const state = await queue.runs.attemptState(claim.run, claim.attempt).catch((error: unknown) => {
      core.warning(`Could not ask GitHub whether run ${claim.run} still goes on: ${errorMessage(error)}`);
      return 'live' as const;
    });
    if (state === 'live') live.add(id);
    else over.add(id);
  }
  return (claim) => live.has(`${claim.run}-${claim.attempt}`);
}

/**
 * The claims that can sway this run (a claim of the same request, or one still `working`) count only
 * when the run they name is a run of this workflow: with the default bot_name every workflow comments
 * as github-actions[bot], and another workflow quoting a reader's text could post a `served` claim
 * (this run would skip its request) or a `working` one (this run would wait). The rest are passed
 * over and named. This run's own claims (any attempt) need no lookup. Other claims (served requests
 * of earlier runs) sway nothing and are not looked up: the lookups are bounded (workflow-origin.ts).
 */
async function claimsOfThisWorkflow(
  claims: readonly ThreadClaim[],
  own: OwnClaim,
  origin: StateOrigin,
  passed: PassedOverClaims
): Promise<ThreadClaim[]> {
  const kept: ThreadClaim[] = [];
  for (const claim of claims) {
    const sways = claim.request === own.request || claim.state === 'working';
    if (claim.run === own.run || !sways) {
      kept.push(claim);
      continue;
    }
    const verdict = await origin.judgeRun(claim.run);
    if (verdict.kind === 'ours') kept.push(claim);
    else passed.add(claim.commentId, verdict.reason);
  }
  return kept;
}

/** Claims passed over while the run waited, each counted once, for one line in the log and the report. */
class PassedOverClaims {
  private readonly comments = new Set<number>();
  private newestReason = '';

  constructor(private readonly login: string) {}

  add(commentId: number, reason: string): void {
    if (!this.comments.has(commentId)) this.newestReason = reason;
    this.comments.add(commentId);
  }

  line(): string | undefined {
    const count = this.comments.size;
    if (count === 0) return undefined;
    return passedOverLine({ login: this.login, count, newestReason: this.newestReason }, 'claim');
  }
}

/** The queue reads and writes the thread directly: the run's shared reads would be stale after a wait. */
function freshApi(action: ActionContext): GitHubApi {
  return redactingGitHubApi(githubClientsOf(action).api(), action.redact);
}

function runLink(ownRunUrl: string, run: number): string {
  return ownRunUrl.replace(/\/actions\/runs\/[^/]+$/, `/actions/runs/${run}`);
}

function describeRuns(claims: readonly ThreadClaim[], url: string): string {
  const links = [...new Set(claims.map((claim) => claim.run))].map(
    (run) => `[workflow run ${run}](${runLink(url, run)})`
  );
  return links.length === 1 ? links[0]! : `${links.length} runs (${links.join(', ')})`;
}

function minutes(ms: number): string {
  const whole = Math.round(ms / 60_000);
  return whole === 1 ? '1 minute' : `${whole} minutes`;
}

function queueTiming(action: ActionContext): QueueTiming {
  return queueTimingFor(action.runner.apiUrl, action.env, QUEUE_TIMING);
}
