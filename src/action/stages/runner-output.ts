import * as core from '@actions/core';
import type { RunnerFilesGuard } from '../../security/runner-files.js';
import type { OutputSink } from '../outputs.js';

/** The job summary, written only into the file the runner gave (never through a link the agent left). */
export function writeJobSummary(runnerFiles: RunnerFilesGuard, report: string): void {
  const written = runnerFiles.append('GITHUB_STEP_SUMMARY', `${report}\n`);
  if (!written.written) core.warning(`No job summary: ${written.reason}; nothing was written there.`);
}

/** Outputs after the agent's turns go through the guard: GITHUB_OUTPUT must still be the runner's file. */
export function guardedOutputs(runnerFiles: RunnerFilesGuard): OutputSink {
  // Without a GITHUB_OUTPUT file (an old runner), @actions/core prints the outputs to the log.
  if (!runnerFiles.has('GITHUB_OUTPUT')) return core.setOutput;
  let warned = false;
  return (name, value) => {
    const written = runnerFiles.setOutput(name, value);
    if (!written.written && !warned) {
      warned = true;
      core.warning(`No outputs were set: ${written.reason}; nothing was written there.`);
    }
  };
}

/** Says which runner files the agent's run changed or replaced, now that they are put back. */
export function warnRestoredRunnerFiles(runnerFiles: RunnerFilesGuard): void {
  for (const file of runnerFiles.restore()) {
    core.warning(
      file.replaced
        ? `The agent's run replaced the runner file ${file.name} (with a link, another file or a FIFO); nothing was written through it, and a new file with its old contents is in its place.`
        : `The agent's run changed the runner file ${file.name}; it was put back as it was.`
    );
  }
}
