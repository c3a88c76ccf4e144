import * as core from '@actions/core';
import { WORKFLOW_FOLDERS } from '../../agent/session.js';
import type { RunStart } from '../../followup/start-on-thread.js';
import type { ChangesOutcome } from '../../github/report/report.js';
import { actorOf } from '../event-parts.js';
import { publishChanges } from '../publish-changes.js';
import { runUrl } from '../runner-env.js';
import { TRANSCRIPTS, type AcceptedRequest, type ActionContext } from './action-context.js';
import type { AgentRun } from './agent-turns.js';
import type { PreparedWorkspace } from './prepare-workspace.js';

/**
 * Publishes the agent's work: one commit by the bot on the base, pushed to the target branch with
 * a pull request, or a patch where the run may not push (a fork). Workflow and submodule changes
 * are withheld unless allowed, and a diff that holds a secret is not pushed.
 */
export async function publishWork(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart,
  workspace: PreparedWorkspace,
  agent: AgentRun,
  /** The commit's title when the request is not one (`go` approving a plan): the thread's task. */
  title: string = start.request
): Promise<ChangesOutcome> {
  const { config, redact } = action;
  const settings = config.github;
  const { session, guard } = agent;
  const actor = actorOf(action.event);
  const changes = await publishChanges(workspace.target, workspace.baseCommit, guard.git, request.api, {
    identity: { name: settings.botName, email: settings.botEmail },
    defaultBranch: workspace.defaultBranch,
    pullRequestType: settings.pullRequestType,
    commitTitle: redact(commitTitle(title)),
    runUrl: runUrl(action.runner),
    runDir: session.runDir,
    describe: () => session.result.summary || '(no summary)',
    readOnlyFolders: config.agent.allowWorkflowChanges ? [] : WORKFLOW_FOLDERS,
    allowSubmoduleChanges: settings.allowSubmoduleChanges,
    excludedPaths: [`${TRANSCRIPTS}/`],
    containsSecret: (text) => redact(text) !== text,
    reclaimRepository: guard.reclaim,
    ...(actor ? { coAuthor: actor } : {}),
    ...(guard.pushCredential === 'github_token' ? { pushFailureHint: GITHUB_TOKEN_PUSH_HINT } : {})
  });
  if (changes.kind === 'pushed' && changes.pullRequestError) {
    core.warning(
      redact(
        `The branch ${changes.branch} was pushed, but the pull request failed: ${changes.pullRequestError}`
      )
    );
  }
  return changes;
}

/** A push with github_token fails for reasons of that token's: say which, where the failure is read. */
const GITHUB_TOKEN_PUSH_HINT =
  "the push used github_token, not the checkout's credential: a GitHub App needs Contents read and write " +
  'on this repository (and Workflows for changes under .github/workflows/), and its token expires an hour after it was made';

function commitTitle(task: string): string {
  const first = task.split('\n')[0]!.trim();
  return `agent: ${first.length > 60 ? `${first.slice(0, 59)}…` : first}`;
}
