import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runSession, WORKFLOW_FOLDERS, type SessionOutcome } from '../agent/session.js';
import { stageRunArtifact, type StagedArtifact } from '../artifacts/stage-run.js';
import { ActionsArtifactUploader, transcriptArtifactName } from '../artifacts/transcript-artifact.js';
import { GITHUB_DEFAULTS, parseActionConfig, type ActionConfig } from '../config/github-inputs.js';
import { InputError } from '../config/inputs.js';
import { pinnedGit } from '../git/git-binary.js';
import { guardRepository } from '../git/repository-guard.js';
import { GitRepository } from '../git/repository.js';
import { parseEvent, type ActionEvent } from '../github/event.js';
import type { GitHubApi } from '../github/github-api.js';
import { OctokitGitHubApi } from '../github/octokit-api.js';
import { checkActor, writeAccessCheck } from '../github/permissions.js';
import { redactingGitHubApi } from '../github/redacting-api.js';
import { renderReport, type ArtifactOutcome } from '../github/report.js';
import { buildThreadContext } from '../github/thread-context.js';
import { TrackingComment } from '../github/tracking-comment.js';
import { decideTrigger } from '../github/trigger.js';
import { knownSecrets, Redactor } from '../security/redactor.js';
import { guardRunnerFiles } from '../security/runner-files.js';
import { actorOf, commentIdOf, reactToTrigger, repositoryOf, threadOf } from './event-parts.js';
import { publishOutputs } from './outputs.js';
import { publishChanges } from './publish-changes.js';
import { readRunnerEnv, runUrl, type RunnerEnv } from './runner-env.js';
import { prepareWorkTarget } from './work-target.js';

const TRANSCRIPTS = '.transcripts';
/** A task longer than this is refused: it is a paste, not a request; put it in a file instead. */
export const MAX_TASK_CHARS = 20_000;

/** What every step needs: the runner, the inputs, the redactor, and a log that redacts. */
interface RunContext {
  readonly runner: RunnerEnv;
  readonly env: NodeJS.ProcessEnv;
  readonly config: ActionConfig;
  readonly redact: (text: string) => string;
}

