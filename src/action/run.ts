import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { runSession, WORKFLOW_FOLDERS, type SessionOutcome } from '../agent/session.js';
import { stageRunArtifact, type StagedArtifact } from '../artifacts/stage-run.js';
import { ActionsArtifactUploader, transcriptArtifactName } from '../artifacts/transcript-artifact.js';
import { GITHUB_DEFAULTS, parseActionConfig, type ActionConfig } from '../config/github-inputs.js';
import { InputError } from '../config/inputs.js';
import { credentialFileInRepository } from '../security/cloud-credentials.js';
import { pinnedGit } from '../git/git-binary.js';
import { guardRepository } from '../git/repository-guard.js';
import { GitRepository } from '../git/repository.js';
import { parseEvent, type ActionEvent } from '../github/event.js';
import type { GitHubApi } from '../github/github-api.js';
import { OctokitGitHubApi } from '../github/octokit-api.js';
import { botIdentity } from '../github/bot-author.js';
import {
  checkActor,
  permissionsOncePerRun,
  trustedTask,
  writeAccessCheck,
  type PermissionSource
} from '../github/permissions.js';
import { redactingGitHubApi } from '../github/redacting-api.js';
import { renderReport, type ArtifactOutcome, type ChangesOutcome } from '../github/report.js';
import { buildThreadContext } from '../github/thread-context.js';
import { TrackingComment } from '../github/tracking-comment.js';
import { decideTrigger } from '../github/trigger.js';
import { isSecretName, knownSecrets, Redactor } from '../security/redactor.js';
import { mcpConfigInline, mcpServerSecrets, readMcpConfig } from '../tools/mcp/config.js';
import { readFile } from 'node:fs/promises';
import { guardRunnerFiles, type RunnerFilesGuard } from '../security/runner-files.js';
import { readRegularFile } from '../files/bounded-file.js';
import { Workspace } from '../tools/workspace.js';
import { codeSpan } from '../github/neutralize.js';
import { MAX_PROMPT_FILE_BYTES } from '../files/prompt-file-limit.js';
import { actorOf, commentIdOf, reactToTrigger, repositoryOf, threadOf } from './event-parts.js';
import { publishAfterFault } from './fault-report.js';
import { publishOutputs, type OutputSink } from './outputs.js';
import { publishChanges } from './publish-changes.js';
import { WorkflowCommandPause } from './workflow-commands.js';
import { readRunnerEnv, runUrl, type RunnerEnv } from './runner-env.js';
import { agentConfigFor } from './mcp-on-forks.js';
import { prepareWorkTarget, type WorkTarget } from './work-target.js';
import { continueOnPreviousBranch } from '../followup/continue-target.js';
import { startOnThread, threadRecordOf, type RunStart } from '../followup/follow-up.js';
import { renderFollowUp, type FollowUpNote } from '../followup/follow-up-report.js';
import { carriedStateOf, embedForReport } from '../followup/run-state.js';
import { STATE_FILE, stateFileText } from '../followup/state-file.js';
import { withSharedThreadReads } from '../followup/shared-thread-reads.js';
import { workOfTranscript } from '../followup/transcript-work.js';
import { errorMessage as describe } from '../errors/error-message.js';

const TRANSCRIPTS = '.transcripts';
/** A task longer than this is refused: it is a paste, not a request; put it in a file instead. */
export const MAX_TASK_CHARS = 20_000;

/** What every step needs: the runner, the inputs, the redactor, and the runner's command channel. */
interface RunContext {
  readonly runner: RunnerEnv;
  readonly env: NodeJS.ProcessEnv;
  readonly config: ActionConfig;
  readonly redact: (text: string) => string;
  /** Paused while the agent's processes run; warnings go through it (see workflow-commands.ts). */
  readonly commands: WorkflowCommandPause;
}

