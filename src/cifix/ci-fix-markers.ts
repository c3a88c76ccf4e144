import { z } from 'zod';
import type { RunOrigin } from '../followup/workflow-origin.js';
import type { ThreadComment } from '../github/api/github-api.js';
import { isActionBotComment } from '../github/events/bot-author.js';

/**
 * What the action leaves on a pull request about its CI fixes, in its own comments: a fix attempt
 * (with the failure's signature), a re-run of a run's failed jobs, and a stop (so that it is said
 * once). Each names `by`, the action run that wrote it (GITHUB_RUN_ID). With the default bot, every
 * GITHUB_TOKEN workflow comments as the same account, and one that quotes an issue can end its
 * comment with a mark: so a mark counts only when the Actions API says its `by` run is one of the
 * trusted workflows' (trustedCiFixMarks, as the queue's claims), never by the account alone.
 */
export type CiFixMark = { readonly by: number } & (
  | { readonly kind: 'attempt'; readonly run: number; readonly signature: string }
  | { readonly kind: 'rerun'; readonly run: number }
  | { readonly kind: 'stop'; readonly reason: string }
);

export const CI_FIX_MARKER_NAME = 'compact-agent-ci-fix';

const by = z.number().int().nonnegative();
const markSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('attempt'),
    by,
    run: z.number().int(),
    signature: z.string().regex(/^[0-9a-f]{16}$/)
  }),
  z.object({ kind: z.literal('rerun'), by, run: z.number().int() }),
  z.object({ kind: z.literal('stop'), by, reason: z.string().max(40) })
]);

/** The mark as the last line of a comment (ciFixMarks reads it only there). */
export function ciFixMarker(mark: CiFixMark): string {
  return `<!-- ${CI_FIX_MARKER_NAME} ${JSON.stringify(mark)} -->`;
}

/**
 * The marks in the bot's own comments, oldest first, unchecked: a comment's mark is its whole last
 * line (a quoted `> <!-- … -->` is not one), as the other hidden markers are read.
 */
export function ciFixMarks(comments: readonly ThreadComment[], botLogin: string): CiFixMark[] {
  const marks: CiFixMark[] = [];
  const pattern = new RegExp(`(?:^|\\n)<!-- ${CI_FIX_MARKER_NAME} (\\{[^\\n]*\\}) -->$`);
  for (const comment of comments) {
    if (!isActionBotComment(comment, botLogin)) continue;
    const found = pattern.exec(comment.body.trimEnd());
    if (!found) continue;
    try {
      const parsed = markSchema.safeParse(JSON.parse(found[1]!));
      if (parsed.success) marks.push(parsed.data);
    } catch {
      // Not JSON: not a mark of ours.
    }
  }
  return marks;
}

/**
 * The marks whose `by` run the Actions API says is one of the trusted workflows' (workflow-origin.ts:
 * this workflow, or a file `thread.workflows` names), oldest first. A mark that cannot be checked
 * (`unchecked`: no `actions: read`) is left out too: a mark only holds fixing back, and what the
 * action cannot tie to its own runs must not.
 */
export async function trustedCiFixMarks(
  comments: readonly ThreadComment[],
  botLogin: string,
  judgeRun: (runId: number) => Promise<RunOrigin>
): Promise<CiFixMark[]> {
  const trusted: CiFixMark[] = [];
  // One at a time: the origin's lookups are cached and bounded in the order they are asked.
  for (const mark of ciFixMarks(comments, botLogin))
    if (mark.by > 0 && (await judgeRun(mark.by)).kind === 'ours') trusted.push(mark);
  return trusted;
}
