import { isActionBotComment } from '../github/bot-author.js';
import type { GitHubApi, ThreadComment } from '../github/github-api.js';
import { TRACKING_MARKER } from '../github/hidden-markers.js';
import { extractState, type CarriedState } from './carried-state.js';
import type { StateOrigin } from './workflow-origin.js';

/**
 * Comments by the bot account that hold a state block, yet no run of this workflow wrote (another
 * workflow commenting as the same account, or a state that does not read): passed over like a
 * stranger's. The report names them in one line (passedOverLine).
 */
export interface PassedOver {
  readonly login: string;
  readonly count: number;
  /** Why the newest of them was passed over. */
  readonly newestReason: string;
}

export type PreviousRun = (
  | { readonly kind: 'found'; readonly state: CarriedState; readonly commentId: number }
  | { readonly kind: 'none' }
  /** A state was there but not trusted (someone else's comment): the run starts fresh, and its report says why. */
  | { readonly kind: 'refused'; readonly reason: string }
) & { readonly passedOver?: PassedOver };

/** A state block as the action writes it opens so; a mere mention of the words is no claim. */
const STATE_BLOCK = /<!--\s*compact-agent-state/i;

/**
 * The latest run of this action on the thread: the newest report comment (the bot account's, ending
 * with the tracking marker) whose state reads and belongs to a run of this workflow (origin). A state
 * in anyone else's comment is passed over (anyone can paste a marker), as is a state of another
 * repository; with nothing trusted found, the newest refusal says why the run starts fresh. A bot
 * comment that fails the checks is passed over too, and never ends the search: other workflows
 * comment as the same account, and one of their comments must not stop this workflow's follow-ups.
 */
export async function findPreviousRun(
  api: GitHubApi,
  thread: number,
  botLogin: string,
  repositoryFullName: string,
  origin: StateOrigin
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
  const withPassedOver = <T extends PreviousRun>(result: T): T =>
    passedOver === undefined ? result : { ...result, passedOver };
  for (const comment of [...comments].reverse()) {
    const extracted = extractState(comment, botLogin);
    if (extracted.kind === 'none') continue;
    const ownAccount = isActionBotComment(comment, botLogin);
    if (extracted.kind === 'refused') {
      if (ownAccount) passOver(comment, extracted.reason);
      else refusal ??= extracted.reason;
      continue;
    }
    if (!comment.body.trimEnd().endsWith(TRACKING_MARKER)) {
      passOver(comment, 'it is not a report comment of the action (no tracking marker at its end)');
      continue;
    }
    if (extracted.state.repository !== repositoryFullName) {
      refusal ??= `the state names the repository ${extracted.state.repository}, not ${repositoryFullName}`;
      continue;
    }
    const verdict = await origin.judge(extracted.state);
    if (verdict.kind === 'foreign') {
      passOver(comment, verdict.reason);
      continue;
    }
    return withPassedOver({ kind: 'found', state: extracted.state, commentId: comment.id });
  }
  return withPassedOver(refusal === undefined ? { kind: 'none' } : { kind: 'refused', reason: refusal });
}

/**
 * The report's line on what was passed over, e.g. "passed over 1 comment by github-actions[bot] that
 * claims a compact-agent state but no run of this workflow wrote it (it names run 7 of …)".
 */
export function passedOverLine(passed: PassedOver): string {
  const comments = passed.count === 1 ? '1 comment' : `${passed.count} comments`;
  const claims = passed.count === 1 ? 'claims' : 'claim';
  return `passed over ${comments} by ${passed.login} that ${claims} a compact-agent state but no run of this workflow wrote it (${passed.newestReason})`;
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
