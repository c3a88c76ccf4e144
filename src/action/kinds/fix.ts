import { FIX_MODE } from '../../agent/run-mode.js';
import type { RunStart } from '../../followup/start-on-thread.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import { publishWork } from '../stages/publish.js';
import type { RunKind } from './run-kind.js';

/**
 * A run that changes the repository (`/agent fix …`, a label, a prompt, an approved plan): publishing
 * one commit on a branch with a pull request (or a patch where it may not push).
 */
export function fixKind(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart,
  options: { readonly commitTitle?: string } = {}
): RunKind {
  return {
    prepare: async () => ({ mode: FIX_MODE }),
    publishStep: 'publishing the changes',
    publish: async (workspace, agent) => ({
      changes: await publishWork(action, request, start, workspace, agent, options.commitTitle)
    })
  };
}
