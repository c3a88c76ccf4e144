import { FIX_MODE } from '../../agent/run-mode.js';
import type { RunStart } from '../../followup/follow-up.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import { agentRun } from '../stages/agent-run.js';
import { publishWork } from '../stages/publish.js';

/**
 * A run that changes the repository (`/agent fix …`, a label, a prompt, an approved plan): the shared
 * stages, publishing one commit on a branch with a pull request (or a patch where it may not push).
 */
export async function fixRun(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart,
  options: { readonly commitTitle?: string } = {}
): Promise<void> {
  await agentRun(action, request, start, {
    prepare: async () => ({ mode: FIX_MODE }),
    publishStep: 'publishing the changes',
    publish: async (workspace, agent) => ({
      changes: await publishWork(action, request, start, workspace, agent, options.commitTitle)
    })
  });
}