/** The action: route the event, check who asked, run the agent, publish its work, report. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const runner = readRunnerEnv(env);
  // Secrets are masked in the runner's log before anything is printed.
  // The MCP configuration (perhaps a file) is read once, here: its servers' keys are secrets too.
  const mcp = readMcpConfig(core.getInput('mcp_config'), 'mcp_config');
  const secrets = knownSecrets(env, [
    core.getInput('anthropic_api_key'),
    core.getInput('github_token'),
    ...(mcp.ok ? mcpServerSecrets(mcp.servers, isSecretName) : [])
  ]);
  for (const secret of secrets) core.setSecret(secret);
  const redactor = new Redactor(secrets);
  let event: ActionEvent;
  try {
    event = parseEvent(runner.eventName, await readPayload(runner.eventPath));
  } catch (error) {
    return failBeforeStart(redactor.redact(describe(error)));
  }
  // An event that does not ask for the agent is skipped before the inputs are judged: a comment
  // thread is no place for configuration errors nobody asked to see.
  const asked = earlyDecision(event);
  if (!asked.run) {
    core.info(`compact-agent skipped: ${asked.reason}.`);
    publishOutputs({ conclusion: 'skipped' });
    return;
  }
  let config: ActionConfig;
  try {
    // The servers read above pass on as inline JSON; a configuration with problems is judged again
    // with the other inputs, so its problems are reported with theirs.
    const input = (name: string) =>
      name === 'mcp_config' && mcp.ok ? mcpConfigInline(mcp.servers) : core.getInput(name);
    config = parseActionConfig(input, env);
    // google-github-actions/auth writes its credentials file into the workspace by default.
    const exposedCredentials = credentialFileInRepository(env, runner.workspace);
    if (exposedCredentials !== undefined) throw new InputError([exposedCredentials]);
  } catch (error) {
    const message = redactor.redact(describe(error));
    await replyOnThread(event, runner, env, `⚠️ compact-agent could not start.\n\n${message}`);
    return failBeforeStart(message);
  }
  try {
    await runForEvent(event, {
      runner,
      env,
      config,
      redact: redactor.redact,
      commands: new WorkflowCommandPause()
    });
  } catch (error) {
    core.setFailed(redactor.redact(describe(error)));
  }
}

async function runForEvent(event: ActionEvent, context: RunContext): Promise<void> {
  const { config, runner } = context;
  const settings = config.github;
  const prompt =
    config.agent.prompt ??
    (settings.promptFile ? await readPromptFile(runner.workspace, settings.promptFile) : undefined);
  const decision = decideTrigger(event, {
    triggerPhrase: settings.triggerPhrase,
    labelTrigger: settings.labelTrigger,
    assigneeTrigger: settings.assigneeTrigger,
    botLogin: settings.botName,
    prompt
  });
  if (!decision.run) {
    core.info(`compact-agent skipped: ${decision.reason}.`);
    publishOutputs({ conclusion: 'skipped' });
    return;
  }
  const github = new OctokitGitHubApi(settings.token, repositoryOf(event, runner), runner.apiUrl, {
    logger: { warning: context.commands.warning }
  });
  // The thread's comments and pull request are read once per run, whoever asks (shared-thread-reads.ts).
  const api = withSharedThreadReads(redactingGitHubApi(github, context.redact));
  const thread = threadOf(event, settings.reportIssue);
  const say = async (text: string) => {
    if (thread === undefined) return;
    await api
      .createComment(thread, text)
      .catch((error: unknown) => core.warning(`Could not reply: ${describe(error)}`));
  };

  // Each login's permission is asked once per run: the actor's answer serves the thread context too.
  const permissions = permissionsOncePerRun(api);
  const actor = actorOf(event);
  if (actor) {
    const check = await checkActor(permissions, actor, settings.allowedBots);
    if (!check.allowed) {
      core.info(`compact-agent refused: ${check.reason}.`);
      await say(`🚫 compact-agent did not start: ${check.reason}.`);
      publishOutputs({ conclusion: 'refused' });
      return;
    }
  }
  const task = await trustedTask(decision, permissions, actor, core.info);
  if (task.length > MAX_TASK_CHARS) {
    const message =
      `The request is ${task.length.toLocaleString('en-US')} characters long; compact-agent takes at most ` +
      `${MAX_TASK_CHARS.toLocaleString('en-US')}. Put long material in a file in the repository and refer to it.`;
    await say(`⚠️ compact-agent did not start. ${message}`);
    core.setFailed(message);
    publishOutputs({ conclusion: 'failure' });
    return;
  }
  await reactToTrigger(event, api);
  const repository = repositoryOf(event, runner);
  const bot = botIdentity(settings.botName, settings.botEmail);
  // Only a comment continues a run: a label or an assignment asks for the issue's work afresh.
  const start =
    thread !== undefined && (event.kind === 'issue_comment' || event.kind === 'pull_request_review_comment')
      ? await startOnThread(api, thread, {
          botLogin: settings.botName,
          ...(bot.id !== undefined ? { botId: bot.id } : {}),
          repositoryFullName: `${repository.owner}/${repository.name}`,
          task,
          redact: context.redact,
          artifacts: github,
          ...(event.repository.id !== undefined ? { repositoryId: event.repository.id } : {}),
          ...(pullRequestThread(event) !== undefined ? { pullRequest: pullRequestThread(event) } : {})
        })
      : freshStart(task);
  await runAndReport(event, start, context, api, thread, permissions);
}

function pullRequestThread(event: ActionEvent): number | undefined {
  if (event.kind === 'pull_request_review_comment') return event.pullRequest.number;
  if (event.kind === 'issue_comment' && event.issue.isPullRequest) return event.issue.number;
  return undefined;
}

function freshStart(task: string): RunStart {
  return { task, originalTask: task, request: task, previous: undefined, refusal: undefined };
}

async function runAndReport(
  event: ActionEvent,
  start: RunStart,
  context: RunContext,
  api: GitHubApi,
  thread: number | undefined,
  permissions: PermissionSource
): Promise<void> {
  const { runner, redact } = context;
  const link = runUrl(runner);
  const tracking =
    thread !== undefined
      ? new TrackingComment(api, thread, {
          runUrl: link,
          minIntervalMs: 15_000,
          now: Date.now,
          warn: context.commands.warning,
          reuseCommentBy: context.config.github.useStickyComment ? context.config.github.botName : undefined
        })
      : undefined;
  await tracking?.start();
  // From here on the thread shows "working": whatever fails, the comment must end as a report.
  const state: StartedRun = { step: 'preparing the work' };
  try {
    await runStarted(event, start, context, api, tracking, state, permissions);
  } catch (error) {
    state.fault = redact(describe(error));
    throw error;
  } finally {
    if (!state.reported)
      await finishAfterFault(tracking, state, context).catch((error: unknown) =>
        core.warning(redact(`Could not report the failure: ${describe(error)}`))
      );
  }
}

/** How far a started run got, for the report when one of its steps throws. */
interface StartedRun {
  step: string;
  /** Set once the report is on the thread (or would be, for a run without one). */
  reported?: boolean;
  fault?: string;
  session?: SessionOutcome;
  changes?: ChangesOutcome;
  artifact?: ArtifactOutcome;
  runnerFiles?: RunnerFilesGuard;
}

