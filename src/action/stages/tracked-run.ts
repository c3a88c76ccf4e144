import * as core from '@actions/core';
import { errorMessage } from '../../errors/error-message.js';
import { TrackingComment } from '../../github/report/tracking-comment.js';
import { actorOf } from '../event-parts.js';
import { publishAfterFault } from '../fault-report.js';
import { runUrl } from '../runner-env.js';
import type { AcceptedRequest, ActionContext, RunProgress } from './action-context.js';
import { guardedOutputs, writeJobSummary } from './runner-output.js';
import { ownReportCheck } from './start-run.js';

/** The stages of a run once it has started: they report their progress, and end in the report. */
export type StartedStages = (progress: RunProgress, tracking: TrackingComment | undefined) => Promise<void>;

/**
 * Shows the run on its thread (a tracking comment that says "working"), then runs its stages. From
 * here on, whatever fails, the comment ends as a report: of what failed, with the run's results so
 * far, and so do the job summary and the outputs.
 */
export async function runTracked(
  action: ActionContext,
  request: AcceptedRequest,
  stages: StartedStages
): Promise<void> {
  const settings = action.config.github;
  const tracking =
    request.thread !== undefined
      ? new TrackingComment(request.api, request.thread, {
          runUrl: runUrl(action.runner),
          minIntervalMs: 15_000,
          now: Date.now,
          warn: action.commands.warning,
          reuse: settings.useStickyComment
            ? { botLogin: settings.botName, isOwnReport: ownReportCheck(action, request.thread) }
            : undefined,
          claim: request.claim
        })
      : undefined;
  await tracking?.start();
  const progress: RunProgress = { step: 'preparing the work' };
  try {
    await stages(progress, tracking);
  } catch (error) {
    progress.fault = action.redact(errorMessage(error));
    throw error;
  } finally {
    if (!progress.reported)
      await finishAfterFault(action, tracking, progress).catch((error: unknown) =>
        core.warning(action.redact(`Could not report the failure: ${errorMessage(error)}`))
      );
  }
}

/** A stage threw after the tracking comment was posted: the comment becomes a report of what failed. */
async function finishAfterFault(
  action: ActionContext,
  tracking: TrackingComment | undefined,
  progress: RunProgress
): Promise<void> {
  const { runner, redact } = action;
  const { runnerFiles } = progress;
  await publishAfterFault(
    progress,
    {
      runUrl: runUrl(runner),
      workspace: runner.workspace,
      ...(actorOf(action.event) ? { requester: actorOf(action.event)!.login } : {})
    },
    {
      redact,
      postReport: async (report) => tracking?.finish(report, { replacedByReport: false }),
      commentId: () => tracking?.id,
      writeSummary: async (report) => {
        if (runnerFiles) writeJobSummary(runnerFiles, report);
        else
          await core.summary
            .addRaw(report)
            .write()
            .catch((error: unknown) => core.warning(`No job summary: ${errorMessage(error)}`));
      },
      setOutput: runnerFiles ? guardedOutputs(runnerFiles) : core.setOutput
    }
  );
}
