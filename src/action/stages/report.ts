import * as core from '@actions/core';
import path from 'node:path';
import type { SessionOutcome } from '../../agent/session.js';
import type { RunStart } from '../../followup/start-on-thread.js';
import { renderFollowUp } from '../../followup/follow-up-report.js';
import { carriedStateOf, embedForReport, type FinishedRun } from '../../followup/run-state.js';
import { spentBeforeUsd } from '../../followup/thread-budget.js';
import { stateFileText } from '../../followup/state-file.js';
import { workOfTranscript, type TranscriptWork } from '../../followup/transcript-work.js';
import { renderReport, type ArtifactOutcome, type ChangesOutcome } from '../../github/report/report.js';
import type { TrackingComment } from '../../github/report/tracking-comment.js';
import type { ReviewOutcome } from '../../review/post-review.js';
import { finishedConclusion } from '../conclusion.js';
import { actorOf, repositoryOf, threadOf } from '../event-parts.js';
import { publishOutputs } from '../outputs.js';
import { runUrl } from '../runner-env.js';
import type { WorkTarget } from '../work-target.js';
import type { ActionContext, RunProgress } from './action-context.js';
import type { PreparedWorkspace } from './prepare-workspace.js';
import type { AgentRun } from './agent-turns.js';
import { commentUrl, endNotice } from './end-notice.js';
import { guardedOutputs, writeJobSummary } from './runner-output.js';

/** What a finished run knows before its artifact is uploaded: the state for the next run is built from it. */
export type FinishedWork = Omit<FinishedRun, 'artifact'> & { readonly work: TranscriptWork };

/** A read-only run's own parts of the report and of the state it leaves. */
export interface KindReport {
  readonly answerHeading: string;
  readonly section: string;
  /** Turns the model's answer into what the report shows (a plan: made visible, as it is approved). */
  readonly answer?: (summary: string) => string;
}

export function finishedWork(
  action: ActionContext,
  start: RunStart,
  workspace: PreparedWorkspace,
  session: SessionOutcome,
  changes: ChangesOutcome
): FinishedWork {
  const { runner } = action;
  const repository = repositoryOf(action.event, runner);
  return {
    repository: `${repository.owner}/${repository.name}`,
    runId: `${runner.runId}-${runner.runAttempt}`,
    runUrl: runUrl(runner),
    task: start.originalTask,
    request: start.request,
    result: session.result,
    changes,
    thread: threadOf(action.event, action.config.github.reportIssue) ?? null,
    ...whereTheWorkIs(workspace.target, changes),
    previous: start.previous,
    spentUsd: start.spentUsd,
    // From the transcript, with the recordWork the compaction pipeline uses, not from the pipeline's
    // own ledger: that one records only when the pipeline is called (a run that ends at a limit
    // folds its last results into the closing request unrecorded) and another compactor has none;
    // and the next run rebuilds this ledger from the artifact's transcript, so both read one record.
    work: workOfTranscript(session.records.transcript.lines().join('\n')),
    transcriptHead: session.records.transcript.head,
    ...(changes.kind === 'read-only' ? { mode: changes.mode } : {})
  };
}

/** The carried state's file for the artifact: its copy cannot know its own artifact's id. */
export function stateFileOf(work: FinishedWork, redact: (text: string) => string): string {
  return stateFileText(
    carriedStateOf({ ...work, artifact: { kind: 'failed', error: 'not uploaded yet' } }),
    redact
  );
}

/**
 * The last stage: the tracking comment becomes the report (with the state for the next run as its
 * hidden last block), the job summary gets the same report, every output is set, and a run that
 * failed fails the step (one that stopped at a limit only with fail_on_limit: see conclusion.ts).
 */
