import { codeSpan, fence, inlineText } from '../github/markdown/outbound-neutralize.js';
import { defuseMarkers } from '../github/markdown/outbound-hidden-markers.js';
import type { ChangesOutcome } from '../github/report/report.js';
import type { CiFailure } from './ci-failure.js';

/**
 * The CI fix's own part of the report: which run, jobs and steps failed, their failing lines
 * (folded: they are long, and the summary above says what was done), what the push changed, and
 * where the next CI run shows. The log lines are text the code under test printed: each stands in a
 * fence it cannot close, with the action's own markers broken.
 */
export function ciFixReportSection(
  failure: CiFailure,
  options: {
    readonly attempt: number;
    readonly maxAttempts: number;
    readonly changes: ChangesOutcome;
    readonly checksUrl: string;
  }
): string {
  const jobs = failure.jobs.map((job) => {
    const steps = job.steps.length > 0 ? `, step ${job.steps.map(codeSpan).join(', ')}` : '';
    const head = `- job [${inlineText(job.name).replace(/[[\]]/g, '')}](${job.url})${steps}`;
    if (job.excerpt === '') return `${head}: ${inlineText(job.logProblem ?? 'no log')}`;
    return (
      `${head}\n\n  <details><summary>Failing lines</summary>\n\n` +
      `${fence(defuseMarkers(job.excerpt))}\n\n  </details>`
    );
  });
  return [
    `### CI fix (attempt ${options.attempt} of ${options.maxAttempts})`,
    `The workflow run [${inlineText(failure.workflow) || failure.runId}](${failure.runUrl}) (attempt ${failure.attempt}) failed in:`,
    jobs.join('\n'),
    failure.jobsLeftOut > 0 ? `${failure.jobsLeftOut} more failed job(s) were not read.` : '',
    changedLine(options.changes, options.checksUrl)
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

function changedLine(changes: ChangesOutcome, checksUrl: string): string {
  switch (changes.kind) {
    case 'pushed':
      return (
        `The fix was pushed to ${codeSpan(changes.branch)}, the pull request's own branch. The next CI run shows ` +
        `on the pull request's [checks](${checksUrl}); a push made with the workflow's GITHUB_TOKEN starts no ` +
        'workflow, so CI runs again only when the action pushes with an App token, or when someone pushes or re-runs it.'
      );
    case 'none':
      return 'Nothing was changed: the summary above says why.';
    default:
      return '';
  }
}
