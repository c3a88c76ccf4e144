import { isActionBotComment } from '../github/events/bot-author.js';
import type { GitHubApi, ThreadComment } from '../github/api/github-api.js';
import { TRACKING_MARKER } from '../github/markdown/outbound-hidden-markers.js';
import { runIdParts } from './artifact-state.js';
import { extractState, type CarriedState } from './carried-state.js';
import type { StateCheck } from './state-check.js';
import { numericRunId } from './workflow-origin.js';
import { threadSpentUsd } from './thread-budget.js';

/**
 * Comments by the bot account that hold a state block, yet no run of this workflow provably wrote
 * (another workflow commenting as the same account, a state that does not read, or one whose
 * artifact cannot prove it): passed over like a stranger's. The report names them in one line
 * (passedOverLine).
 */
export interface PassedOver {
  readonly login: string;
  readonly count: number;
  /** Why the newest of them was passed over. */
  readonly newestReason: string;
}

/** What the thread has spent before this run, as far as it can be known (see findPreviousRun). */
export interface ThreadSpend {
  readonly spentUsd: number;
  /** Why the spend cannot be known: a state that could not be checked may be the thread's latest run. */
  readonly spendUnknown?: string;
}

export type PreviousRun = (
  | {
      readonly kind: 'found';
      /** The state as the run's transcript artifact proves it. */
      readonly state: CarriedState;
      readonly commentId: number;
      /** One sentence for the report on where the state came from. */
      readonly source: string;
    }
  | { readonly kind: 'none' }
  /** A state was there but not trusted (someone else's comment): the run starts fresh, and its report says why. */
  | { readonly kind: 'refused'; readonly reason: string }
) & { readonly passedOver?: PassedOver } & ThreadSpend;

/** A state block as the action writes it opens so; a mere mention of the words is no claim. */
const STATE_BLOCK = /<!--\s*compact-agent-state/i;

/** A state the bot's report comment holds, before it is checked. */
interface Candidate {
  readonly state: CarriedState;
  readonly comment: ThreadComment;
  readonly position: number;
}

/**
 * The latest run of this action on the thread: among the report comments (the bot account's, ending
 * with the tracking marker) whose state reads, the one of the latest run (the highest run id and
 * attempt; run ids grow) that a run of this workflow provably wrote (check: its run and artifact). A
 * state in anyone else's comment is passed over (anyone can paste a marker), as is a state of
 * another repository; with nothing trusted found, the newest refusal says why the run starts fresh.
 * A bot comment that fails the checks is passed over too, and never ends the search: other workflows
 * comment as the same account, and one of their comments must not stop this workflow's follow-ups.
 *
 * The states are taken by run id, not by their place on the thread, so that a real but older state
 * posted again below the latest one (its artifact checks out) cannot stand for the thread's latest
 * run, nor lower its spend.
 *
 * The thread's spend: the verified state's total (its artifact's copy proves it), raised by every
 * `unverifiable` state of a later run (a run of this workflow whose artifact expired or was never
 * uploaded: it can only raise the spend, never lower it, so a genuine later run is not forgotten,
 * and a forgery of that kind costs the thread budget but cannot reset it). A foreign state is
 * ignored entirely, so another workflow's comment cannot jam the thread with a made-up spend unless
 * it names a real run of this workflow without an artifact. A state that could not be checked at all
 * (`unchecked`: no GITHUB_WORKFLOW_REF, no `actions: read`, the lookup bound) of a later run than the
 * verified one makes the spend unknown: it may be the thread's latest run, and an under-counted
 * budget is worse than a run that does not start and says why and what to do.
 */