async function runStarted(
  event: ActionEvent,
  start: RunStart,
  context: RunContext,
  api: GitHubApi,
  tracking: TrackingComment | undefined,
  state: StartedRun,
  permissions: PermissionSource
): Promise<void> {
  const { config, runner, env, redact } = context;
  const settings = config.github;
  const link = runUrl(runner);
  // git is found now, before the agent could plant one on PATH, and only that file runs later.
  const git = new GitRepository(runner.workspace, {
    sourceEnv: env,
    binary: pinnedGit(env.PATH, [runner.workspace, ...(env.RUNNER_TEMP ? [env.RUNNER_TEMP] : [])])
  });
  await git.excludeFromCommits(`${TRANSCRIPTS}/`);
  const repository = repositoryOf(event, runner);
  // A scheduled run's payload names no repository: its checkout is the default branch.
  const defaultBranch = repository.defaultBranch ?? (await git.currentBranch());
  const prepared = await prepareWorkTarget(event, api, git, {
    branchPrefix: settings.branchPrefix,
    shortId: randomBytes(3).toString('hex'),
    defaultBranch,
    repositoryFullName: `${repository.owner}/${repository.name}`,
    baseBranch: settings.baseBranch
  });
  const { target, note } = await followUpTarget(start, prepared, api, git);
  const task = start.task;
  const baseCommit = await git.head();
  state.step = 'reading the thread';
  const threadContext = await buildThreadContext(event, api, {
    budgetTokens: settings.contextBudgetTokens,
    skipCommentId: commentIdOf(event),
    isTrusted: settings.includeUntrustedComments ? async () => true : writeAccessCheck(permissions)
  });

  const cancel = new AbortController();
  const onSignal = () => cancel.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // The agent must not find the push token: it is taken out of git's config for good and kept in
  // memory for the push. Nor may it leave anything in the runner's file commands for later steps.
  const guard = await guardRepository(git);
  const runnerFiles = guardRunnerFiles(env);
  state.runnerFiles = runnerFiles;
  state.step = "running the agent's turns";
  let session: SessionOutcome;
  // From the first process the agent could start (MCP servers start in runSession) to the end of its
  // last one, the runner obeys no command on the step's output: the agent can write there.
  context.commands.pause();
  try {
    session = await runSession({
      config: agentConfigFor(target, config.agent, (line) => core.warning(line)),
      // runSession redacts the task (a pasted token) with `redact`, as everything the model is sent.
      task: threadContext ? `${task}\n\n${threadContext}` : task,
      thread: threadRecordOf(start),
      repoDir: runner.workspace,
      transcriptsDir: path.join(runner.workspace, TRANSCRIPTS),
      runId: `${runner.runId}-${runner.runAttempt}`,
      env,
      signal: cancel.signal,
      redact,
      onNotice: (line) => core.info(redact(line)),
      onProgress: (update) => tracking?.update(update, update.activity.startsWith('compacted'))
    });
    state.session = session;
  } finally {
    // runSession has ended every process of the agent's (commands, their leftovers, MCP servers).
    context.commands.resume();
    warnRestoredRunnerFiles(runnerFiles);
  }

  state.step = 'publishing the changes';

  const changes = await publishChanges(target, baseCommit, guard.git, api, {
    identity: { name: settings.botName, email: settings.botEmail },
    defaultBranch,
    pullRequestType: settings.pullRequestType,
    commitTitle: redact(commitTitle(start.request)),
    runUrl: link,
    runDir: session.runDir,
    describe: () => session.result.summary || '(no summary)',
    readOnlyFolders: config.agent.allowWorkflowChanges ? [] : WORKFLOW_FOLDERS,
    excludedPaths: [`${TRANSCRIPTS}/`],
    containsSecret: (text) => redact(text) !== text,
    reclaimRepository: guard.reclaim,
    ...(actorOf(event) ? { coAuthor: actorOf(event) } : {})
  });
  if (changes.kind === 'pushed' && changes.pullRequestError) {
    core.warning(
      redact(
        `The branch ${changes.branch} was pushed, but the pull request failed: ${changes.pullRequestError}`
      )
    );
  }
  state.changes = changes;
  state.step = 'uploading the transcripts';
  const finished = {
    repository: `${repository.owner}/${repository.name}`,
    runId: `${runner.runId}-${runner.runAttempt}`,
    runUrl: link,
    task: start.originalTask,
    request: start.request,
    result: session.result,
    changes,
    ...whereTheWorkIs(target, changes),
    previous: start.previous,
    work: workOfTranscript(session.records.transcript.lines().join('\n')),
    transcriptHead: session.records.transcript.head
  };
  const artifact = await uploadTranscripts(runner, session, settings.transcriptRetentionDays, {
    redact,
    tempDir: env.RUNNER_TEMP,
    patch: changes.kind === 'patch' ? changes.patch : undefined,
    // The artifact's copy cannot know its own id; the report's copy does.
    state: stateFileText(
      carriedStateOf({ ...finished, artifact: { kind: 'failed', error: 'not uploaded yet' } }),
      redact
    )
  });
  state.artifact = artifact;
  state.step = 'posting the report';
  const hiddenState = embedForReport(carriedStateOf({ ...finished, artifact }), redact);
  const report = redact(
    renderReport({
      result: session.result,
      runUrl: link,
      changes,
      artifact,
      transcriptDir: path.relative(runner.workspace, session.runDir),
      transcriptHead: session.records.transcript.head,
      ...(note ? { followUp: renderFollowUp(note, { runUrl: link, costUsd: session.result.costUsd }) } : {}),
      reserveChars: hiddenState.length + 2
    })
  );
  await tracking?.finish(report, { replacedByReport: true, state: hiddenState });
  state.reported = true;
  writeJobSummary(runnerFiles, report);
  state.step = 'setting the outputs';
  publishOutputs(
    {
      conclusion: session.result.stopReason === 'success' ? 'success' : 'failure',
      session,
      changes,
      artifact,
      ...(tracking?.id !== undefined ? { commentId: tracking.id } : {})
    },
    guardedOutputs(runnerFiles)
  );
  if (session.result.stopReason !== 'success') {
    core.setFailed(
      redact(
        `compact-agent stopped with ${session.result.stopReason}: ${session.result.error ?? session.result.summary}`
      )
    );
  }
}

