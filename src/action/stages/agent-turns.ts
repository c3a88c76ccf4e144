import * as core from '@actions/core';
import path from 'node:path';
import type { RunMode } from '../../agent/run-mode.js';
import type { AgentConfig } from '../../config/inputs.js';
import { runSession, type SessionOutcome } from '../../agent/session.js';
import { threadRecordOf, type RunStart } from '../../followup/start-on-thread.js';
import { guardRepository, type RepositoryGuard } from '../../git/repository-guard.js';
import type { TrackingComment } from '../../github/report/tracking-comment.js';
import { guardRunnerFiles, type RunnerFilesGuard } from '../../security/runner-files.js';
import { agentConfigFor } from '../mcp-on-forks.js';
import { runLinksOf } from '../run-links.js';
import { TRANSCRIPTS, type ActionContext, type RunProgress } from './action-context.js';
import type { PreparedWorkspace } from './prepare-workspace.js';
import { warnRestoredRunnerFiles } from './runner-output.js';

/** Said in the log: a push with the workflow's GITHUB_TOKEN starts no workflow (no CI on the PR). */
const PUSH_CREDENTIAL_NOTE: Record<RepositoryGuard['pushCredential'], string> = {
  github_token:
    'The push will authenticate with github_token (it is not the token actions/checkout persisted).',
  checkout:
    "The push will authenticate with actions/checkout's credential (github_token is that same token, or the remote is not HTTP).",
  none: "The push will carry no credential of the action's: origin is not an HTTP(S) URL, and actions/checkout persisted none."
};

/** The agent's turns, and what the action kept from the agent's reach while they ran. */
export interface AgentRun {
  readonly session: SessionOutcome;
  /** The repository with the push token kept in memory, and the way to take it back after the agent. */
  readonly guard: RepositoryGuard;
  readonly runnerFiles: RunnerFilesGuard;
}

/**
 * Runs the agent's turns. Before them, the push token leaves git's config (kept in memory for the
 * push), the runner's file commands are noted (to be put back), and the runner stops obeying
 * commands on the step's output (the agent's processes can write there); SIGINT and SIGTERM from
 * the runner cancel the run, which still ends with its record.
 */
export async function runAgentTurns(
  action: ActionContext,
  start: RunStart,
  workspace: PreparedWorkspace,
  tracking: TrackingComment | undefined,
  progress: RunProgress,
  mode: RunMode
): Promise<AgentRun> {
  const { runner, env, redact, config } = action;
  const cancel = new AbortController();
  const onSignal = () => cancel.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // Its warning (MCP ignored on a fork) is issued now, while the runner still reads commands.
  const agentConfig = readOnlyConfig(
    agentConfigFor(workspace.target, config.agent, (line) => core.warning(line)),
    mode
  );
  const guard = await guardRepository(workspace.git, config.github.token);
  core.info(PUSH_CREDENTIAL_NOTE[guard.pushCredential]);
  const runnerFiles = guardRunnerFiles(env);
  progress.runnerFiles = runnerFiles;
  progress.step = "running the agent's turns";
  // From the first process the agent could start (MCP servers start in runSession) to the end of its
  // last one, the runner obeys no command on the step's output: the agent can write there.
  action.commands.pause();
  try {
    const session = await runSession({
      config: agentConfig,
      // runSession redacts the task (a pasted token) with `redact`, as everything the model is sent.
      task: workspace.firstMessage,
      thread: { ...threadRecordOf(start), links: runLinksOf(action, workspace.target) },
      ...(workspace.instructions ? { instructions: workspace.instructions } : {}),
      mode,
      repoDir: runner.workspace,
      nestedRepositories: guard.nestedRepositories,
      transcriptsDir: path.join(runner.workspace, TRANSCRIPTS),
      runId: `${runner.runId}-${runner.runAttempt}`,
      env,
      signal: cancel.signal,
      redact,
      // A sandbox that could not be built is a warning in the job log (and a section of the report).
      onNotice: (line) =>
        line.startsWith('Warning: ') ? core.warning(redact(line.slice(9))) : core.info(redact(line)),
      onProgress: (update) => tracking?.update(update, update.activity.startsWith('compacted'))
    });
    progress.session = session;
    return { session, guard, runnerFiles };
  } finally {
    // runSession has ended the agent's processes it can find (each command's session and marked
    // leftovers, MCP servers); one that escaped the sweep can still write (docs/security.md).
    await action.commands.resume();
    warnRestoredRunnerFiles(runnerFiles);
  }
}

/**
 * A plan or a review starts no MCP server: a server's tools can change things outside the repository
 * (a tracker, a deployment), which a read-only run promises not to do. Said in the log, once.
 */
function readOnlyConfig(config: AgentConfig, mode: RunMode): AgentConfig {
  if (!mode.readOnly || config.mcpServers.length === 0) return config;
  core.info(
    `This ${mode.name} run is read-only, so the MCP servers of mcp_config (${config.mcpServers.map((server) => server.name).join(', ')}) are not started.`
  );
  return { ...config, mcpServers: [] };
}