export async function findPreviousRun(
  api: GitHubApi,
  thread: number,
  botLogin: string,
  repositoryFullName: string,
  check: StateCheck
): Promise<PreviousRun> {
  const comments = await api.listComments(thread);
  let refusal: string | undefined;
  let passedOver: PassedOver | undefined;
  const passOver = (comment: ThreadComment, reason: string) => {
    if (!STATE_BLOCK.test(comment.body)) return;
    passedOver = {
      login: comment.login,
      count: (passedOver?.count ?? 0) + 1,
      newestReason: passedOver?.newestReason ?? reason
    };
  };
  const candidates: Candidate[] = [];
  comments.forEach((comment, position) => {
    const extracted = extractState(comment, botLogin);
    if (extracted.kind === 'none') return;
    const ownAccount = isActionBotComment(comment, botLogin);
    if (extracted.kind === 'refused') {
      if (ownAccount) passOver(comment, extracted.reason);
      else refusal = extracted.reason;
      return;
    }
    if (!comment.body.trimEnd().endsWith(TRACKING_MARKER)) {
      passOver(comment, 'it is not a report comment of the action (no tracking marker at its end)');
      return;
    }
    if (extracted.state.repository !== repositoryFullName) {
      refusal = `the state names the repository ${extracted.state.repository}, not ${repositoryFullName}`;
      return;
    }
    candidates.push({ state: extracted.state, comment, position });
  });
  let spentUsd = 0;
  let spendUnknown: string | undefined;
  let found: Extract<PreviousRun, { kind: 'found' }> | undefined;
  for (const candidate of candidates.sort(latestRunFirst)) {
    const checked = await check.check(candidate.state);
    if (checked.kind === 'verified') {
      spentUsd = Math.max(spentUsd, threadSpentUsd(checked.state));
      found = {
        kind: 'found',
        state: checked.state,
        commentId: candidate.comment.id,
        source: checked.source,
        spentUsd
      };
      break;
    }
    passOver(candidate.comment, checked.reason);
    if (checked.kind === 'unverifiable') spentUsd = Math.max(spentUsd, threadSpentUsd(candidate.state));
    if (checked.kind === 'unchecked') spendUnknown ??= checked.reason;
  }
  const spend: ThreadSpend = { spentUsd, ...(spendUnknown !== undefined ? { spendUnknown } : {}) };
  const result: PreviousRun = found
    ? { ...found, ...spend }
    : refusal === undefined
      ? { kind: 'none', ...spend }
      : { kind: 'refused', reason: refusal, ...spend };
  return passedOver === undefined ? result : { ...result, passedOver };
}

/** The latest run first: the highest run id, then attempt, then the newest comment. */
function latestRunFirst(a: Candidate, b: Candidate): number {
  const [aRun, aAttempt] = runOrder(a.state.runId);
  const [bRun, bAttempt] = runOrder(b.state.runId);
  return bRun - aRun || bAttempt - aAttempt || b.position - a.position;
}

function runOrder(runId: string): [number, number] {
  const run = numericRunId(runId);
  return run === undefined ? [-1, -1] : [run, Number(runIdParts(runId)[1])];
}

/**
 * The report's line on what was passed over, e.g. "passed over 1 comment by github-actions[bot] that
 * claims a compact-agent state but no run of this workflow wrote it (it names run 7 of …)"; for
 * claims (thread-queue.ts), "… that holds a compact-agent claim …".
 */
export function passedOverLine(passed: PassedOver, what: 'state' | 'claim' = 'state'): string {
  const comments = passed.count === 1 ? '1 comment' : `${passed.count} comments`;
  const verb = what === 'state' ? 'claim' : 'hold';
  const verbs = passed.count === 1 ? `${verb}s` : verb;
  return `passed over ${comments} by ${passed.login} that ${verbs} a compact-agent ${what} but no run of this workflow wrote it (${passed.newestReason})`;
}

/**
 * The request of a follow-up: `/agent continue: also X` asks for "also X". Any other request on a
 * thread with a previous run is a follow-up as it stands.
 */
export function followUpRequest(task: string): {
  readonly explicit: boolean;
  readonly request: string;
  /** What followed `continue`, as written ('' for a bare `continue`). */
  readonly said: string;
} {
  const match = /^continue\b[\s:,.-]*/i.exec(task.trim());
  if (!match) return { explicit: false, request: task.trim(), said: task.trim() };
  const rest = task.trim().slice(match[0].length).trim();
  return { explicit: true, request: rest === '' ? 'Continue the work where it stopped.' : rest, said: rest };
}
