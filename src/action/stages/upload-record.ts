import * as core from '@actions/core';
import type { SessionOutcome } from '../../agent/session.js';
import { stageRunArtifact, type StagedArtifact } from '../../artifacts/stage-run.js';
import { ActionsArtifactUploader, transcriptArtifactName } from '../../artifacts/transcript-artifact.js';
import { errorFirstLine } from '../../errors/error-message.js';
import { STATE_FILE } from '../../followup/state-file.js';
import type { ArtifactOutcome } from '../../github/report/report.js';
import { runUrl, type RunnerEnv } from '../runner-env.js';

/**
 * Uploads the run's record, whatever happened: built from the action's own copies in a private
 * folder, never from `.transcripts/` as the agent left it. A failure is a warning and the report says so.
 */
export async function uploadRecord(
  runner: RunnerEnv,
  session: SessionOutcome,
  options: {
    readonly retentionDays: number | undefined;
    readonly redact: (text: string) => string;
    readonly tempDir: string | undefined;
    readonly patch: string | undefined;
    /** The carried state's file, for `compact-agent run --resume <artifact zip>`. */
    readonly state: string;
  }
): Promise<ArtifactOutcome> {
  let staged: StagedArtifact | undefined;
  try {
    staged = await stageRunArtifact(session.records, {
      redact: options.redact,
      ...(options.tempDir ? { parentDir: options.tempDir } : {}),
      extraFiles: [
        ...(options.patch !== undefined ? [{ name: 'changes.patch', text: options.patch }] : []),
        { name: STATE_FILE, text: options.state }
      ]
    });
    for (const finding of staged.findings)
      core.warning(options.redact(`The run's record was tampered with: ${finding}`));
    for (const note of staged.incomplete) core.warning(options.redact(note));
    const name = transcriptArtifactName(runner.runId, runner.runAttempt);
    const uploaded = await new ActionsArtifactUploader().upload(
      name,
      staged.dir,
      options.retentionDays,
      staged.files
    );
    return { kind: 'uploaded', id: uploaded.id, url: `${runUrl(runner)}/artifacts/${uploaded.id}`, name };
  } catch (error) {
    // Storage errors come with request ids on several lines: the first says what failed.
    const message = errorFirstLine(error);
    core.warning(`The transcripts could not be uploaded: ${message}`);
    return { kind: 'failed', error: message };
  } finally {
    await staged?.remove().catch(() => undefined);
  }
}
