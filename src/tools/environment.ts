import { CLOUD_CREDENTIAL_VARIABLES } from '../security/cloud-credentials.js';
import { isSecretName, knownSecrets, Redactor } from '../security/redactor.js';
import { isPathValue, TOOLCHAIN_PATTERNS, TOOLCHAIN_VARIABLES } from './toolchain-variables.js';

/**
 * The environment child processes get. An allow-list, not a deny-list: a secret under a new name must
 * not reach the agent's shell by default. On top of these come the toolchain the job's set-up steps
 * exported (toolchain-variables.ts) and what `bash_env_passthrough` names; the secret rules below
 * refuse a variable whatever list let it in.
 */
const SAFE_VARIABLES = [
  // The job's PATH as the runner built it: the set-up steps' bin folders (GITHUB_PATH) are in front.
  // The action never resolves a program through it: its git is pinned at start (git/git-binary.ts).
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

/**
 * The runner's and the action's bookkeeping: never passed (but for the few SAFE_VARIABLES), and not
 * worth listing as withheld. A secret among them (GITHUB_TOKEN) is listed all the same.
 */
const UNLISTED_PREFIXES = ['INPUT_', 'ACTIONS_', 'GITHUB_', 'RUNNER_', 'STATE_'];
const UNLISTED_NAMES = new Set(['_', 'SHLVL', 'PWD', 'OLDPWD']);

/** The names of the job's variables the shell did not get (never their values), for the record. */
export interface WithheldVariables {
  /** Secrets by name or value, and the action's own credentials: never passed, whatever is asked. */
  readonly secret: readonly string[];
  /** On no list: `bash_env_passthrough` can pass them. */
  readonly unlisted: readonly string[];
}

export interface ToolEnvironment {
  readonly env: NodeJS.ProcessEnv;
  readonly withheld: WithheldVariables;
}

/** Whether a variable's name says it holds a secret: the redactor's rule, and the credentials we know. */
function isSecretVariable(name: string): boolean {
  return CLOUD_CREDENTIAL_VARIABLES.includes(name) || ACTION_CREDENTIALS.includes(name) || isSecretName(name);
}

/** Whether a variable's name says it is a secret or the action's own; such a one never reaches the shell. */
export function isRefusedName(name: string): boolean {
  return isSecretVariable(name) || REFUSED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** Whether a passthrough name may reach the agent's shell at all. */
export function mayPassThrough(name: string): boolean {
  return !isRefusedName(name);
}

export function buildToolEnvironment(
  source: NodeJS.ProcessEnv,
  passthrough: readonly string[] = []
): NodeJS.ProcessEnv {
  return toolEnvironment(source, passthrough).env;
}

/** The shell's environment, and the names of the job's variables it leaves out. */
export function toolEnvironment(
  source: NodeJS.ProcessEnv,
  passthrough: readonly string[] = []
): ToolEnvironment {
  const listed = new Set([...SAFE_VARIABLES, ...TOOLCHAIN_VARIABLES, ...passthrough]);
  const secretValues = secretValuesOf(source);
  const shapes = new Redactor([]);
  const env: NodeJS.ProcessEnv = {};
  const secret: string[] = [];
  const unlisted: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    // A secret under an innocent name: its value is one the job holds as a secret, or looks like a token.
    const refused =
      isRefusedName(name) ||
      secretValues.some((known) => value.includes(known)) ||
      shapes.redact(value) !== value;
    if (refused) {
      if (ACTION_CREDENTIALS.includes(name) || !isBookkeeping(name)) secret.push(name);
      continue;
    }
    const allowed =
      listed.has(name) ||
      SAFE_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
      (TOOLCHAIN_PATTERNS.some((pattern) => pattern.test(name)) && isPathValue(value));
    if (allowed) env[name] = value;
    else if (!isBookkeeping(name)) unlisted.push(name);
  }
  // Keeps git from opening an editor or a pager and hanging a headless run.
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_PAGER = 'cat';
  env.PAGER = 'cat';
  return { env, withheld: { secret: secret.sort(), unlisted: unlisted.sort() } };
}

function isBookkeeping(name: string): boolean {
  return UNLISTED_NAMES.has(name) || UNLISTED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * The values the job holds as secrets: the redactor's (by name, locations of a secret left out) and
 * the credentials we know by name whose names say nothing (AWS_ACCESS_KEY_ID).
 */
function secretValuesOf(source: NodeJS.ProcessEnv): string[] {
  // A path (GOOGLE_APPLICATION_CREDENTIALS=/path/key.json) names where a secret is, and is none.
  const known = [...CLOUD_CREDENTIAL_VARIABLES, ...ACTION_CREDENTIALS]
    .map((name) => source[name])
    .filter((value) => value !== undefined && !isPathValue(value));
  return [...new Set(knownSecrets(source, known))];
}
