import { inlineText } from '../github/markdown/outbound-neutralize.js';
import type { CarriedState } from './carried-state.js';
import { threadSpentUsd } from './thread-budget.js';

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
export function renderFollowUp(
  note: FollowUpNote,
  thisRun: { runUrl: string; costUsd: number; threadBudgetUsd?: number }
): string {
  if (note.kind === 'fresh-after-refusal')
    return `ℹ️ Started fresh, without the state of an earlier run: ${inlineText(note.reason)}.`;
  const runs = [
    ...note.previous.previousRuns,
    { runUrl: note.previous.runUrl, costUsd: note.previous.costUsd },
    { runUrl: thisRun.runUrl, costUsd: thisRun.costUsd }
  ];
  // The thread's carried total: the rows list only the last runs (CARRIED_LIMITS.previousRuns).
  const total = threadSpentUsd(note.previous) + thisRun.costUsd;
  const shown = (url: string, text: string) => {
    const own = ownRunLink(url, thisRun.runUrl);
    return own === undefined ? `${text} (link not shown: not a run of this repository)` : `[${text}](${own})`;
  };
  const rows = runs.map(
    (run, index) =>
      `| ${index + 1} | ${index === runs.length - 1 ? `[this run](${thisRun.runUrl})` : shown(run.runUrl, 'run')} | $${run.costUsd.toFixed(4)} |`
  );
  return [
    `### Follow-up\n\n↪️ Continues ${shown(note.previous.runUrl, 'the previous run')}. ${note.whereNote}${
      note.source ? ` ${inlineText(note.source)}` : ''
    }`,
    [
      '| # | run | cost |',
      '| ---: | --- | ---: |',
      ...rows,
      `| | **cumulative** | **$${total.toFixed(4)}** |`
    ].join('\n'),
    thisRun.threadBudgetUsd === undefined
      ? ''
      : `The thread's budget (\`max_thread_budget_usd\`) is $${thisRun.threadBudgetUsd}: $${Math.max(0, thisRun.threadBudgetUsd - total).toFixed(4)} of it is left.`
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

const RUNS_PATH = '/actions/runs/';

/**
 * A run link from the carried state, when it is a run of this repository on this server: the same
 * prefix as this run's own link (GITHUB_SERVER_URL and the repository), then a run id and perhaps an
 * attempt. Anything else is not linked: a forged state could otherwise send readers anywhere.
 */
export function ownRunLink(url: string, thisRunUrl: string): string | undefined {
  const at = thisRunUrl.lastIndexOf(RUNS_PATH);
  if (at < 0) return undefined;
  const prefix = thisRunUrl.slice(0, at + RUNS_PATH.length);
  const rest = url.startsWith(prefix) ? url.slice(prefix.length) : '';
  return /^\d+(?:\/attempts\/\d+)?$/.test(rest) ? url : undefined;
}
