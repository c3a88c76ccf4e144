import type { Published, RunKind } from '../kinds/run-kind.js';
import type { RunStart } from '../../followup/start-on-thread.js';
import type { TrackingComment } from '../../github/report/tracking-comment.js';
import type { AcceptedRequest, ActionContext, RunProgress } from './action-context.js';
import { firstMessageOf, prepareWorkspace, type PreparedWorkspace } from './prepare-workspace.js';
import { finishedWork, reportRun, stateFileOf } from './report.js';
import { runAgentTurns, type AgentRun } from './agent-turns.js';
import { githubClientsOf } from './github-clients.js';
import { answerInReviewThread } from './thread-reply.js';
import { runTracked } from './tracked-run.js';
import { uploadRecord } from './upload-record.js';

/**
 * The stages every kind of run shares, in order: show the run on its thread, prepare the workspace,
 * the agent's turns, the kind's own publishing, upload the record, report. A fix, a plan and a
 * review differ only in their mode (read-only or not, their rules and tools) and in `publish`.
 */
export async function runSharedStages(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart,
  kind: RunKind
): Promise<void> {
  await runTracked(action, request, async (progress, tracking) => {
    const checkout = await prepareWorkspace(action, request, start, progress);
    const { mode, task } = await kind.prepare(checkout, progress);
    const workspace =
      task === undefined
        ? checkout
        : { ...checkout, firstMessage: firstMessageOf(task, checkout.threadContext) };
    const agent = await runAgentTurns(action, start, workspace, tracking, progress, mode);
    progress.step = kind.publishStep;
    const published = await kind.publish(workspace, agent);
    await recordAndReport(action, start, { workspace, agent, published, tracking }, progress);
    // A request made in a review thread is answered there too (the report is on the conversation).
    if (action.event.kind === 'pull_request_review_comment')
      await answerInReviewThread(
        action,
        githubClientsOf(action).reviews(),
        agent.session.result,
        tracking?.id,
        published.threadNote
      );
  });
}

async function recordAndReport(
  action: ActionContext,
  start: RunStart,
  parts: {
    readonly workspace: PreparedWorkspace;
    readonly agent: AgentRun;
    readonly published: Published;
    readonly tracking: TrackingComment | undefined;
  },
  progress: RunProgress
): Promise<void> {
  const { workspace, agent, published, tracking } = parts;
  const { changes } = published;
  progress.changes = changes;
  progress.step = 'uploading the transcripts';
  const work = finishedWork(action, start, workspace, agent.session, changes);
  const artifact = await uploadRecord(action.runner, agent.session, {
    retentionDays: action.config.github.transcriptRetentionDays,
    redact: action.redact,
    tempDir: action.env.RUNNER_TEMP,
    patch: changes.kind === 'patch' ? changes.patch : undefined,
    state: stateFileOf(work, action.redact)
  });
  progress.artifact = artifact;
  progress.step = 'posting the report';
  await reportRun(
    action,
    {
      work,
      changes,
      workspace,
      agent,
      artifact,
      tracking,
      ...(published.report ? { kind: published.report } : {}),
      ...(published.review ? { review: published.review } : {}),
      ...(published.failure !== undefined ? { failure: published.failure } : {})
    },
    progress
  );
}
