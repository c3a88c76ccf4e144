import * as core from '@actions/core';
import { readFile } from 'node:fs/promises';
import { unknownInputProblems } from '../../config/action-inputs.js';
import { readActionConfig } from '../../config/config-sources.js';
import { deprecatedInputWarnings } from '../../config/deprecated-inputs.js';
import { GITHUB_DEFAULTS, missingPromptProblem, type ActionConfig } from '../../config/github-inputs.js';
import { pinnedGit } from '../../git/git-binary.js';
import { GitRepository } from '../../git/repository.js';
import { InputError } from '../../config/inputs.js';
import { errorMessage } from '../../errors/error-message.js';
import { parseEvent, type ActionEvent } from '../../github/events/event.js';
import { gitHubClients } from '../../github/api/clients.js';
import { decideTrigger } from '../../github/events/trigger.js';
import { credentialFileInRepository } from '../../security/cloud-credentials.js';
import { baseHasGoModule, sandboxForRepository, sandboxWithGoHosts } from '../../sandbox/repository-hosts.js';
import { isSecretName, knownSecrets, Redactor } from '../../security/redactor.js';
import { mcpConfigInline, mcpServerSecrets, readMcpConfig } from '../../tools/mcp/config.js';
import { repositoryOf, threadOf } from '../event-parts.js';
import { publishOutputs } from '../outputs.js';
import { readRunnerEnv, type RunnerEnv } from '../runner-env.js';
import { WorkflowCommandPause } from '../workflow-commands.js';
import type { ActionContext } from './action-context.js';

/**
 * The first stage: the secrets masked before anything is printed, the event read, and the inputs
 * judged, only for an event that asks for the agent. Undefined when the run ends here (skipped, or
 * failed with the reason in the log, and on the thread for bad inputs).
 */
export async function setUp(env: NodeJS.ProcessEnv): Promise<ActionContext | undefined> {
  const runner = readRunnerEnv(env);
  // The MCP configuration (perhaps a file) is read once, here: its servers' keys are secrets too.
  const mcp = readMcpConfig(core.getInput('mcp_config'), 'mcp_config');
  const secrets = knownSecrets(env, [
    core.getInput('anthropic_api_key'),
    core.getInput('github_token'),
    ...(mcp.ok ? mcpServerSecrets(mcp.servers, isSecretName) : [])
  ]);
  for (const secret of secrets) core.setSecret(secret);
  const redactor = new Redactor(secrets);
  let event: ActionEvent;
  try {
    event = parseEvent(runner.eventName, await readPayload(runner.eventPath));
  } catch (error) {
    return failBeforeStart(redactor.redact(errorMessage(error)));
  }
  // Problems of the workflow itself, whatever the event: a with: key that is no input, and a
  // dispatched or scheduled run with no task (which always asks, so it fails rather than skips).
  const unknownInputs = unknownInputProblems(env);
  for (const warning of deprecatedInputWarnings(env)) core.warning(warning);
  // A fan-out job always asks (its role is its request); only its plan takes a task, a resume's
  // from the plan it resumes (fanout-inputs.ts judges the role and its inputs).
  const fanoutRole = core.getInput('fanout').trim();
  const missingPrompt =
    fanoutRole === '' || (fanoutRole === 'plan' && core.getInput('fanout_resume').trim() === '')
      ? missingPromptProblem(event.kind, core.getInput)
      : undefined;
  // An event that does not ask for the agent is skipped before the inputs are judged: a comment
  // thread is no place for configuration errors nobody asked to see. An unknown input is still
  // named, as a warning, so that the step does not end green without a word about it.
  const asked = fanoutRole !== '' ? { run: true as const } : earlyDecision(event);
  if (!asked.run && missingPrompt === undefined) {
    core.info(`compact-agent skipped: ${asked.reason}.`);
    for (const problem of unknownInputs) core.warning(problem);
    publishOutputs({ conclusion: 'skipped', noChangeReason: `skipped: ${asked.reason}` });
    return undefined;
  }
  const workflowProblems = [...unknownInputs, ...(missingPrompt !== undefined ? [missingPrompt] : [])];
  let config: ActionConfig;
  let git: GitRepository;
  try {
    // The servers read above pass on as inline JSON; a configuration with problems is judged again
    // with the other inputs, so its problems are reported with theirs.
    const input = (name: string) =>
      name === 'mcp_config' && mcp.ok ? mcpConfigInline(mcp.servers) : core.getInput(name);
    // The action's own pinned git: it reads the base branch (the config file, the Go module), never the head.
    git = new GitRepository(runner.workspace, {
      sourceEnv: env,
      binary: pinnedGit(env.PATH, [runner.workspace, ...(env.RUNNER_TEMP ? [env.RUNNER_TEMP] : [])])
    });
    config = await withWorkflowProblems(workflowProblems, () =>
      readActionConfig(input, env, git, {
        branch: configBranch(event, runner),
        path: core.getInput('config_file')
      })
    );
    // google-github-actions/auth writes its credentials file into the workspace by default.
    const exposedCredentials = credentialFileInRepository(env, runner.workspace);
    if (exposedCredentials !== undefined) throw new InputError([exposedCredentials]);
  } catch (error) {
    const message = redactor.redact(errorMessage(error));
    await replyOnThread(event, runner, env, `⚠️ compact-agent could not start.\n\n${message}`);
    return failBeforeStart(message);
  }
  // The box's hosts, before the agent runs: the Go relays only for a repository that has a go.mod,
  // judged from the checkout as the job made it, or, on a pull request (whose checkout is its head or
  // the merge with it: a fork's go.mod must not open them), from the base branch.
  const sandbox =
    'pullRequest' in event
      ? sandboxWithGoHosts(config.agent.sandbox, await baseHasGoModule(git, event.pullRequest.baseRef))
      : sandboxForRepository(config.agent.sandbox, runner.workspace);
  const agent = { ...config.agent, sandbox };
  return {
    runner,
    env,
    config: { ...config, agent },
    event,
    redact: redactor.redact,
    commands: new WorkflowCommandPause()
  };
}

