import type { SessionOutcome } from '../../agent/session.js';
import type { ActionConfig } from '../../config/github-inputs.js';
import type { ActionEvent } from '../../github/events/event.js';
import type { GitHubApi, WorkflowArtifacts } from '../../github/api/github-api.js';
import type { PermissionSource } from '../../github/events/permissions.js';
import type { TrackingClaim } from '../../github/report/tracking-comment.js';
import type { ArtifactOutcome, ChangesOutcome } from '../../github/report/report.js';
import type { RunnerFilesGuard } from '../../security/runner-files.js';
import type { RunnerEnv } from '../runner-env.js';
import type { WorkflowCommandPause } from '../workflow-commands.js';

/** What every stage of a run needs once the action is set up: the runner, the inputs and the event. */
export interface ActionContext {
  readonly runner: RunnerEnv;
  readonly env: NodeJS.ProcessEnv;
  readonly config: ActionConfig;
  readonly event: ActionEvent;
  readonly redact: (text: string) => string;
  /** Paused while the agent's processes run; warnings go through it (see workflow-commands.ts). */
  readonly commands: WorkflowCommandPause;
}

/** A request that may run: who asked, what they asked, and where to answer. */
export interface AcceptedRequest {
  /** The task, from people with write access only (see trustedTask). */
  readonly task: string;
  /** GitHub, with secrets redacted and the thread's reads shared across the run. */
  readonly api: GitHubApi;
  /** The REST artifact routes, to read an earlier run's transcript artifact. */
  readonly artifacts: WorkflowArtifacts;
  /** The issue or pull request the run reports on, when it has one. */
  readonly thread: number | undefined;
  /** Each login's permission, asked once per run. */
  readonly permissions: PermissionSource;
  /** The comment in which the run claimed the request on its thread, once it is its turn (thread-queue.ts). */
  readonly claim?: TrackingClaim | undefined;
}

/**
 * How far a started run got, for the report when one of its stages throws: each stage names itself
 * in `step` and records what it produced, so the fault report keeps whatever was done.
 */
export interface RunProgress {
  step: string;
  /** Set once the report is on the thread (or would be, for a run without one). */
  reported?: boolean;
  fault?: string;
  session?: SessionOutcome;
  changes?: ChangesOutcome;
  artifact?: ArtifactOutcome;
  runnerFiles?: RunnerFilesGuard;
}

/** The folder in the workspace where runs leave their transcripts (never committed). */
export const TRANSCRIPTS = '.transcripts';
