import * as core from '@actions/core';
import { errorMessage } from '../errors/error-message.js';
import { fanoutDecision, runFanoutRole } from './fanout/role-dispatch.js';
import { checkTrust } from './stages/check-trust.js';
import { decide } from './stages/decide.js';
import { runRequest } from './stages/run-request.js';
import { setUp } from './stages/set-up.js';

/**
 * The action, as the list of its stages. Each stage is a module of ./stages with typed input and
 * output, and ends the run itself (skipped, refused, failed) when it returns nothing:
 *
 * 1. set up: mask the secrets, read the event, judge the inputs (only for an event that asks);
 * 2. decide: does the event ask for the agent, and what;
 * 3. check trust: may the person who asked start a run, and which text is the task;
 * 4. run the request (run-request.ts): choose the run (kinds/choose-run.ts), and run its kind (a fix,
 *    a plan, an approved plan or a review, from kinds/dispatch.ts) through the shared stages of
 *    shared-stages.ts (prepare the workspace, the agent's turns, publish, upload the record, report),
 *    each kind with its own mode and its own way to publish.
 *
 * A job of a fan-out workflow (the `fanout` input: plan, shard or land) is decided and trusted the
 * same way, then runs its role (fanout/role-dispatch.ts) instead of a request.
 */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const action = await setUp(env);
  if (!action) return;
  try {
    const fanout = action.config.fanout;
    const decision = fanout ? await fanoutDecision(action, fanout) : await decide(action);
    if (!decision) return;
    const request = await checkTrust(action, decision);
    if (!request) return;
    if (fanout) await runFanoutRole(action, request, fanout);
    else await runRequest(action, request);
  } catch (error) {
    core.setFailed(action.redact(errorMessage(error)));
  }
}
