import { isActionBotComment } from '../github/bot-author.js';
import type { GitHubApi } from '../github/github-api.js';
import { extractState, type CarriedState } from './carried-state.js';

export type PreviousRun =
  | { readonly kind: 'found'; readonly state: CarriedState; readonly commentId: number }
  | { readonly kind: 'none' }
  /**
   * A state was there but not trusted: the run starts fresh, and its report says why. `ownComment`:
   * it was the bot's own newest state, so what the thread spent so far cannot be read either.
   */
  | { readonly kind: 'refused'; readonly reason: string; readonly ownComment?: boolean };

/**
 * The latest run of this action on the thread: the newest comment by the bot account whose state
 * reads. A state in anyone else's comment is passed over (anyone can paste a marker), as is a state
 * of another repository; with nothing trusted found, the newest refusal says why the run starts
 * fresh. The bot's own newest state that does not read (two markers, one out of place) ends the
 * search: resuming an older run instead would hide that the latest one was tampered with.
 */
export async function findPreviousRun(
  api: GitHubApi,
  thread: number,
  botLogin: string,
  repositoryFullName: string
): Promise<PreviousRun> {
  const comments = await api.listComments(thread);
  let refusal: string | undefined;
  for (const comment of [...comments].reverse()) {
    const extracted = extractState(comment, botLogin);
    if (extracted.kind === 'none') continue;
    if (extracted.kind === 'refused') {
      if (isActionBotComment(comment, botLogin))
        return { kind: 'refused', reason: extracted.reason, ownComment: true };
      refusal ??= extracted.reason;
      continue;
    }
    if (extracted.state.repository !== repositoryFullName) {
      refusal ??= `the state names the repository ${extracted.state.repository}, not ${repositoryFullName}`;
      continue;
    }
    return { kind: 'found', state: extracted.state, commentId: comment.id };
  }
  return refusal === undefined ? { kind: 'none' } : { kind: 'refused', reason: refusal };
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
