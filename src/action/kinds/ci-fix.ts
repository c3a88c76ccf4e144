import { FIX_MODE } from '../../agent/run-mode.js';
import { ciFixReportSection } from '../../cifix/ci-fix-report.js';
import { ciFixTask } from '../../cifix/ci-fix-task.js';
import type { RunStart } from '../../followup/start-on-thread.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import type { CiFixPlan } from './ci-fix-start.js';
import { fixKind } from './fix.js';
import type { RunKind } from './run-kind.js';

/**
 * A failed CI run on a pull request (ci-fix-start.ts decided it may be fixed): a fix run whose task
 * is the failure, on the pull request's own branch (work-target.ts checks it out, as for a comment
 * on it), reported with the failing jobs and lines.
 */
export function ciFixKind(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart,
  plan: CiFixPlan
): RunKind {
  const { failure, pull } = plan;
  const firstJob = failure.jobs[0]?.name ?? failure.workflow;
  const fix = fixKind(action, request, start, { commitTitle: `fix the failing CI job ${firstJob}` });
  return {
    prepare: async () => ({
      mode: FIX_MODE,
      task: ciFixTask(failure, { number: pull.number, branch: pull.headRef })
    }),
    publishStep: fix.publishStep,
    publish: async (workspace, agent) => {
      const published = await fix.publish(workspace, agent);
      const repository = action.event.kind === 'workflow_run' ? action.event.repository.fullName : '';
      return {
        ...published,
        report: {
          answerHeading: 'Summary',
          section: ciFixReportSection(failure, {
            attempt: plan.attempt,
            maxAttempts: plan.maxAttempts,
            changes: published.changes,
            checksUrl: `${action.runner.serverUrl}/${repository}/pull/${pull.number}/checks`
          })
        }
      };
    }
  };
}