/** The inputs' own problems and the workflow's, reported together: one run shows every mistake. */
async function withWorkflowProblems(
  problems: readonly string[],
  parse: () => Promise<ActionConfig>
): Promise<ActionConfig> {
  let config: ActionConfig;
  try {
    config = await parse();
  } catch (error) {
    if (error instanceof InputError && problems.length > 0)
      throw new InputError([...problems, ...error.problems]);
    throw error;
  }
  if (problems.length > 0) throw new InputError(problems);
  return config;
}

/**
 * The branch whose config file the run obeys: a pull request's base, else the default branch
 * (undefined when the payload names none, as a schedule's: origin's HEAD then). Never the head.
 */
function configBranch(event: ActionEvent, runner: RunnerEnv): string | undefined {
  if ('pullRequest' in event) return event.pullRequest.baseRef;
  return repositoryOf(event, runner).defaultBranch;
}

/** Whether the event asks for the agent, judged from the raw trigger inputs (they need no validation). */
function earlyDecision(event: ActionEvent) {
  return decideTrigger(event, {
    triggerPhrase: core.getInput('trigger_phrase') || GITHUB_DEFAULTS.trigger_phrase,
    labelTrigger: core.getInput('label_trigger') || undefined,
    assigneeTrigger: core.getInput('assignee_trigger') || undefined,
    botLogin: core.getInput('bot_name') || GITHUB_DEFAULTS.bot_name,
    prompt: core.getInput('prompt') || core.getInput('prompt_file') || undefined,
    // Any value but false counts as on here, so that a typo reaches the input check and is named;
    // empty too, since the config file (read only for a run) may turn it on. decide.ts judges again.
    reviewOnPullRequest: core.getInput('review_on_pull_request').trim().toLowerCase() !== 'false'
  });
}

/** Bad inputs are said where the person who asked will see them: a reply on the thread. */
async function replyOnThread(
  event: ActionEvent,
  runner: RunnerEnv,
  env: NodeJS.ProcessEnv,
  text: string
): Promise<void> {
  const token = core.getInput('github_token') || env.GITHUB_TOKEN;
  const thread = threadOf(event, undefined);
  if (!token || thread === undefined) return;
  try {
    const api = gitHubClients({
      token,
      repository: repositoryOf(event, runner),
      apiUrl: runner.apiUrl
    }).api();
    await api.createComment(thread, text);
  } catch (error) {
    core.warning(`Could not post the error on #${thread}: ${errorMessage(error)}`);
  }
}

function failBeforeStart(message: string): undefined {
  core.setFailed(message);
  publishOutputs({ conclusion: 'failure', noChangeReason: `did not start: ${message}` });
  void core.summary
    .addRaw(`## compact-agent did not start\n\n${message}\n`)
    .write()
    .catch(() => undefined);
  return undefined;
}

async function readPayload(eventPath: string | undefined): Promise<unknown> {
  if (!eventPath) return {};
  try {
    return JSON.parse(await readFile(eventPath, 'utf8'));
  } catch (error) {
    throw new InputError([
      `The event payload at ${eventPath} could not be read as JSON: ${errorMessage(error)}`
    ]);
  }
}