/** The action: route the event, check who asked, run the agent, publish its work, report. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const runner = readRunnerEnv(env);
  // Secrets are masked in the runner's log before anything is printed.
  const secrets = knownSecrets(env, [core.getInput('anthropic_api_key'), core.getInput('github_token')]);
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
    config = parseActionConfig((name) => core.getInput(name), env);
  } catch (error) {
    const message = redactor.redact(describe(error));
    await replyOnThread(event, runner, env, `⚠️ compact-agent could not start.\n\n${message}`);
    return failBeforeStart(message);
  }
  try {
    await runForEvent(event, { runner, env, config, redact: redactor.redact });
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
  const api = redactingGitHubApi(
    new OctokitGitHubApi(settings.token, repositoryOf(event, runner), runner.apiUrl),
    context.redact
  );
  const thread = threadOf(event, settings.reportIssue);
  const say = async (text: string) => {
    if (thread === undefined) return;
    await api
      .createComment(thread, text)
      .catch((error: unknown) => core.warning(`Could not reply: ${describe(error)}`));
  };

  const actor = actorOf(event);
  if (actor) {
    const check = await checkActor(api, actor, settings.allowedBots);
    if (!check.allowed) {
      core.info(`compact-agent refused: ${check.reason}.`);
      await say(`🚫 compact-agent did not start: ${check.reason}.`);
      publishOutputs({ conclusion: 'refused' });
      return;
    }
  }
  if (decision.task.length > MAX_TASK_CHARS) {
    const message =
      `The request is ${decision.task.length.toLocaleString('en-US')} characters long; compact-agent takes at most ` +
      `${MAX_TASK_CHARS.toLocaleString('en-US')}. Put long material in a file in the repository and refer to it.`;
    await say(`⚠️ compact-agent did not start. ${message}`);
    core.setFailed(message);
    publishOutputs({ conclusion: 'failure' });
    return;
  }
  await reactToTrigger(event, api);
  await runAndReport(event, decision.task, context, api, thread);
}

async function runAndReport(
  event: ActionEvent,
  task: string,
  context: RunContext,
  api: GitHubApi,
  thread: number | undefined
): Promise<void> {
  const { config, runner, env, redact } = context;
  const settings = config.github;
  const link = runUrl(runner);
  const tracking =
    thread !== undefined
      ? new TrackingComment(api, thread, {
          runUrl: link,
          minIntervalMs: 15_000,
          now: Date.now,
          warn: core.warning
        })
      : undefined;
  await tracking?.start();

  // git is found now, before the agent could plant one on PATH, and only that file runs later.
  const git = new GitRepository(runner.workspace, {
    sourceEnv: env,
    binary: pinnedGit(env.PATH, [runner.workspace, ...(env.RUNNER_TEMP ? [env.RUNNER_TEMP] : [])])
  });
  await git.excludeFromCommits(`${TRANSCRIPTS}/`);
  const repository = repositoryOf(event, runner);
  // A scheduled run's payload names no repository: its checkout is the default branch.
  const defaultBranch = repository.defaultBranch ?? (await git.currentBranch());
  const target = await prepareWorkTarget(event, api, git, {
    branchPrefix: settings.branchPrefix,
    shortId: randomBytes(3).toString('hex'),
    defaultBranch,
    repositoryFullName: `${repository.owner}/${repository.name}`
  });
  const baseCommit = await git.head();
  const threadContext = await buildThreadContext(event, api, {
    budgetTokens: settings.contextBudgetTokens,
    skipCommentId: commentIdOf(event),
    isTrusted: settings.includeUntrustedComments ? async () => true : writeAccessCheck(api)
  });

  const cancel = new AbortController();
  const onSignal = () => cancel.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // The agent must not find the push token: it is taken out of git's config for good and kept in
  // memory for the push. Nor may it leave anything in the runner's file commands for later steps.
  const guard = await guardRepository(git);
  const runnerFiles = await guardRunnerFiles(env);
  let session: SessionOutcome;
  try {
    session = await runSession({
      config: config.agent,
      task: threadContext ? `${task}\n\n${threadContext}` : task,
      repoDir: runner.workspace,
      transcriptsDir: path.join(runner.workspace, TRANSCRIPTS),
      runId: `${runner.runId}-${runner.runAttempt}`,
      env,
      signal: cancel.signal,
      redact,
      onProgress: (update) => tracking?.update(update, update.activity.startsWith('compacted'))
    });
  } finally {
    for (const file of await runnerFiles.restore()) {
      core.warning(
        `The agent's run changed the runner file ${path.basename(file)}; it was put back as it was.`
      );
    }
  }

  const changes = await publishChanges(target, baseCommit, guard.git, api, {
    identity: { name: settings.botName, email: settings.botEmail },
    defaultBranch,
    pullRequestType: settings.pullRequestType,
    commitTitle: redact(commitTitle(task)),
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
  const artifact = await uploadTranscripts(runner, session, settings.transcriptRetentionDays, {
    redact,
    tempDir: env.RUNNER_TEMP,
    patch: changes.kind === 'patch' ? changes.patch : undefined
  });
  const report = redact(
    renderReport({
      result: session.result,
      runUrl: link,
      changes,
      artifact,
      transcriptDir: path.relative(runner.workspace, session.runDir),
      transcriptHead: session.records.transcript.head
    })
  );
  await tracking?.finish(report);
  await core.summary
    .addRaw(report)
    .write()
    .catch((error: unknown) => core.warning(`No job summary: ${describe(error)}`));
  publishOutputs({
    conclusion: session.result.stopReason === 'success' ? 'success' : 'failure',
    session,
    changes,
    artifact,
    ...(tracking?.id !== undefined ? { commentId: tracking.id } : {})
  });
  if (session.result.stopReason !== 'success') {
    core.setFailed(
      redact(
        `compact-agent stopped with ${session.result.stopReason}: ${session.result.error ?? session.result.summary}`
      )
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
  options: { redact: (text: string) => string; tempDir: string | undefined; patch: string | undefined }
): Promise<ArtifactOutcome> {
  let staged: StagedArtifact | undefined;
  try {
    staged = await stageRunArtifact(session.records, {
      redact: options.redact,
      ...(options.tempDir ? { parentDir: options.tempDir } : {}),
      extraFiles: options.patch !== undefined ? [{ name: 'changes.patch', text: options.patch }] : []
    });
    for (const finding of staged.findings)
      core.warning(options.redact(`The run's record was tampered with: ${finding}`));
    const uploaded = await new ActionsArtifactUploader().upload(
      transcriptArtifactName(runner.runId, runner.runAttempt),
      staged.dir,
      retentionDays,
      staged.files
    );
    return { kind: 'uploaded', id: uploaded.id, url: `${runUrl(runner)}/artifacts/${uploaded.id}` };
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
    const text = (await readFile(path.resolve(workspace, file), 'utf8')).trim();
    if (text === '') throw new Error('it is empty');
    return text;
  } catch (error) {
    throw new InputError([`prompt_file ${file} could not be used: ${describe(error)}`]);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