/**
 * A follow-up on an issue continues on the previous run's branch and PR when they are still there;
 * on a PR thread the PR's branch is already the target. The note tells the report which, and why.
 */
async function followUpTarget(
  start: RunStart,
  prepared: WorkTarget,
  api: GitHubApi,
  git: GitRepository
): Promise<{ target: WorkTarget; note: FollowUpNote | undefined }> {
  if (start.refusal !== undefined)
    return { target: prepared, note: { kind: 'fresh-after-refusal', reason: start.refusal } };
  const previous = start.previous;
  if (!previous) return { target: prepared, note: undefined };
  if (prepared.kind !== 'new-branch') {
    const whereNote =
      prepared.kind === 'fork'
        ? 'The pull request comes from a fork: the changes are a patch.'
        : `Continued on the pull request's branch ${codeSpan(prepared.branch)}.`;
    return { target: prepared, note: { kind: 'continued', previous, whereNote, source: start.source } };
  }
  const continued = await continueOnPreviousBranch(previous, prepared, api, git);
  return {
    target: continued.target,
    note: { kind: 'continued', previous, whereNote: continued.note, source: start.source }
  };
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

/**
 * A step threw after the tracking comment was posted: the comment becomes a report of what failed
 * (with the run's results so far, when the agent's turns had ended), and so does the job summary.
 */
async function finishAfterFault(
  tracking: TrackingComment | undefined,
  state: StartedRun,
  context: RunContext
): Promise<void> {
  const { runner, redact } = context;
  const { runnerFiles } = state;
  await publishAfterFault(
    state,
    { runUrl: runUrl(runner), workspace: runner.workspace },
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
            .catch((error: unknown) => core.warning(`No job summary: ${describe(error)}`));
      },
      setOutput: runnerFiles ? guardedOutputs(runnerFiles) : core.setOutput
    }
  );
}

