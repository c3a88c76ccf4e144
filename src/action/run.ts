import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runSession, type SessionOutcome } from '../agent/session.js';
import {
  ActionsArtifactUploader,
  transcriptArtifactName,
  type ArtifactUploader
} from '../artifacts/transcript-artifact.js';
import { parseActionConfig, type ActionConfig } from '../config/github-inputs.js';
import { InputError } from '../config/inputs.js';
import { parseEvent, type ActionEvent, type Actor } from '../github/event.js';
import type { GitHubApi } from '../github/github-api.js';
import { OctokitGitHubApi } from '../github/octokit-api.js';
import { checkActor } from '../github/permissions.js';
import { renderReport, type ArtifactOutcome } from '../github/report.js';
import { buildThreadContext } from '../github/thread-context.js';
import { TrackingComment } from '../github/tracking-comment.js';
import { decideTrigger } from '../github/trigger.js';
import { GitRepository } from '../git/repository.js';
import { publishOutputs } from './outputs.js';
import { publishChanges } from './publish-changes.js';
import { readRunnerEnv, runUrl, type RunnerEnv } from './runner-env.js';
import { prepareWorkTarget } from './work-target.js';

const TRANSCRIPTS = '.transcripts';

/** The action: route the event, check who asked, run the agent, publish its work, report. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const runner = readRunnerEnv(env);
  let config: ActionConfig;
  let event: ActionEvent;
  try {
    config = parseActionConfig((name) => core.getInput(name), env);
    core.setSecret(config.agent.apiKey);
    core.setSecret(config.github.token);
    event = parseEvent(runner.eventName, await readPayload(runner.eventPath));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await core.summary
      .addRaw(`## compact-agent did not start\n\n${message}\n`)
      .write()
      .catch(() => undefined);
    core.setFailed(message);
    publishOutputs({ conclusion: 'failure' });
    return;
  }
  try {
    await runForEvent(event, config, runner, env);
  } catch (error) {
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}

async function runForEvent(
  event: ActionEvent,
  config: ActionConfig,
  runner: RunnerEnv,
  env: NodeJS.ProcessEnv
): Promise<void> {
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
  const repository = repositoryOf(event, runner);
  const api = new OctokitGitHubApi(settings.token, repository, runner.apiUrl);
  const thread = threadOf(event, settings.reportIssue);

  const actor = actorOf(event);
  if (actor) {
    const check = await checkActor(api, actor, settings.allowedBots);
    if (!check.allowed) {
      core.info(`compact-agent refused: ${check.reason}.`);
      if (thread !== undefined) {
        await api
          .createComment(thread, `🚫 compact-agent did not start: ${check.reason}.`)
          .catch((error: unknown) => core.warning(`Could not post the refusal: ${String(error)}`));
      }
      publishOutputs({ conclusion: 'refused' });
      return;
    }
  }
  await reactToTrigger(event, api);
  await runAndReport(event, decision.task, config, runner, env, api, thread);
}

async function runAndReport(
  event: ActionEvent,
  task: string,
  config: ActionConfig,
  runner: RunnerEnv,
  env: NodeJS.ProcessEnv,
  api: GitHubApi,
  thread: number | undefined
): Promise<void> {
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

  const git = new GitRepository(runner.workspace, env);
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
  const context = await buildThreadContext(event, api, settings.contextBudgetTokens, commentIdOf(event));

  const cancel = new AbortController();
  process.once('SIGINT', () => cancel.abort());
  process.once('SIGTERM', () => cancel.abort());
  const session: SessionOutcome = await runSession({
    config: config.agent,
    task: context ? `${task}\n\n${context}` : task,
    repoDir: runner.workspace,
    transcriptsDir: path.join(runner.workspace, TRANSCRIPTS),
    runId: `${runner.runId}-${runner.runAttempt}`,
    env,
    signal: cancel.signal,
    onProgress: (update) => tracking?.update(update, update.activity.startsWith('compacted'))
  });

  const changes = await publishChanges(target, baseCommit, git, api, {
    identity: { name: settings.botName, email: settings.botEmail },
    defaultBranch,
    pullRequestType: settings.pullRequestType,
    commitTitle: commitTitle(task),
    runUrl: link,
    runDir: session.runDir,
    describe: () => session.result.summary || '(no summary)'
  });
  const artifact = await uploadTranscripts(
    new ActionsArtifactUploader(),
    runner,
    session,
    settings.transcriptRetentionDays
  );
  const report = renderReport({
    result: session.result,
    runUrl: link,
    changes,
    artifact,
    transcriptDir: session.runDir
  });
  await tracking?.finish(report);
  await core.summary
    .addRaw(report)
    .write()
    .catch((error: unknown) => core.warning(`No job summary: ${String(error)}`));
  publishOutputs({
    conclusion: session.result.stopReason === 'success' ? 'success' : 'failure',
    session,
    changes,
    artifact,
    ...(tracking?.id !== undefined ? { commentId: tracking.id } : {})
  });
  if (session.result.stopReason !== 'success') {
    core.setFailed(
      `compact-agent stopped with ${session.result.stopReason}: ${session.result.error ?? session.result.summary}`
    );
  }
}

/** Uploads `.transcripts/`, whatever happened: a failure is a warning and the report says so. */
async function uploadTranscripts(
  uploader: ArtifactUploader,
  runner: RunnerEnv,
  session: SessionOutcome,
  retentionDays: number | undefined
): Promise<ArtifactOutcome> {
  try {
    const uploaded = await uploader.upload(
      transcriptArtifactName(runner.runId, runner.runAttempt),
      path.dirname(session.runDir),
      retentionDays
    );
    return { kind: 'uploaded', id: uploaded.id, url: `${runUrl(runner)}/artifacts/${uploaded.id}` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    core.warning(`The transcripts could not be uploaded: ${message}`);
    return { kind: 'failed', error: message };
  }
}

async function reactToTrigger(event: ActionEvent, api: GitHubApi): Promise<void> {
  const target =
    event.kind === 'issue_comment'
      ? ({ kind: 'issue_comment', id: event.comment.id } as const)
      : event.kind === 'pull_request_review_comment'
        ? ({ kind: 'review_comment', id: event.comment.id } as const)
        : undefined;
  if (!target) return;
  await api
    .addReaction(target, 'eyes')
    .catch((error: unknown) => core.warning(`Could not react: ${String(error)}`));
}

/** The issue or PR the run answers in: the event's thread, or report_issue for dispatched runs. */
function threadOf(event: ActionEvent, reportIssue: number | undefined): number | undefined {
  switch (event.kind) {
    case 'issue_comment':
    case 'issues':
      return event.issue.number;
    case 'pull_request_review_comment':
      return event.pullRequest.number;
    default:
      return reportIssue;
  }
}

function actorOf(event: ActionEvent): Actor | undefined {
  switch (event.kind) {
    case 'issue_comment':
    case 'pull_request_review_comment':
      return event.comment.user;
    case 'issues':
      return event.sender;
    default:
      return undefined;
  }
}

function commentIdOf(event: ActionEvent): number | undefined {
  return event.kind === 'issue_comment' || event.kind === 'pull_request_review_comment'
    ? event.comment.id
    : undefined;
}

function repositoryOf(
  event: ActionEvent,
  runner: RunnerEnv
): { owner: string; name: string; defaultBranch: string | undefined } {
  const fromEvent = event.kind === 'other' ? undefined : event.repository;
  if (fromEvent) return fromEvent;
  if (!runner.repository)
    throw new InputError(['GITHUB_REPOSITORY is not set: the action must run in a workflow.']);
  return { ...runner.repository, defaultBranch: undefined };
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
    throw new InputError([
      `The event payload at ${eventPath} could not be read as JSON: ${(error as Error).message}`
    ]);
  }
}

async function readPromptFile(workspace: string, file: string): Promise<string> {
  try {
    const text = (await readFile(path.resolve(workspace, file), 'utf8')).trim();
    if (text === '') throw new Error('it is empty');
    return text;
  } catch (error) {
    throw new InputError([`prompt_file ${file} could not be used: ${(error as Error).message}`]);
  }
}
