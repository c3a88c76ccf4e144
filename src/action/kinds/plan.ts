import { PLAN_MODE } from '../../plan/plan-mode.js';
import { approvalHint } from '../../plan/approval-hint.js';
import { planForReport } from '../../plan/plan-report.js';
import type { ActionContext } from '../stages/action-context.js';
import type { RunKind } from './run-kind.js';

/**
 * `/agent plan <task>`, or any task when require_plan_approval is on: a read-only run whose answer is
 * the plan. Nothing is pushed; the report is the plan with how to approve it, and the carried state
 * marks it a plan, so that `/agent go` on the thread carries it out.
 */
export function planKind(action: ActionContext, why: 'asked' | 'required'): RunKind {
  const phrase = action.config.github.triggerPhrase;
  return {
    prepare: async () => ({ mode: PLAN_MODE }),
    publishStep: 'posting the plan',
    publish: async () => ({
      changes: { kind: 'read-only', mode: 'plan' },
      report: { answerHeading: 'Plan', section: approvalHint(phrase, why), answer: planForReport }
    })
  };
}
