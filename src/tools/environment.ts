import { CLOUD_CREDENTIAL_VARIABLES } from '../security/cloud-credentials.js';

/**
 * The environment child processes get. An allow-list, not a deny-list: a secret under a new name must
 * not reach the agent's shell by default. `passthrough` names extra variables the user chose to share.
 */
const SAFE_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'CI',
  'NODE_VERSION',
  'RUNNER_OS',
  'RUNNER_ARCH',
  'RUNNER_TOOL_CACHE',
  'GITHUB_WORKSPACE',
  'GITHUB_REPOSITORY',
  'GITHUB_SHA',
  'GITHUB_REF'
];
const SAFE_PREFIXES = ['LC_'];

export function buildToolEnvironment(
  source: NodeJS.ProcessEnv,
  passthrough: readonly string[] = []
): NodeJS.ProcessEnv {
  // Cloud credentials are the model's (Bedrock, Vertex), never the shell's, whatever passthrough says.
  const refused = new Set(CLOUD_CREDENTIAL_VARIABLES);
  const allowed = new Set([...SAFE_VARIABLES, ...passthrough].filter((name) => !refused.has(name)));
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (allowed.has(name) || SAFE_PREFIXES.some((prefix) => name.startsWith(prefix))) env[name] = value;
  }
  // Keeps git from opening an editor or a pager and hanging a headless run.
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_PAGER = 'cat';
  env.PAGER = 'cat';
  return env;
}
