import { z } from 'zod';
import type { ThreadComment } from '../github/api/github-api.js';
import { isActionBotComment } from '../github/events/bot-author.js';

/**
 * What the action leaves on a pull request about its CI fixes, in its own comments: a fix attempt
 * (with the failure's signature), a re-run of a run's failed jobs, and a stop (so that it is said
 * once). Read back only from the bot's own comments; a marker anyone else writes is ignored, and one
 * the bot would write can only hold fixing back, never start it.
 */
export type CiFixMark =
  | { readonly kind: 'attempt'; readonly run: number; readonly signature: string }
  | { readonly kind: 'rerun'; readonly run: number }
  | { readonly kind: 'stop'; readonly reason: string };

export const CI_FIX_MARKER_NAME = 'compact-agent-ci-fix';

const markSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('attempt'),
    run: z.number().int(),
    signature: z.string().regex(/^[0-9a-f]{16}$/)
  }),
  z.object({ kind: z.literal('rerun'), run: z.number().int() }),
  z.object({ kind: z.literal('stop'), reason: z.string().max(40) })
]);

export function ciFixMarker(mark: CiFixMark): string {
  return `<!-- ${CI_FIX_MARKER_NAME} ${JSON.stringify(mark)} -->`;
}

/** The marks in the bot's own comments, oldest first; a comment's mark is its last line. */
export function ciFixMarks(comments: readonly ThreadComment[], botLogin: string): CiFixMark[] {
  const marks: CiFixMark[] = [];
  const pattern = new RegExp(`<!-- ${CI_FIX_MARKER_NAME} (\\{[^\\n]*\\}) -->$`);
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
