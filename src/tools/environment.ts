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

/** The action's own credentials: never the shell's, whatever `bash_env_passthrough` names. */
const ACTION_CREDENTIALS = ['GITHUB_TOKEN', 'GH_TOKEN', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];
/** Inputs (INPUT_*) carry the tokens as given; ACTIONS_* mint OIDC tokens and reach the artifact service. */
const REFUSED_PREFIXES = ['INPUT_', 'ACTIONS_'];

/** Whether a passthrough name may reach the agent's shell at all. */
export function mayPassThrough(name: string): boolean {
  return (
    !CLOUD_CREDENTIAL_VARIABLES.includes(name) &&
    !ACTION_CREDENTIALS.includes(name) &&
    !REFUSED_PREFIXES.some((prefix) => name.startsWith(prefix))
  );
}

export function buildToolEnvironment(
  source: NodeJS.ProcessEnv,
  passthrough: readonly string[] = []
): NodeJS.ProcessEnv {
  // Cloud credentials, the action's tokens and its inputs never reach the shell, whatever passthrough says.
  const allowed = new Set([...SAFE_VARIABLES, ...passthrough].filter(mayPassThrough));
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
