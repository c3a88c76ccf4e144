/**
 * The action's hidden markers: HTML comments that only the action writes into its own comments, and
 * reads back to find its tracking comment (sticky mode) and the state it carries to the next run.
 *
 * Text that others wrote can spell them too: a patch or diff stat shown in a report, a file name, the
 * model's summary, a command in the progress line. Everything the tracking comment shows passes
 * `defuseMarkers` first, which breaks each such spelling with an invisible word joiner (U+2060), so
 * the only markers in the action's comments are the ones the action appended itself. In a patch this
 * is the one way the shown text can differ from the real one (the artifact's changes.patch is exact).
 */
export const STATE_MARKER_NAME = 'compact-agent-state';
export const TRACKING_MARKER = '<!-- compact-agent-tracking -->';
/** A run's claim on a request (src/action/duplicate-trigger.ts): `<!-- compact-agent-claim {json} -->`. */
export const CLAIM_MARKER_NAME = 'compact-agent-claim';

/** The invisible word joiner that breaks a spelling; text compared by what it says drops it again. */
export const MARKER_JOINER = '\u2060';
/**
 * Any spelling of a marker's name, in any case: the readers match case-sensitively, the runner may
 * not. `finding` is the fingerprint each review comment carries (src/review/fingerprint.ts); `claim`
 * is a run's claim on a request; `fanout-rollup` the fan-out roll-up's marker
 * (src/fanout/rollup-target.ts).
 */
const MARKER_NAME = /compact-agent-(?=state|tracking|finding|claim|ci-fix|fanout-rollup)/gi;

/** Text others wrote, with every spelling of a marker's name broken (invisibly) so it reads as none. */
export function defuseMarkers(text: string): string {
  return text.replace(MARKER_NAME, (prefix) => `${prefix}${MARKER_JOINER}`);
}

/** How many times a state marker's name occurs in a body, in any case and wherever it stands. */
export function stateMarkerCount(body: string): number {
  return body.match(new RegExp(STATE_MARKER_NAME, 'gi'))?.length ?? 0;
}
