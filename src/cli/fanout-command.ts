import { realpathSync } from 'node:fs';
import { FanoutInputError } from '../fanout/fanout-error.js';
import { resumeFanout, startFanout, type FanoutOptions } from '../fanout/fanout-run.js';
import { formatRollup } from '../fanout/rollup.js';
import type { ManifestOrigin } from '../fanout/manifest.js';
import { isSecretName, knownSecrets, Redactor } from '../security/redactor.js';
import { mcpServerSecrets } from '../tools/mcp/config.js';
import { McpStartError } from '../tools/mcp/index.js';
import { SandboxUnavailableError } from '../sandbox/session-box.js';
import { RunFolderPathError } from '../transcript/run-folder-path.js';
import type { CliCommand, CliIo, Invocation } from './command.js';
import { EXIT, usageError } from './exit-codes.js';
import { agentConfigOfFlags } from './agent-config.js';
import { sessionShardAgent } from '../fanout/session-shard-agent.js';
import { FANOUT_FLAGS, readFanoutFlags } from './fanout-flags.js';
import { boxedValidation } from '../fanout/boxed-validation.js';
import { checkRepoFolder } from './repo-check.js';
import { readTask, RUN_COMMAND } from './run-command.js';

/** run's flags that fanout sets itself: the task and folders are the plan's, the budget each shard's share. */
const NOT_FROM_RUN: ReadonlySet<string> = new Set([
  'repo',
  'prompt',
  'prompt-file',
  'transcripts',
  'resume',
  'json-schema',
  'allow-non-git',
  'max-budget-usd'
]);
const AGENT_FLAGS = RUN_COMMAND.stringFlags.filter((flag) => !NOT_FROM_RUN.has(flag));
const AGENT_SWITCHES = RUN_COMMAND.booleanFlags.filter((flag) => !NOT_FROM_RUN.has(flag));

/** The commit author of landed branches (local branches only; nothing is pushed). */
const LAND_IDENTITY = { name: 'compact-agent fanout', email: 'compact-agent@localhost' };

const FANOUT_HELP = `Usage: compact-agent fanout --repo DIR --prompt "TASK" --units "COMMAND" --max-total-usd X [flags]
       compact-agent fanout --repo DIR --resume FOLDER [--parallel N] [--land per-shard|combined|per-owner]

One change over many units of a repository, split into shards that run in parallel, each an agent
in a repository of its own at HEAD, then landed into local branches (nothing is pushed). The units are listed
by a command, globs or the workspace's packages, never by the model. Each shard gets its share of
the total cap in advance, may change only its own paths (other edits are undone and counted), and
may be checked by a validation command whose errors go back to the agent. The roll-up (a table of
shards, the cost against the cap, and the burndown: the unit listing re-run on the landed change)
goes to stdout; progress to stderr. Everything is kept in the fan-out's folder, which --resume takes.

Flags:
  --repo DIR              the git repository (default: the current folder); shards start at its HEAD
  --prompt TEXT           the change to make in every shard (or --prompt-file FILE)
  --units "COMMAND"       a command printing one path per line, e.g. "git grep -l oldApi -- src"
  --globs "A,B"           or: glob patterns of files, e.g. "src/**/*.ts"
  --packages              or: the workspace's packages (package.json "workspaces")
  --owners "@ORG/TEAM,..." or: the tracked files CODEOWNERS gives these owners
  --shard-size N          units per shard (default 10)
  --group-by count|folder|size|owner  consecutive units, one folder at a time, as many shards as
                          count would make with about the same bytes each, or one CODEOWNERS owner
                          group at a time (the unowned last) (default count)
  --parallel N            shards running at once (default 2)
  --max-total-usd X       the cap for all shards together, split evenly in advance (required)
  --pilot N               run the first N shards first; start the rest only if all of them finish
  --validate "COMMAND"    run in the shard's folder (in the box) after its agent; exit 0 passes
  --validate-retries N    times a failing validation goes back to the agent with its errors (default 1)
  --land per-shard|combined|per-owner  one branch per shard fanout/<plan>/<shard> (default), one
                          fanout/<plan>/combined, or one per owner fanout/<plan>/owner-<owner> (with
                          --group-by owner); landing again moves the same branches
  --format text|json      the roll-up as a table (default) or JSON
  --state DIR             the fan-out's folder (default <repo>/.transcripts/fanout-<plan>)
  --resume FOLDER         continue a fan-out: only failed, over-budget, conflicting and unstarted
                          shards run again, on the current HEAD, with what is left of the cap
  and the model, limit, sandbox and tool flags of compact-agent run (see run --help), except
  --max-budget-usd (each shard's budget is its share of --max-total-usd).

Examples:
  compact-agent fanout --repo . --prompt "Replace oldApi() with newApi()" \\
    --units "git grep -l oldApi -- src" --shard-size 20 --parallel 4 --max-total-usd 30 \\
    --validate "npm test -- --findRelatedTests \\$(git diff --name-only HEAD)"
  compact-agent fanout --repo . --resume .transcripts/fanout-3f9a2c1b7d40

Exit codes: 0 every shard landed (or had nothing to change), 1 some shard failed, went over budget,
conflicts or never started (resume it), 2 a flag or the plan is wrong.`;

