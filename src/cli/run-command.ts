import { access, constants, stat } from 'node:fs/promises';
import { sandboxLines } from '../sandbox/sandbox-lines.js';
import { movedGitLines } from '../git/moved-git-lines.js';
import { SandboxUnavailableError } from '../sandbox/session-box.js';
import path from 'node:path';
import { newRunId } from '../agent/run-id.js';
import { runSession, type SessionOutcome } from '../agent/session.js';
import type { AgentConfig } from '../config/inputs.js';
import type { CliCommand, CliIo, Invocation } from './command.js';
import { EXIT, usageError } from './exit-codes.js';
import { McpStartError } from '../tools/mcp/index.js';
import { progressPrinter } from './progress.js';
import { agentConfigOfFlags } from './agent-config.js';
import { checkRepoFolder } from './repo-check.js';
import { writeRegularFile } from '../security/safe-file.js';
import type { CarriedState } from '../followup/carried-state.js';
import { resumeTask } from '../followup/resume-task.js';
import { carriedStateOf } from '../followup/run-state.js';
import { workOfTranscript } from '../followup/transcript-work.js';
import { isStrictlyInside } from '../files/path-inside.js';
import { loadCarriedState, StateNotFoundError, STATE_FILE, stateFileText } from '../followup/state-file.js';
import { isSecretName, knownSecrets, Redactor } from '../security/redactor.js';
import { mcpServerSecrets } from '../tools/mcp/config.js';
import { readRegularFile, unreadableReason } from '../files/bounded-file.js';
import { MAX_PROMPT_FILE_BYTES } from '../files/prompt-file-limit.js';
import { readInstructionsForRun } from '../instructions/for-run.js';
import { describeInstructions } from '../instructions/instruction-files.js';
import { RunFolderPathError } from '../transcript/run-folder-path.js';

/** Flags read by the shared input validation (config/inputs.ts), spelled `--max-turns` for `max_turns`. */
const CONFIG_FLAGS = [
  'config',
  'model',
  'effort',
  'max-turns',
  'timeout-minutes',
  'max-budget-usd',
  'max-output-tokens',
  'context-window',
  'input-price-per-mtok',
  'output-price-per-mtok',
  'cache-write-price-per-mtok',
  'cache-write-1h-price-per-mtok',
  'cache-read-price-per-mtok',
  'bash-timeout-seconds',
  'bash-env-passthrough',
  'sandbox',
  'sandbox-network',
  'sandbox-allow-hosts',
  'sandbox-default-hosts',
  'api-max-retries',
  'api-stall-timeout-seconds',
  'compaction-threshold-tokens',
  'micro-keep-recent',
  'micro-clear-at-least',
  'micro-preserve-tools',
  'compaction-keep-tail',
  'restore-recent-files',
  'max-compactions',
  'compaction-engine',
  'aws-region',
  'vertex-project-id',
  'vertex-region',
  'mcp-config',
  'allowed-tools',
  'disallowed-tools',
  'allowed-bash-commands',
  'disallowed-bash-commands',
  'instruction-files',
  'json-schema'
] as const;

/** Switches read by the same validation (`--use-bedrock` is the input use_bedrock: true). */
const CONFIG_SWITCHES = ['use-bedrock', 'use-vertex'] as const;

