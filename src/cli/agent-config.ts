import { InputError, parseAgentConfig, type AgentConfig } from '../config/inputs.js';
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
    config = parseAgentConfig(cliInputReader(invocation.values, invocation.switches), env, CLI_INPUT_NAMING);
  } catch (error) {
    if (error instanceof InputError) throw usageError(error.problems.join(' '));
    throw error;
  }
  const exposedCredentials = credentialFileInRepository(env, repoDir);
  if (exposedCredentials !== undefined) throw usageError(exposedCredentials);
  return { ...config, sandbox: sandboxForRepository(config.sandbox, repoDir) };
}