export const FANOUT_COMMAND: CliCommand = {
  name: 'fanout',
  summary: 'one change over many units: shards in parallel repositories, landed into local branches',
  help: FANOUT_HELP,
  stringFlags: ['repo', 'prompt', 'prompt-file', ...FANOUT_FLAGS, ...AGENT_FLAGS],
  booleanFlags: ['packages', ...AGENT_SWITCHES],
  maxPositionals: 0,
  execute: (invocation, io) => fanoutCommand(invocation, io)
};

async function fanoutCommand(invocation: Invocation, io: CliIo): Promise<number> {
  const flags = readFanoutFlags(invocation);
  const repoDir = await checkRepoFolder(invocation.values.get('repo') ?? '.', false);
  const config = agentConfigOfFlags(invocation, io.env, repoDir);
  const prompt = flags.plan ? await readTask(invocation.values) : undefined;
  const redact = new Redactor(
    knownSecrets(io.env, [config.apiKey, ...mcpServerSecrets(config.mcpServers, isSecretName)])
  ).redact;
  const signal = io.signal ?? new AbortController().signal;
  const options: FanoutOptions = {
    repoDir,
    env: io.env,
    signal,
    agent: sessionShardAgent({ config, env: io.env, redact, signal, onNotice: io.stderr }),
    validation: boxedValidation(config, io.env, (line) => io.stderr(redact(line))),
    parallel: flags.parallel,
    policy: flags.policy,
    identity: LAND_IDENTITY,
    origin: localOrigin(repoDir),
    onProgress: (line) => io.stderr(redact(line))
  };
  let rollup;
  try {
    rollup =
      flags.resume !== undefined
        ? await resumeFanout(flags.resume, options)
        : await startFanout(
            {
              prompt: prompt!,
              unitSource: flags.plan!.unitSource,
              grouping: flags.plan!.grouping,
              totalCapUsd: flags.plan!.totalCapUsd,
              validationRetries: flags.plan!.validationRetries,
              ...(flags.plan!.validationCommand ? { validationCommand: flags.plan!.validationCommand } : {}),
              ...(flags.plan!.pilot ? { pilot: flags.plan!.pilot } : {}),
              ...(flags.state ? { stateDir: flags.state } : {})
            },
            options
          );
  } catch (error) {
    if (error instanceof FanoutInputError) throw usageError(redact(error.message));
    if (error instanceof McpStartError) throw usageError(`--mcp-config: ${redact(error.message)}`);
    if (error instanceof SandboxUnavailableError) throw usageError(`--sandbox: ${redact(error.message)}`);
    if (error instanceof RunFolderPathError)
      throw usageError(`${error.message} Or choose another folder with --state DIR.`);
    throw error;
  }
  io.stdout(redact(flags.format === 'json' ? JSON.stringify(rollup, null, 2) : formatRollup(rollup)));
  return rollup.unfinished ? EXIT.runFailed : EXIT.success;
}

/** A local plan belongs to the repository's folder: a resume from another repository is refused. */
function localOrigin(repoDir: string): ManifestOrigin {
  return { repository: realpathSync(repoDir), workflow: 'compact-agent fanout (local)' };
}