const RUN_HELP = `Usage: compact-agent run --repo DIR --prompt "TASK" [flags]

Runs the agent on a local git repository until the task is done or a limit is reached. Every flag is
checked before the first model call. The API key comes from ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL
points the run at a gateway (or a fake server). Progress goes to stderr, the summary to stdout, and the
full transcript to <repo>/.transcripts/<run>/transcript.jsonl.

Flags:
  --repo DIR                 an existing git repository to work in (default: the current folder)
  --allow-non-git            run in a folder that is not a git repository (no review or undo by git)
  --prompt TEXT              the task
  --prompt-file FILE         read the task from a file instead
  --transcripts DIR          where run folders go (default: <repo>/.transcripts)
  --config PATH              the repository config file (default <repo>/.github/compact-agent.yml if it
                             exists; flags win over it; docs/config-file.md)
  --model NAME               model id from the catalogue (default claude-sonnet-5-5)
  --effort LEVEL             low, medium, high, xhigh or max (default: the model's own)
  --max-turns N              stop after N model turns (default 200)
  --timeout-minutes N        stop after N minutes (default 60)
  --max-budget-usd N         stop once the run has cost N USD (default 10)
  --max-output-tokens N      max_tokens of each turn (default 16384)
  --context-window N, --input-price-per-mtok N, --output-price-per-mtok N,
  --cache-write-price-per-mtok N, --cache-write-1h-price-per-mtok N, --cache-read-price-per-mtok N
                             override the catalogue (negotiated rates; needed for unknown models)
  --bash-timeout-seconds N   default timeout of a bash command (default 120)
  --bash-env-passthrough A,B extra environment variables the bash tool may see
  --sandbox auto|required|off  run commands in the box (default auto: where the machine allows it)
  --sandbox-network allowlist|off  the box's network: allowed hosts through a proxy, or none
  --sandbox-allow-hosts H[:P],...  hosts the box may reach besides the default registries
  --sandbox-default-hosts false    allow only --sandbox-allow-hosts, not the default registries
  --api-max-retries N        retries of a failed model request (default 4)
  --api-stall-timeout-seconds N  drop and retry a response stream silent this long (default 120)
  --use-bedrock              run the model on Amazon Bedrock (AWS credentials from the default chain;
                             no ANTHROPIC_API_KEY needed)
  --aws-region REGION        its region (default: AWS_REGION, then AWS_DEFAULT_REGION)
  --use-vertex               run the model on Google Vertex AI (Application Default Credentials)
  --vertex-project-id ID     its project (default: ANTHROPIC_VERTEX_PROJECT_ID, then GOOGLE_CLOUD_PROJECT)
  --vertex-region REGION     its region, e.g. global or us-east5 (default: CLOUD_ML_REGION)
  --compaction-threshold-tokens N, --micro-keep-recent N, --micro-clear-at-least N,
  --micro-preserve-tools A,B, --compaction-keep-tail N, --restore-recent-files N,
  --max-compactions N        compaction settings (see docs/compaction.md)
  --compaction-engine E      who writes the summaries: client (ours, default), api (the API's
                             on-demand compaction, keeps the kept turns' thinking) or auto
  --mcp-config FILE          MCP servers whose tools the agent gets: a JSON file (or inline JSON)
                             {"mcpServers": {"NAME": {"command": ..., "args": [...], "env": {...}}}}
  --allowed-tools A,B        offer only these tools (bash, read_file, ..., mcp__<server>__<tool>)
  --disallowed-tools A,B     never offer these tools (wins over --allowed-tools)
  --allowed-bash-commands "npm test,npm run lint"
                             bash may run only commands starting with one of these (comma or newline
                             separated); every part of a command joined with ;, &&, |, ... is checked
  --disallowed-bash-commands "git push,curl"
                             bash never runs commands starting with one of these (wins over allowed)
  --instruction-files A,B    the repository's instruction files to read into the system prompt, from the
                             root and the folders the task names (default AGENTS.md,CLAUDE.md,
                             .github/copilot-instructions.md); none reads none
  --json-schema FILE         after the work, ask for the final answer as JSON matching this JSON Schema
                             (a file, or inline JSON); printed as "structured output:", and the run fails
                             when it does not match after being asked twice
  --resume PATH              continue an earlier run: its run folder, a .transcripts folder (its
                             newest run) or its artifact zip; --prompt is then the new request
  --debug                    show the stack trace of an unexpected error
  -h, --help                 show this help

Examples:
  compact-agent run --repo ../my-project --prompt "Make the failing test pass"
  compact-agent run --prompt-file task.md --max-budget-usd 2 --max-turns 50
  ANTHROPIC_BASE_URL=http://127.0.0.1:8080 compact-agent run --repo . --prompt "Add a --json flag"
  compact-agent run --resume .transcripts --prompt "Also handle negative numbers"
  compact-agent run --prompt "Fix the tests" --allowed-bash-commands "npm test,npm run lint"
  compact-agent run --use-bedrock --aws-region us-east-1 --prompt "Fix the lint errors"
  compact-agent run --use-vertex --vertex-project-id my-project --vertex-region global --prompt "..."

Exit codes: 0 success, 1 the run ended without success, 2 a flag is wrong (nothing was started).`;