/** The job summary, written only into the file the runner gave (never through a link the agent left). */
function writeJobSummary(runnerFiles: RunnerFilesGuard, report: string): void {
  const written = runnerFiles.append('GITHUB_STEP_SUMMARY', `${report}\n`);
  if (!written.written) core.warning(`No job summary: ${written.reason}; nothing was written there.`);
}

/** Outputs after the agent's turns go through the guard: GITHUB_OUTPUT must still be the runner's file. */
function guardedOutputs(runnerFiles: RunnerFilesGuard): OutputSink {
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

function warnRestoredRunnerFiles(runnerFiles: RunnerFilesGuard): void {
  for (const file of runnerFiles.restore()) {
    core.warning(
      file.replaced
        ? `The agent's run replaced the runner file ${file.name} (with a link, another file or a FIFO); nothing was written through it, and a new file with its old contents is in its place.`
        : `The agent's run changed the runner file ${file.name}; it was put back as it was.`
    );
  }
}

/**
 * Uploads the run's record, whatever happened: built from the action's own copies in a private
 * folder, never from `.transcripts/` as the agent left it. A failure is a warning and the report says so.
 */
async function uploadTranscripts(
  runner: RunnerEnv,
  session: SessionOutcome,
  retentionDays: number | undefined,
  options: {
    redact: (text: string) => string;
    tempDir: string | undefined;
    patch: string | undefined;
    /** The carried state's file, for `compact-agent run --resume <artifact zip>`. */
    state: string;
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
      retentionDays,
      staged.files
    );
    return { kind: 'uploaded', id: uploaded.id, url: `${runUrl(runner)}/artifacts/${uploaded.id}`, name };
  } catch (error) {
    // Storage errors come with request ids on several lines: the first says what failed.
    const message = describe(error).split('\n')[0]!.trim();
    core.warning(`The transcripts could not be uploaded: ${message}`);
    return { kind: 'failed', error: message };
  } finally {
    await staged?.remove().catch(() => undefined);
  }
}