export async function reportRun(
  action: ActionContext,
  parts: {
    readonly work: FinishedWork;
    readonly changes: ChangesOutcome;
    readonly workspace: PreparedWorkspace;
    readonly agent: AgentRun;
    readonly artifact: ArtifactOutcome;
    readonly tracking: TrackingComment | undefined;
    readonly kind?: KindReport;
    readonly review?: ReviewOutcome;
    /** The kind's publishing failed (a review GitHub would not take): reported, then the step fails. */
    readonly failure?: string;
  },
  progress: RunProgress
): Promise<void> {
  const { runner, redact } = action;
  const { work, changes, workspace, agent, artifact, tracking, kind, review, failure } = parts;
  const { session, runnerFiles } = agent;
  const link = runUrl(runner);
  const hiddenState = embedForReport(carriedStateOf({ ...work, artifact }), redact);
  const note = workspace.note;
  const repository = repositoryOf(action.event, runner);
  const requester = actorOf(action.event);
  // The last look before the job's later steps (actions/checkout's post step runs git there).
  agent.guard.nestedRepositories.sweep();
  const movedGitEntries = agent.guard.nestedRepositories.moved();
  const report = redact(
    renderReport({
      result: session.result,
      runUrl: link,
      changes,
      artifact,
      transcriptDir: path.relative(runner.workspace, session.runDir),
      transcriptHead: session.records.transcript.head,
      ...(session.deniedCalls ? { deniedCalls: session.deniedCalls } : {}),
      ...(session.withheldEnv ? { withheldEnv: session.withheldEnv } : {}),
      ...(session.sandbox ? { sandbox: session.sandbox } : {}),
      ...(movedGitEntries.length > 0 ? { movedGitEntries } : {}),
      ...(workspace.instructions ? { instructions: workspace.instructions } : {}),
      ...(note
        ? {
            followUp: renderFollowUp(note, {
              runUrl: link,
              costUsd: session.result.costUsd,
              threadBudgetUsd: action.config.github.maxThreadBudgetUsd
            })
          }
        : {}),
      ...(kind ? { answerHeading: kind.answerHeading, kindSection: kind.section } : {}),
      ...(kind?.answer ? { answerText: kind.answer(session.result.summary) } : {}),
      reserveChars: hiddenState.length + 2,
      // Who asked is mentioned once at the top (a bot's login, `name[bot]`, is named, not mentioned).
      ...(requester ? { requester: requester.login } : {}),
      request: work.request,
      repositoryUrl: `${runner.serverUrl}/${repository.owner}/${repository.name}`,
      testRuns: work.work.testRuns
    })
  );
  await tracking?.finish(report, { replacedByReport: true, state: hiddenState });
  progress.reported = true;
  writeJobSummary(runnerFiles, report);
  progress.step = 'setting the outputs';
  const ended = finishedConclusion(session.result, {
    limits: action.config.agent.limits,
    failOnLimit: action.config.github.failOnLimit,
    publishFailure: failure
  });
  publishOutputs(
    {
      conclusion: ended.conclusion,
      ...(ended.limit !== undefined ? { limit: ended.limit } : {}),
      threadCostUsd: spentBeforeUsd(work) + session.result.costUsd,
      session,
      changes,
      artifact,
      ...(review ? { review } : {}),
      ...(tracking?.id !== undefined ? { commentId: tracking.id } : {})
    },
    guardedOutputs(runnerFiles)
  );
  const repositoryUrl = `${runner.serverUrl}/${repository.owner}/${repository.name}`;
  const notice =
    action.config.github.notifyRequester && tracking?.id !== undefined
      ? endNotice(requester?.login, ended.conclusion, commentUrl(repositoryUrl, tracking.thread, tracking.id))
      : undefined;
  if (notice !== undefined) await tracking?.reply(notice);
  if (ended.failStep !== undefined) core.setFailed(redact(ended.failStep));
  else if (ended.conclusion === 'limit')
    core.warning(
      redact(
        `compact-agent stopped at a limit (${ended.limit}); its work so far is published and reported. ` +
          'Set fail_on_limit: true to fail the step when this happens.'
      )
    );
}

/** The branch and PR the next run continues: what was pushed now, else what this run continued. */
function whereTheWorkIs(
  target: WorkTarget,
  changes: ChangesOutcome
): { branch: string | null; pullRequest: number | null } {
  const targetPull =
    target.kind === 'pull-request-branch' || target.kind === 'fork'
      ? target.pullNumber
      : target.kind === 'continued-branch'
        ? (target.pullNumber ?? null)
        : null;
  if (changes.kind === 'pushed')
    return { branch: changes.branch, pullRequest: changes.pullRequestNumber ?? targetPull };
  return {
    branch:
      target.kind === 'continued-branch' || target.kind === 'pull-request-branch' ? target.branch : null,
    pullRequest: targetPull
  };
}
