import path from 'node:path';
import * as core from '@actions/core';
import { errorFirstLine } from '../../errors/error-message.js';
import { latestTrustedRollup } from '../../fanout/rollup-marker.js';
import { ownWorkflowOrigin } from '../../followup/workflow-origin.js';
import { codeSpan, quoteBlock } from '../../github/markdown/outbound-neutralize.js';
import type { DispatchedRun } from '../../github/api/workflow-dispatch.js';
import { repositoryOf } from '../event-parts.js';
import { publishOutputs } from '../outputs.js';
import type { FanoutRequest } from '../request-kind.js';
import type { AcceptedRequest, ActionContext } from '../stages/action-context.js';
import { answerWithoutRun } from '../stages/answer-without-run.js';
import { githubClientsOf } from '../stages/github-clients.js';

/**
 * `/agent fanout <task>` and `/agent fanout resume` on an issue or pull request: no agent and no
 * model call here. A fan-out runs in its own workflow (plan → shards → land, docs/fanout.md), so
 * this run starts that workflow with "Create a workflow dispatch event" on the default branch, with
 * `prompt` (the task) and `report_issue` (this thread, where its land job writes the roll-up), and
 * answers with a link to the run. A resume finds the thread's latest fan-out by its roll-up
 * comment, trusted only when the Actions API ties the run it names to the fan-out workflow file,
 * and dispatches `resume_run` with that run's id. The request passed the same trust checks as any
 * (check-trust.ts: a writer asked, the task is theirs) and took its turn on the thread.
 */
export async function startFanout(
  action: ActionContext,
  request: AcceptedRequest,
  ask: FanoutRequest
): Promise<void> {
  const phrase = action.config.github.triggerPhrase;
  const thread = request.thread;
  // The config file's `fanout.workflow` (default fanout.yml), as `.github/workflows/<file>`.
  const workflow = action.config.github.fanoutWorkflow;
  const file = path.posix.basename(workflow);
  const repository = repositoryOf(action.event, action.runner);
  const refuse = (reason: string) => {
    publishOutputs({ conclusion: 'refused', noChangeReason: `refused: ${reason}` });
    return answerWithoutRun(action, request, `🚫 compact-agent did not start a fan-out: ${reason}.`);
  };
  if (thread === undefined)
    return refuse(`${phrase} fanout reports to the issue it was asked on, and this request has none`);
  if (ask.kind === 'start' && ask.task === '')
    return refuse(
      `say which change every shard makes: \`${phrase} fanout <task>\` (for example ` +
        `\`${phrase} fanout Replace oldApi() with newApi()\`), or \`${phrase} fanout resume\` to resume the last one`
    );
  if (repository.defaultBranch === undefined)
    return refuse('the event does not name the repository’s default branch, where the fan-out workflow runs');
  let inputs: Record<string, string>;
  let resumed: number | undefined;
  if (ask.kind === 'resume') {
    const origin = ownWorkflowOrigin(githubClientsOf(action).workflowRunReads(), {
      workflowRef: workflow,
      repositoryFullName: `${repository.owner}/${repository.name}`
    });
    const latest = await latestTrustedRollup(
      await request.api.listComments(thread),
      action.config.github.botName,
      (runId) => origin.judgeRun(runId)
    );
    for (const reason of latest.passedOver)
      core.info(action.redact(`A roll-up comment was passed over: ${reason}.`));
    if (latest.mark === undefined)
      return refuse(
        `there is no earlier fan-out on this thread to resume (no roll-up comment of a run of ${codeSpan(workflow)} ` +
          `is here${latest.passedOver.length > 0 ? `; ${latest.passedOver.length} that no run of it wrote was passed over` : ''}). ` +
          `Start one with \`${phrase} fanout <task>\``
      );
    resumed = latest.mark.run;
    inputs = { resume_run: String(resumed), report_issue: String(thread) };
  } else inputs = { prompt: ask.task, report_issue: String(thread) };

  let run: DispatchedRun;
  try {
    run = await githubClientsOf(action).workflowDispatcher().dispatch(file, repository.defaultBranch, inputs);
  } catch (error) {
    const message =
      `compact-agent could not start the fan-out workflow ${codeSpan(workflow)} on ${codeSpan(repository.defaultBranch)}: ` +
      `${errorFirstLine(error)}. Check that the file is on that branch with a \`workflow_dispatch\` trigger taking ` +
      'the inputs prompt, resume_run and report_issue (examples/workflows/fanout.yml), that the config file’s ' +
      '`fanout.workflow` names it, and that this workflow has `actions: write`';
    publishOutputs({ conclusion: 'failure', noChangeReason: `did not start: ${message}` });
    await answerWithoutRun(action, request, `⚠️ ${message}.`);
    core.setFailed(action.redact(message));
    return;
  }
  const runsPage = `${action.runner.serverUrl}/${repository.owner}/${repository.name}/actions/workflows/${encodeURIComponent(file)}`;
  const link =
    run.htmlUrl === undefined
      ? `[its runs](${runsPage})`
      : `[${run.runId === undefined ? 'the run' : `run ${run.runId}`}](${run.htmlUrl})`;
  const started = `🚀 compact-agent started the fan-out workflow ${codeSpan(file)} on ${codeSpan(repository.defaultBranch)} (${link})`;
  const text =
    resumed !== undefined
      ? `${started} to resume fan-out run ${resumed}: only its failed, over-budget, conflicting, rejected and ` +
        'unstarted shards run again, on the current base, with what is left of its cap. Its land job updates ' +
        'the roll-up on this issue.'
      : `${started} for this change:\n\n${quoteBlock(ask.kind === 'start' ? ask.task : '')}\n\n` +
        'Its plan, shards and landing run there, and its land job writes the roll-up on this issue. To run its ' +
        `failed and unstarted shards again later: \`${phrase} fanout resume\`.`;
  core.info(action.redact(`compact-agent dispatched ${workflow} with ${Object.keys(inputs).join(', ')}.`));
  publishOutputs({
    conclusion: 'success',
    noChangeReason: `dispatched: the fan-out workflow ${file}${run.runId !== undefined ? ` (run ${run.runId})` : ''}`
  });
  await answerWithoutRun(action, request, text, 'served');
}
