import * as core from '@actions/core';
import { rm } from 'node:fs/promises';
import type { FanoutSettings } from '../../config/fanout-inputs.js';
import { errorMessage } from '../../errors/error-message.js';
import { publishOutputs } from '../outputs.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import { decide, type Decision } from '../stages/decide.js';
import { runLandRole } from './land-role.js';
import { openFanoutJob } from './fanout-job.js';
import { runPlanRole } from './plan-role.js';
import { runShardRole } from './shard-role.js';

/** The events a fan-out job may run on: a person's dispatch (with write access) or the schedule. */
const FANOUT_EVENTS: readonly string[] = ['workflow_dispatch', 'schedule'];

/**
 * Whether a fan-out job runs, and its task: only in a dispatched or scheduled workflow; a new plan's
 * task is the prompt (or prompt_file), as any dispatched run's; a resume, a shard and the landing
 * take theirs from the plan. The trust check that follows is every run's (checkTrust).
 */
export async function fanoutDecision(
  action: ActionContext,
  fanout: FanoutSettings
): Promise<Decision | undefined> {
  if (!FANOUT_EVENTS.includes(action.event.kind)) {
    const message =
      `fanout: ${fanout.role} runs in a workflow started by workflow_dispatch or schedule, not by ` +
      `${action.event.kind}. Move the fan-out jobs to their own workflow (docs/fanout.md shows one), and ` +
      'start it with /agent fanout or from the Actions tab.';
    core.setFailed(message);
    publishOutputs({ conclusion: 'failure', noChangeReason: `did not start: ${message}` });
    return undefined;
  }
  if (fanout.role === 'plan' && fanout.resumeRunId === undefined) return decide(action);
  if (fanout.role === 'plan' && action.config.agent.prompt !== undefined)
    core.info(
      `A resume keeps the prompt of the plan it resumes (run ${fanout.resumeRunId}); the prompt input is not used.`
    );
  return { run: true, task: `fan-out ${fanout.role}` };
}

/** Runs the job's role; a failure ends the job red with its reason, as any run's. */
export async function runFanoutRole(
  action: ActionContext,
  request: AcceptedRequest,
  fanout: FanoutSettings
): Promise<void> {
  const job = await openFanoutJob(action, request);
  try {
    switch (fanout.role) {
      case 'plan':
        return await runPlanRole(job, fanout);
      case 'shard':
        return await runShardRole(job, fanout.shardId);
      case 'land':
        return await runLandRole(job, fanout);
    }
  } catch (error) {
    const message = action.redact(errorMessage(error));
    publishOutputs({ conclusion: 'failure', noChangeReason: `fanout ${fanout.role} failed: ${message}` });
    throw error;
  } finally {
    await rm(job.scratch, { recursive: true, force: true });
  }
}
