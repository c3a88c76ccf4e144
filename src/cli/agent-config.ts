import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  ConfigFileError,
  DEFAULT_CONFIG_FILE,
  MAX_CONFIG_FILE_BYTES,
  parseConfigFile,
  type ConfigFileSettings
} from '../config/config-file.js';
import { InputError, parseAgentConfig, type AgentConfig } from '../config/inputs.js';
import { layeredNaming, layeredReader } from '../config/layered-inputs.js';
import { readRegularFileSync } from '../files/bounded-file-sync.js';
import { errorMessage } from '../errors/error-message.js';
import { credentialFileInRepository } from '../security/cloud-credentials.js';
import { sandboxForRepository } from '../sandbox/repository-hosts.js';
import { CLI_INPUT_NAMING, cliInputReader } from './args.js';
import type { Invocation } from './command.js';
import { usageError } from './exit-codes.js';

/**
 * The agent's settings from a command's flags, the way every command that runs the agent reads them:
 * a bad flag is a usage error naming it, and a credentials file inside the repository (which the
 * agent could read or commit) stops the command before anything starts. The box's hosts are fixed
 * here for the repository as it is now, before the agent runs (the Go relays only with a go.mod).
 */
export function agentConfigOfFlags(
  invocation: Invocation,
  env: NodeJS.ProcessEnv,
  repoDir: string
): AgentConfig {
  let config: AgentConfig;
  try {
    const given = cliInputReader(invocation.values, invocation.switches);
    const file = readLocalConfigFile(invocation.values.get('config'), repoDir);
    config = parseAgentConfig(layeredReader(given, file), env, layeredNaming(given, file, CLI_INPUT_NAMING));
  } catch (error) {
    if (error instanceof InputError) throw usageError(error.problems.join(' '));
    if (error instanceof ConfigFileError) throw usageError(error.problems.join(' '));
    throw error;
  }
  const exposedCredentials = credentialFileInRepository(env, repoDir);
  if (exposedCredentials !== undefined) throw usageError(exposedCredentials);
  return { ...config, sandbox: sandboxForRepository(config.sandbox, repoDir) };
}

/**
 * The config file the CLI obeys: `--config PATH`, else the repository's own .github/compact-agent.yml
 * as the working tree has it (on their own machine the person owns the checkout; the action, which
 * runs on other people's pull requests, reads it from the base branch instead). Flags win over it.
 */
function readLocalConfigFile(flag: string | undefined, repoDir: string): ConfigFileSettings | undefined {
  const file = flag ?? path.join(repoDir, DEFAULT_CONFIG_FILE);
  if (flag === undefined && !existsSync(file)) return undefined;
  let text: string;
  try {
    text = readRegularFileSync(file, MAX_CONFIG_FILE_BYTES + 1).toString('utf8');
  } catch (error) {
    throw new ConfigFileError([`--config ${file} could not be read: ${errorMessage(error)}`]);
  }
  return parseConfigFile(text, file);
}
