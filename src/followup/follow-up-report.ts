import { inlineText } from '../github/neutralize.js';
import type { CarriedState } from './carried-state.js';

/** How this run relates to the runs before it on the thread, for the top of its report. */
export type FollowUpNote =
  | { readonly kind: 'fresh-after-refusal'; readonly reason: string }
  | {
      readonly kind: 'continued';
      readonly previous: CarriedState;
      /** Where the work went: continued on the branch, or a new one, and why. */
      readonly whereNote: string;
      /** Where the previous run's state came from (its artifact, or its comment and why). */
      readonly source?: string;
    };

/** The report's follow-up section: the previous run(s) linked, and the run-by-run and cumulative cost. */
export function renderFollowUp(note: FollowUpNote, thisRun: { runUrl: string; costUsd: number }): string {
  if (note.kind === 'fresh-after-refusal')
    return `ℹ️ Started fresh, without the state of an earlier run: ${inlineText(note.reason)}.`;
  const runs = [
    ...note.previous.previousRuns,
    { runUrl: note.previous.runUrl, costUsd: note.previous.costUsd },
    { runUrl: thisRun.runUrl, costUsd: thisRun.costUsd }
  ];
  const total = runs.reduce((sum, run) => sum + run.costUsd, 0);
  const rows = runs.map(
    (run, index) =>
      `| ${index + 1} | [${index === runs.length - 1 ? 'this run' : 'run'}](${link(run.runUrl)}) | $${run.costUsd.toFixed(4)} |`
  );
  return [
    `### Follow-up\n\n↪️ Continues [the previous run](${link(note.previous.runUrl)}). ${note.whereNote}${
      note.source ? ` ${inlineText(note.source)}` : ''
    }`,
    [
      '| # | run | cost |',
      '| ---: | --- | ---: |',
      ...rows,
      `| | **cumulative** | **$${total.toFixed(4)}** |`
    ].join('\n')
  ].join('\n\n');
}

/** A run link from the carried state: no markdown can break out of the link target. */
function link(url: string): string {
  return /^https?:\/\/[^\s()<>[\]]+$/.test(url) ? url : '#';
}
