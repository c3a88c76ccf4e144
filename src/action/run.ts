import * as core from '@actions/core';
import path from 'node:path';
import { newRunId } from '../agent/run-id.js';
import { runSession, type SessionOutcome } from '../agent/session.js';
import { InputError, parseAgentConfig } from '../config/inputs.js';

/**
 * The action: parse the inputs, run the agent on the checked-out workspace, publish outputs and a job
 * summary. Event routing, pull requests and the report comment arrive with the GitHub issue.
 */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    const config = parseAgentConfig((name) => core.getInput(name), env);
    core.setSecret(config.apiKey);
    if (!config.prompt) {
      throw new InputError(['No task: set the `prompt` input to say what the agent should do.']);
    }
    const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
    const cancel = new AbortController();
    process.once('SIGINT', () => cancel.abort());
    process.once('SIGTERM', () => cancel.abort());
    const outcome = await runSession({
      config,
      task: config.prompt,
      repoDir: workspace,
      transcriptsDir: path.join(workspace, '.transcripts'),
      runId: env.GITHUB_RUN_ID ? `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT ?? '1'}` : newRunId(),
      env,
      signal: cancel.signal,
      onProgress: (update) => core.debug(`turn ${update.turn}: ${update.activity}`)
    });
    publishOutputs(outcome);
    await core.summary.addRaw(jobSummary(outcome)).write();
    if (outcome.result.stopReason !== 'success') {
      core.setFailed(
        `The agent stopped with ${outcome.result.stopReason}: ${outcome.result.error ?? outcome.result.summary}`
      );
    }
  } catch (error) {
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}

function publishOutputs({ result, runDir }: SessionOutcome): void {
  core.setOutput('conclusion', result.stopReason === 'success' ? 'success' : 'failure');
  core.setOutput('stop_reason', result.stopReason);
  core.setOutput('num_turns', result.turns);
  core.setOutput('compaction_count', result.compactionLog.length);
  core.setOutput('total_cost_usd', result.costUsd.toFixed(6));
  core.setOutput('input_tokens', result.usage.input);
  core.setOutput('output_tokens', result.usage.output);
  core.setOutput('cache_read_tokens', result.usage.cacheRead);
  core.setOutput('cache_write_tokens', result.usage.cacheWrite);
  core.setOutput('transcript_dir', runDir);
}

function jobSummary({ result, transcriptPath }: SessionOutcome): string {
  const usage = result.usage;
  return [
    `## compact-agent: ${result.stopReason}`,
    '',
    result.summary || result.error || '(no summary)',
    '',
    '| turns | input | cache write | cache read | output | cost (USD) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${result.turns} | ${usage.input} | ${usage.cacheWrite} | ${usage.cacheRead} | ${usage.output} | ${result.costUsd.toFixed(4)} |`,
    '',
    `Transcript: \`${transcriptPath}\``,
    ''
  ].join('\n');
}
