import { githubClientsOf } from './github-clients.js';
import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';
import { continueOnPreviousBranch, type ContinueRules } from '../../followup/continue-target.js';
import { botIdentity } from '../../github/events/bot-author.js';
import type { RunStart } from '../../followup/start-on-thread.js';
import type { FollowUpNote } from '../../followup/follow-up-report.js';
import { pinnedGit } from '../../git/git-binary.js';
import { GitRepository } from '../../git/repository.js';
import type { ActionEvent } from '../../github/events/event.js';
import type { GitHubApi } from '../../github/api/github-api.js';
import { readInstructionsForRun, type InstructionOrigin } from '../../instructions/for-run.js';
import { describeInstructions, type RepositoryInstructions } from '../../instructions/instruction-files.js';
import { codeSpan } from '../../github/markdown/outbound-neutralize.js';
import { writeAccessCheck } from '../../github/events/permissions.js';
import { buildThreadContext } from '../../github/events/thread-context.js';
import { commentIdOf, repositoryOf } from '../event-parts.js';
import { prepareWorkTarget, type WorkTarget } from '../work-target.js';
import { TRANSCRIPTS, type AcceptedRequest, type ActionContext, type RunProgress } from './action-context.js';

/** The checkout made ready for the agent: where its work goes, from which commit, and its first message. */
export interface PreparedWorkspace {
  /** The action's own git, found before the agent could plant one on PATH. */
  readonly git: GitRepository;
  readonly target: WorkTarget;
  readonly defaultBranch: string;
  readonly baseCommit: string;
  /** For the report: how this run relates to the runs before it on the thread. */
  readonly note: FollowUpNote | undefined;
  /** The first message: the task (or the resume task), then the thread as context. */
  readonly firstMessage: string;
  /** The thread as context ('' when there is none), for a kind of run that states its own task. */
  readonly threadContext: string;
  /** The repository's instruction files for the system prompt; undefined when instruction_files is none. */
  readonly instructions: RepositoryInstructions | undefined;
}

/**
 * Checks out the branch the work goes to (a new one, the pull request's, or a follow-up's previous
 * one), notes the base commit, and reads the thread for the agent's context.
 */
export async function prepareWorkspace(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart,
  progress: RunProgress
): Promise<PreparedWorkspace> {
  const { runner, env, event } = action;
  const settings = action.config.github;
  const git = new GitRepository(runner.workspace, {
    sourceEnv: env,
    binary: pinnedGit(env.PATH, [runner.workspace, ...(env.RUNNER_TEMP ? [env.RUNNER_TEMP] : [])])
  });
  await git.excludeFromCommits(`${TRANSCRIPTS}/`);
  const repository = repositoryOf(event, runner);
  // A scheduled run's payload names no repository: its checkout is the default branch.
  const defaultBranch = repository.defaultBranch ?? (await git.currentBranch());
  const prepared = await prepareWorkTarget(event, request.api, git, {
    branchPrefix: settings.branchPrefix,
    shortId: randomBytes(3).toString('hex'),
    defaultBranch,
    repositoryFullName: `${repository.owner}/${repository.name}`,
    baseBranch: settings.baseBranch
  });
  const rules: ContinueRules = {
    branchPrefix: settings.branchPrefix,
    defaultBranch,
    bot: botIdentity(settings.botName, settings.botEmail),
    protection: githubClientsOf(action).branchProtection()
  };
  const { target, note } = await followUpTarget(start, prepared, request.api, git, rules);
  const baseCommit = await git.head();
  progress.step = "reading the repository's instruction files";
  // Before the agent's first turn, and for a pull request from its base (see instructions/for-run.ts).
  const instructions = await readInstructionsForRun(
    await instructionOrigin(git, event, target, request.api, env.GITHUB_BASE_REF),
    action.config.agent.instructionFiles,
    // The folders the run works in are those the request names, and a review comment's file.
    event.kind === 'pull_request_review_comment' ? `${start.request}\n${event.comment.path}` : start.request
  );
  if (instructions) core.info(action.redact(describeInstructions(instructions)));
  progress.step = 'reading the thread';
  const threadContext = await buildThreadContext(event, request.api, {
    budgetTokens: settings.contextBudgetTokens,
    skipCommentId: commentIdOf(event),
    isTrusted: settings.includeUntrustedComments ? async () => true : writeAccessCheck(request.permissions)
  });
  const firstMessage = firstMessageOf(start.task, threadContext);
  return { git, target, defaultBranch, baseCommit, note, firstMessage, threadContext, instructions };
}

/**
 * A run on a branch others wrote (a pull request's, a previous run's) reads its base's instructions.
 * So does a run in a workflow started by a pull_request event (with a prompt): its checkout is the
 * pull request's merge commit, and the runner names the base in GITHUB_BASE_REF (set for no other event).
 */
async function instructionOrigin(
  git: GitRepository,
  event: ActionEvent,
  target: WorkTarget,
  api: GitHubApi,
  pullRequestBase: string | undefined
): Promise<InstructionOrigin> {
  switch (target.kind) {
    case 'new-branch':
      return pullRequestBase
        ? { kind: 'base-branch', git, branch: pullRequestBase }
        : { kind: 'checkout', root: git.root };
    case 'continued-branch':
      return { kind: 'base-branch', git, branch: target.base };
    case 'pull-request-branch':
    case 'fork':
      return {
        kind: 'base-branch',
        git,
        branch:
          event.kind === 'pull_request_review_comment'
            ? event.pullRequest.baseRef
            : (await api.getPullRequest(target.pullNumber)).baseRef
      };
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
  git: GitRepository,
  rules: ContinueRules
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
  const continued = await continueOnPreviousBranch(previous, prepared, api, git, rules);
  return {
    target: continued.target,
    note: { kind: 'continued', previous, whereNote: continued.note, source: start.source }
  };
}

/** A run's first message: its task, then the thread as context when there is one. */
export function firstMessageOf(task: string, threadContext: string): string {
  return threadContext === '' ? task : `${task}\n\n${threadContext}`;
}
