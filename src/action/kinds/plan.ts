import type { RunStart } from '../../followup/follow-up.js';
import { PLAN_MODE } from '../../plan/plan-mode.js';
import { approvalHint } from '../../plan/approval-hint.js';
import { planForReport } from '../../plan/plan-report.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import { agentRun } from '../stages/agent-run.js';

/**
 * `/agent plan <task>`, or any task when require_plan_approval is on: a read-only run whose answer is
 * the plan. Nothing is pushed; the report is the plan with how to approve it, and the carried state
 * marks it a plan, so that `/agent go` on the thread carries it out.
 */
export async function planRun(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart,
  why: 'asked' | 'required'
): Promise<void> {
  const phrase = action.config.github.triggerPhrase;
  await agentRun(action, request, start, {
    prepare: async () => ({ mode: PLAN_MODE }),
    publishStep: 'posting the plan',
    publish: async () => ({
      changes: { kind: 'read-only', mode: 'plan' },
      report: { answerHeading: 'Plan', section: approvalHint(phrase, why), answer: planForReport }
    })
  });
}