export const RUN_COMMAND: CliCommand = {
  name: 'run',
  summary: 'run the agent on a local git repository',
  help: RUN_HELP,
  stringFlags: ['repo', 'prompt', 'prompt-file', 'transcripts', 'resume', ...CONFIG_FLAGS],
  booleanFlags: ['allow-non-git', ...CONFIG_SWITCHES],
  maxPositionals: 0,
  execute: (invocation, io) => runCommand(invocation, io)
};

interface ValidatedRun {
  readonly repoDir: string;
  readonly transcriptsDir: string;
  readonly task: string;
  readonly config: AgentConfig;
  /** The earlier run this one continues (--resume). */
  readonly previous: CarriedState | undefined;
}

/** `compact-agent run`: every flag is checked first; then the run; the exit code says how it ended. */
export async function runCommand(invocation: Invocation, io: CliIo): Promise<number> {
  const run = await validateRun(invocation, io.env);
  // The key, GITHUB_TOKEN / GH_TOKEN and every other secret-named variable, and the MCP servers' secrets.
  const redact = new Redactor(
    knownSecrets(io.env, [run.config.apiKey, ...mcpServerSecrets(run.config.mcpServers, isSecretName)])
  ).redact;
  const runId = newRunId();
  // From the folder as it is now, before the first request (a local run has no pull request base).
  const instructions = await readInstructionsForRun(
    { kind: 'checkout', root: run.repoDir },
    run.config.instructionFiles,
    run.task
  );
  if (instructions) io.stderr(redact(describeInstructions(instructions)));
  const outcome = await runSession({
    ...(instructions ? { instructions } : {}),
    config: run.config,
    // runSession redacts the task (a pasted key) with `redact`, as it does the transcript.
    task: run.previous ? resumeTask(run.previous, run.task) : run.task,
    redact,
    repoDir: run.repoDir,
    transcriptsDir: run.transcriptsDir,
    runId,
    env: io.env,
    onProgress: progressPrinter(io.stderr),
    onNotice: (line) => io.stderr(redact(line)),
    ...(io.signal ? { signal: io.signal } : {})
  }).catch((error: unknown) => {
    // Before any model call: the configuration named a server that does not start.
    if (error instanceof McpStartError) throw usageError(`--mcp-config: ${redact(error.message)}`);
    // --sandbox required, and no box here: stopped before any model call.
    if (error instanceof SandboxUnavailableError) throw usageError(`--sandbox: ${redact(error.message)}`);
    // A committed `.transcripts` link: stopped before anything was written or called.
    if (error instanceof RunFolderPathError)
      throw usageError(`${error.message} Or choose another folder with --transcripts DIR.`);
    throw error;
  });
  // After the agent's turns: never through a link or FIFO it may have left at that name.
  try {
    writeRegularFile(
      path.join(outcome.runDir, STATE_FILE),
      stateFileText(
        carriedStateOf({
          repository: path.basename(run.repoDir).slice(0, 200),
          runId,
          runUrl: outcome.runDir.slice(-500),
          task: run.previous?.task ?? run.task,
          request: run.task,
          result: outcome.result,
          changes: undefined,
          artifact: { kind: 'failed', error: 'a local run uploads no artifact' },
          thread: run.previous?.thread ?? null,
          branch: run.previous?.branch ?? null,
          pullRequest: run.previous?.pullRequest ?? null,
          previous: run.previous,
          work: workOfTranscript(outcome.records.transcript.lines().join('\n')),
          transcriptHead: outcome.records.transcript.head
        }),
        redact
      ),
      // From the repository's root when it holds the run folder: the agent may have swapped
      // `.transcripts` itself for a link during its turns.
      {
        within: isStrictlyInside(path.resolve(outcome.runDir), path.resolve(run.repoDir))
          ? run.repoDir
          : path.dirname(outcome.runDir)
      }
    );
  } catch (error) {
    io.stderr(`The state for --resume could not be saved: ${unreadableReason(error)}`);
  }
  io.stdout(formatOutcome(outcome));
  return outcome.result.stopReason === 'success' ? EXIT.success : EXIT.runFailed;
}

