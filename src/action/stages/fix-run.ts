import type { AcceptedRequest, ActionContext } from './action-context.js';
import { prepareWorkspace } from './prepare-workspace.js';
import { publishWork } from './publish.js';
import { finishedWork, reportRun, stateFileOf } from './report.js';
import { runAgentTurns } from './run-agent.js';
import { startRun } from './start-on-thread.js';
import { runTracked } from './tracked-run.js';
import { uploadRecord } from './upload-record.js';

/**
 * A run that changes the repository (`/agent fix …`, a label, a prompt): its stages in order. Another
 * kind of run (a review, a plan) is another such list, built from the same stages where they fit.
 */
export async function fixRun(action: ActionContext, request: AcceptedRequest): Promise<void> {
  const start = await startRun(action, request);
  await runTracked(action, request, async (progress, tracking) => {
    const workspace = await prepareWorkspace(action, request, start, progress);
    const agent = await runAgentTurns(action, start, workspace, tracking, progress);
    progress.step = 'publishing the changes';
    const changes = await publishWork(action, request, start, workspace, agent);
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
    await reportRun(action, { work, changes, workspace, agent, artifact, tracking }, progress);
  });
}
