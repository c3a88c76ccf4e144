import { fixAllTask, openFindings, renderFixAllSection, settleFindings } from '../../review/fix-all.js';
import type { ResolutionCandidate } from '../../review/fixed-threads.js';
import type { RunStart } from '../../followup/start-on-thread.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import { githubClientsOf } from '../stages/github-clients.js';
import { fixKind } from './fix.js';
import type { RunKind } from './run-kind.js';

/** `/agent fix all` on a pull request: the request that asks for every open finding to be fixed. */
export function asksToFixAll(task: string): boolean {
  return /^fix\s+all(?:\s+findings)?\s*[.!]?$/i.test(task.trim());
}

/**
 * `/agent fix all` on a pull request: one fix run for every open finding of the bot's, pushed to the
 * pull request's branch; then each finding whose lines the commit changed is resolved, and each
 * other is answered in its thread with why it stays open. The report lists them all.
 */
export function fixAllKind(
  action: ActionContext,
  request: AcceptedRequest,
  start: RunStart,
  pullNumber: number
): RunKind {
  const fix = fixKind(action, request, start, { commitTitle: 'fix the open review findings' });
  const reviews = githubClientsOf(action).reviews();
  let findings: ResolutionCandidate[] = [];
  return {
    prepare: async (workspace, progress) => {
      const prepared = await fix.prepare(workspace, progress);
      progress.step = "reading the pull request's open findings";
      findings = await openFindings(reviews, pullNumber, action.config.github.botName);
      if (findings.length === 0)
        throw new Error(
          `pull request #${pullNumber} has no open finding of ${action.config.github.botName}'s to fix (none unresolved and unanswered); nothing was run`
        );
      return { ...prepared, task: fixAllTask(findings) };
    },
    publishStep: fix.publishStep,
    publish: async (workspace, agent) => {
      const published = await fix.publish(workspace, agent);
      if (published.changes.kind !== 'pushed') return published;
      const head = await workspace.git.head();
      const outcomes = await settleFindings(reviews, workspace.git, pullNumber, findings, head);
      return { ...published, report: { answerHeading: 'Summary', section: renderFixAllSection(outcomes) } };
    }
  };
}
