import { z } from 'zod';
import type { RunOrigin } from '../followup/workflow-origin.js';
import type { ThreadComment } from '../github/api/github-api.js';
import { isActionBotComment } from '../github/events/bot-author.js';

/**
 * The hidden mark at the end of a fan-out's roll-up comment on its issue: the plan, and `run`, the
 * workflow run of the fan-out workflow whose land job wrote (or last edited) it (rollup-target.ts
 * writes it; this file is the mark's only definition). `/agent fanout resume` finds the issue's
 * latest fan-out by it and dispatches a resume of that run. With the default bot every GITHUB_TOKEN
 * workflow comments as the same account, and one that quotes an issue can end its comment with a
 * forged mark: a mark counts only when the Actions API says its run is a run of the fan-out workflow
 * file (latestTrustedRollup), never by the account alone.
 */
export interface RollupMark {
  readonly run: number;
  readonly plan: string;
}

export const ROLLUP_MARKER_NAME = 'compact-agent-fanout-rollup';

const markSchema = z.object({
  run: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  plan: z.string().regex(/^[0-9a-f]{8,64}$/)
});

/** The mark, as the LAST line of the roll-up comment (markOf reads it only there). */
export function rollupMarker(mark: RollupMark): string {
  return `<!-- ${ROLLUP_MARKER_NAME} ${JSON.stringify({ run: mark.run, plan: mark.plan })} -->`;
}

const MARK_LINE = new RegExp(`^<!-- ${ROLLUP_MARKER_NAME} (\\{[^\\n]*\\}) -->$`);

/** The mark on a body's last line, or undefined (a mark anywhere else is quoted text, not ours). */
export function markOf(body: string): RollupMark | undefined {
  const last = body.trimEnd().split('\n').at(-1) ?? '';
  const found = MARK_LINE.exec(last);
  if (!found) return undefined;
  try {
    const parsed = markSchema.safeParse(JSON.parse(found[1]!));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // Not JSON: not a mark of ours.
  }
}

/** The marks in the bot's own comments, in the thread's order, unchecked; a quoted `> <!-- … -->` is none. */
export function rollupMarks(
  comments: readonly ThreadComment[],
  botLogin: string
): (RollupMark & { readonly commentId: number })[] {
  const marks: (RollupMark & { readonly commentId: number })[] = [];
  for (const comment of comments) {
    if (!isActionBotComment(comment, botLogin)) continue;
    const mark = markOf(comment.body);
    if (mark) marks.push({ ...mark, commentId: comment.id });
  }
  return marks;
}

/**
 * The latest fan-out on a thread: of the marks whose run the Actions API ties to the fan-out
 * workflow (`judgeRun` answers `ours`), the one of the newest run (run ids grow with time). Marks
 * passed over are counted, for the reply. One lookup at a time, newest first, so a thread full of
 * forged marks costs no more than the origin's bound of lookups.
 */
export async function latestTrustedRollup(
  comments: readonly ThreadComment[],
  botLogin: string,
  judgeRun: (runId: number) => Promise<RunOrigin>
): Promise<{ readonly mark: RollupMark | undefined; readonly passedOver: readonly string[] }> {
  const marks = rollupMarks(comments, botLogin).sort((a, b) => b.run - a.run);
  const passedOver: string[] = [];
  for (const mark of marks) {
    const origin = await judgeRun(mark.run);
    if (origin.kind === 'ours') return { mark: { run: mark.run, plan: mark.plan }, passedOver };
    passedOver.push(origin.reason);
  }
  return { mark: undefined, passedOver };
}
