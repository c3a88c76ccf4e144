import * as core from '@actions/core';
import { decideCiFix } from '../../github/events/workflow-run-trigger.js';
import type { CiFailure } from '../../cifix/ci-failure.js';
import { gateCiFix } from '../../cifix/ci-fix-gate.js';
import { ciFixMarker, trustedCiFixMarks } from '../../cifix/ci-fix-markers.js';
import { errorFirstLine } from '../../errors/error-message.js';
import type { CiPullRequest } from '../../github/api/ci-failure-reads.js';
import { botIdentity } from '../../github/events/bot-author.js';
import { inlineText } from '../../github/markdown/outbound-neutralize.js';
import { publishOutputs } from '../outputs.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import { githubClientsOf } from '../stages/github-clients.js';
import { workflowOriginOf } from '../stages/start-run.js';

/** A CI fix that may run: the pull request, its failure read, and where the attempt stands. */
export interface CiFixPlan {
  readonly pull: CiPullRequest;
  readonly failure: CiFailure;
  readonly attempt: number;
  readonly maxAttempts: number;
  /**
   * Marks the attempt on the pull request: called when the fix run starts (past the thread's queue
   * and budget), so that a run refused before it does not use an attempt up, and one that crashes
   * in its model run still counts towards `ci_fix.max_attempts`.
   */
  readonly markAttempt: () => Promise<void>;
}

/**
 * Before a CI fix's model run: is this pull request one to fix, should the failed jobs be re-run
 * first, has fixing reached its bounds? Each answer but `fix` ends the run here, without a model
 * call; a stop is said on the pull request (once per reason), a skip only in the log. Every mark
 * names this action run (`by`), so that a later run can check it is one of the trusted workflows'.
 */
export async function startCiFix(
  action: ActionContext,
  request: AcceptedRequest
): Promise<CiFixPlan | undefined> {
  const { event } = action;
  if (event.kind !== 'workflow_run') return undefined;
  const decision = decideCiFix(event);
  if (!decision.run) return skipped(decision.reason);
  const settings = action.config.github;
  const reads = githubClientsOf(action).ciFailureReads();
  const run = event.workflowRun;
  const origin = workflowOriginOf(action);
  const judgeRun = (runId: number) => origin.judgeRun(runId);
  // This action run, named in its marks; 0 outside a workflow run (never trusted: see trustedCiFixMarks).
  const by = Number.isSafeInteger(Number(action.runner.runId)) ? Number(action.runner.runId) : 0;
  const decide = (rerunFirst: boolean) =>
    gateCiFix(
      {
        reads,
        listComments: (pull) => request.api.listComments(pull),
        settings: { ...settings.ciFix, rerunFirst },
        bot: botIdentity(settings.botName, settings.botEmail),
        branchPrefix: settings.branchPrefix,
        repositoryFullName: event.repository.fullName,
        redact: action.redact,
        judgeRun
      },
      run,
      decision.pullNumber
    );
  let gate = await decide(settings.ciFix.rerunFirst);
  if (gate.kind === 'rerun') {
    try {
      await reads.rerunFailedJobs(run.id);
    } catch (error) {
      // Without `actions: write` (or past the 30 days GitHub allows re-runs): fix now instead.
      core.warning(
        action.redact(
          `compact-agent could not re-run the failed jobs of run ${run.id} (${errorFirstLine(error)}); it goes on to fix ` +
            'the failure. Give the workflow `actions: write` to have failed jobs re-run once first.'
        )
      );
      gate = await decide(false);
    }
  }
  const say = (pull: number, text: string) => request.api.createComment(pull, text);
  switch (gate.kind) {
    case 'skip':
      return skipped(gate.reason);
    case 'rerun': {
      await say(
        gate.pull.number,
        `🔁 CI run [${inlineText(run.name) || run.id}](${run.htmlUrl}) failed in ${gate.jobs} job${gate.jobs === 1 ? '' : 's'}. ` +
          'compact-agent re-ran the failed jobs once before trying a fix: if they pass now, the failure was flaky and ' +
          'nothing more happens; if they fail again, a fix starts.\n\n' +
          ciFixMarker({ kind: 'rerun', by, run: run.id })
      );
      core.info(`compact-agent re-ran the failed jobs of run ${run.id} before any model call.`);
      publishOutputs({
        conclusion: 'skipped',
        noChangeReason: `skipped: re-ran the failed jobs of run ${run.id} first`
      });
      return undefined;
    }
    case 'stop': {
      const comments = await request.api.listComments(gate.pull.number);
      const marks = await trustedCiFixMarks(comments, settings.botName, judgeRun);
      const saidBefore = marks.some((mark) => mark.kind === 'stop' && mark.reason === gate.key);
      if (!saidBefore)
        await say(
          gate.pull.number,
          `⏹️ compact-agent did not start a CI fix: ${gate.reason}.\n\n${ciFixMarker({ kind: 'stop', by, reason: gate.key })}`
        );
      core.info(action.redact(`compact-agent did not start a CI fix: ${gate.reason}.`));
      publishOutputs({ conclusion: 'refused', noChangeReason: `refused: ${gate.reason}` });
      return undefined;
    }
    case 'fix': {
      const { failure } = gate;
      const jobs = failure.jobs.map((job) => inlineText(job.name)).join(', ');
      const pullNumber = gate.pull.number;
      const markAttempt = () =>
        say(
          pullNumber,
          `🔧 CI run [${inlineText(failure.workflow) || failure.runId}](${failure.runUrl}) failed (${jobs}). ` +
            `compact-agent is trying a fix: attempt ${gate.attempt} of ${settings.ciFix.maxAttempts}.\n\n` +
            ciFixMarker({ kind: 'attempt', by, run: run.id, signature: failure.signature })
        ).then(() => undefined);
      return {
        pull: gate.pull,
        failure,
        attempt: gate.attempt,
        maxAttempts: settings.ciFix.maxAttempts,
        markAttempt
      };
    }
  }
}

function skipped(reason: string): undefined {
  core.info(`compact-agent skipped: ${reason}.`);
  publishOutputs({ conclusion: 'skipped', noChangeReason: `skipped: ${reason}` });
  return undefined;
}
