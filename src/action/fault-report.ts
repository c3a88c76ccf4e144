import path from 'node:path';
import type { SessionOutcome } from '../agent/session.js';
import {
  renderFaultReport,
  renderReport,
  type ArtifactOutcome,
  type ChangesOutcome
} from '../github/report/report.js';
import { publishOutputs, type OutputSink, type RunOutputs } from './outputs.js';

/** How far a started run got when one of its steps threw. */
export interface FaultedRun {
  readonly step: string;
  readonly fault?: string;
  readonly session?: SessionOutcome;
  readonly changes?: ChangesOutcome;
  readonly artifact?: ArtifactOutcome;
}

const NOT_REACHED = 'the run failed before this step';

/** Where the faulted run is, and who asked for it (mentioned once, so they hear the run ended). */
export interface FaultWhere {
  readonly runUrl: string;
  readonly workspace: string;
  readonly requester?: string;
}

/**
 * The report of a run whose step threw: what failed, and everything the run still has. Once the
 * agent's turns ended that is the full report, with the artifact and the transcript head when they
 * exist (the transcript is whole even though a later step failed).
 */
export function reportAfterFault(run: FaultedRun, where: FaultWhere): string {
  const fault = `${run.step} failed: ${run.fault ?? 'the run ended without a report'}`;
  const asked = where.requester !== undefined ? { requester: where.requester } : {};
  if (!run.session)
    return renderFaultReport({ step: run.step, error: run.fault, runUrl: where.runUrl, ...asked });
  return renderReport({
    ...asked,
    result: { ...run.session.result, stopReason: 'error_during_execution', error: fault },
    runUrl: where.runUrl,
    changes: run.changes ?? { kind: 'failed', error: NOT_REACHED, diffStat: '' },
    artifact: run.artifact ?? { kind: 'failed', error: NOT_REACHED },
    transcriptDir: path.relative(where.workspace, run.session.runDir),
    transcriptHead: run.session.records.transcript.head
  });
}

/** The outputs of a run whose step threw: `failure`, with whatever the run produced before it. */
export function outputsAfterFault(run: FaultedRun, commentId: number | undefined): RunOutputs {
  return {
    conclusion: 'failure',
    ...(run.session ? { session: run.session } : {}),
    ...(run.changes ? { changes: run.changes } : {}),
    ...(run.artifact ? { artifact: run.artifact } : {}),
    ...(commentId !== undefined ? { commentId } : {})
  };
}

/** Where the end of a faulted run goes: the thread, the job summary and the step's outputs. */
export interface FaultSinks {
  readonly redact: (text: string) => string;
  /** The report on the thread (the tracking comment), when the run has one. */
  readonly postReport: (report: string) => Promise<void>;
  /** Read after the report is posted: posting it may have made a new comment. */
  readonly commentId: () => number | undefined;
  readonly writeSummary: (report: string) => Promise<void>;
  readonly setOutput: OutputSink;
}

/**
 * Reports a run whose step threw, then sets its outputs. The outputs need nothing from the report,
 * so they are set even when the report cannot be made or posted (often the same failure again):
 * the artifact id and the run's figures are not lost with it.
 */
export async function publishAfterFault(
  run: FaultedRun,
  where: FaultWhere,
  sinks: FaultSinks
): Promise<void> {
  try {
    const report = sinks.redact(reportAfterFault(run, where));
    await sinks.postReport(report);
    await sinks.writeSummary(report);
  } finally {
    publishOutputs(outputsAfterFault(run, sinks.commentId()), sinks.setOutput);
  }
}