/** Whether the event asks for the agent, judged from the raw trigger inputs (they need no validation). */
function earlyDecision(event: ActionEvent) {
  return decideTrigger(event, {
    triggerPhrase: core.getInput('trigger_phrase') || GITHUB_DEFAULTS.trigger_phrase,
    labelTrigger: core.getInput('label_trigger') || undefined,
    assigneeTrigger: core.getInput('assignee_trigger') || undefined,
    botLogin: core.getInput('bot_name') || GITHUB_DEFAULTS.bot_name,
    prompt: core.getInput('prompt') || core.getInput('prompt_file') || undefined
  });
}

/** Bad inputs are said where the person who asked will see them: a reply on the thread. */
async function replyOnThread(
  event: ActionEvent,
  runner: RunnerEnv,
  env: NodeJS.ProcessEnv,
  text: string
): Promise<void> {
  const token = core.getInput('github_token') || env.GITHUB_TOKEN;
  const thread = threadOf(event, undefined);
  if (!token || thread === undefined) return;
  try {
    const api = new OctokitGitHubApi(token, repositoryOf(event, runner), runner.apiUrl);
    await api.createComment(thread, text);
  } catch (error) {
    core.warning(`Could not post the error on #${thread}: ${describe(error)}`);
  }
}

function failBeforeStart(message: string): void {
  core.setFailed(message);
  publishOutputs({ conclusion: 'failure' });
  void core.summary
    .addRaw(`## compact-agent did not start\n\n${message}\n`)
    .write()
    .catch(() => undefined);
}

function commitTitle(task: string): string {
  const first = task.split('\n')[0]!.trim();
  return `agent: ${first.length > 60 ? `${first.slice(0, 59)}…` : first}`;
}

async function readPayload(eventPath: string | undefined): Promise<unknown> {
  if (!eventPath) return {};
  try {
    return JSON.parse(await readFile(eventPath, 'utf8'));
  } catch (error) {
    throw new InputError([`The event payload at ${eventPath} could not be read as JSON: ${describe(error)}`]);
  }
}

async function readPromptFile(workspace: string, file: string): Promise<string> {
  try {
    // Inside the workspace and a regular file only: a link the checked-out repository holds could
    // name a runner file outside it (whose text would go to the model), a FIFO or /dev/zero.
    const inside = new Workspace(workspace).resolveForRead(file);
    const text = (await readRegularFile(inside, MAX_PROMPT_FILE_BYTES)).toString('utf8').trim();
    if (text === '') throw new Error('it is empty');
    return text;
  } catch (error) {
    throw new InputError([`prompt_file ${file} could not be used: ${describe(error)}`]);
  }
}