/** Everything a run needs, or a usage error naming the flag. Nothing is created and nothing is called. */
async function validateRun(invocation: Invocation, env: NodeJS.ProcessEnv): Promise<ValidatedRun> {
  const { values } = invocation;
  const repoDir = await checkRepoFolder(values.get('repo') ?? '.', invocation.switches.has('allow-non-git'));
  const config = agentConfigOfFlags(invocation, env, repoDir);
  const task = await readTask(values);
  const transcripts = values.get('transcripts');
  const transcriptsDir = path.resolve(transcripts ?? path.join(repoDir, '.transcripts'));
  await checkOutputFolder(transcriptsDir, transcripts === undefined ? '--repo' : '--transcripts');
  const resume = values.get('resume');
  let previous: CarriedState | undefined;
  if (resume !== undefined) {
    try {
      previous = (await loadCarriedState(resume)).state;
    } catch (error) {
      if (error instanceof StateNotFoundError) throw usageError(`--resume ${resume}: ${error.message}`);
      throw error;
    }
  }
  return { repoDir, transcriptsDir, task, config, previous };
}

/** The task from --prompt or --prompt-file (fanout reads its prompt the same way). */
export async function readTask(values: ReadonlyMap<string, string>): Promise<string> {
  const file = values.get('prompt-file');
  const inline = values.get('prompt')?.trim();
  if (file !== undefined && inline)
    throw usageError('Give the task with --prompt or --prompt-file, not both.');
  if (file !== undefined) {
    const text = (
      await readRegularFile(file, MAX_PROMPT_FILE_BYTES).catch((error: unknown) => {
        throw usageError(
          `--prompt-file ${file}: cannot read it (${unreadableReason(error)}). ` +
            'Give the path of a regular text file that holds the task, or pass the task with --prompt.'
        );
      })
    ).toString('utf8');
    if (text.trim() === '') throw usageError(`--prompt-file ${file}: the file is empty.`);
    return text.trim();
  }
  if (!inline) throw usageError('No task: pass --prompt "what to do" or --prompt-file FILE.');
  return inline;
}

/** The run folder is made later; here, only whether it can be: not a file, and a writable ancestor. */
async function checkOutputFolder(folder: string, flag: string): Promise<void> {
  let existing = folder;
  for (;;) {
    const info = await stat(existing).catch(() => undefined);
    if (info) {
      if (!info.isDirectory()) {
        throw usageError(
          `${flag}: the transcripts go to ${folder}, but ${existing} is a file, not a folder.`
        );
      }
      break;
    }
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  await access(existing, constants.W_OK).catch(() => {
    throw usageError(
      `${flag}: the transcripts go to ${folder}, but ${existing} is not writable. ` +
        'Choose another folder with --transcripts DIR.'
    );
  });
}

export function formatOutcome({ result, transcriptPath, sandbox, movedGitEntries }: SessionOutcome): string {
  const usage = result.usage;
  return [
    '',
    result.summary || '(no summary)',
    '',
    `stop reason: ${result.stopReason}${result.error ? ` (${result.error})` : ''}`,
    `turns: ${result.turns}, duration: ${(result.durationMs / 1000).toFixed(1)} s`,
    `tokens: input ${usage.input}, cache write ${usage.cacheWrite}, cache read ${usage.cacheRead}, output ${usage.output}`,
    `cost: $${result.costUsd.toFixed(4)}`,
    `transcript: ${transcriptPath}`,
    ...(result.structuredOutput === undefined ? [] : [`structured output: ${result.structuredOutput}`]),
    ...sandboxLines(sandbox),
    ...movedGitLines(movedGitEntries),
    ''
  ].join('\n');
}
