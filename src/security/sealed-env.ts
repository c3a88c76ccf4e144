import {
  accessSync,
  constants,
  lstatSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { errorMessage as describe } from '../errors/error-message.js';

/**
 * Why this exists: Linux shows a process's *initial* environment in /proc/<pid>/environ to every
 * process of the same user, and deleting a variable from process.env does not change it. The agent's
 * shell runs as that user, so it could read the GitHub token from the action's process (or a
 * DATABASE_URL from the CLI's, when it runs without the box: `cat /proc/$PPID/environ`). The action
 * and the CLI therefore replace themselves (execve) with a copy whose initial environment holds only
 * a few harmless variables; everything else travels through a private file that the new image reads
 * and deletes at once, and from then on lives only in the process's memory.
 */
export const SEALED_ENV_VARIABLE = 'COMPACT_AGENT_SEALED_ENV';
const FOLDER_PREFIX = 'compact-agent-sealed-';
const FILE_NAME = 'env.json';

/**
 * What stays in the initial environment: what Node needs to start, and nothing a secret could hide
 * in. An allow-list, because secrets come under any name (DB_PASS, GH_PAT, DATABASE_URL, ...).
 */
const KEPT_VARIABLES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'TMPDIR',
  'CI',
  'RUNNER_TEMP',
  // Read by Node itself while it starts, before any of our code runs.
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  // Read while the modules load: @actions/github fixes its default API host then (lib/utils.js,
  // `defaults.baseUrl`), and @actions/artifact's downloads from another run (`findBy`) use that
  // default. Without it they go to api.github.com whatever the runner's API is. An address, no secret.
  'GITHUB_API_URL'
]);
const KEPT_PREFIXES = ['LC_'];

/** The slice of `process` this needs, so tests can hand in their own. */
export interface ProcessImage {
  readonly env: NodeJS.ProcessEnv;
  readonly execPath: string;
  readonly execArgv: readonly string[];
  readonly argv: readonly string[];
  /** Node >= 22.15 (the action runs on node24); absent on older runtimes. */
  readonly execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never;
}

export type SealOutcome =
  | { readonly kind: 'unsealed'; readonly names: readonly string[] }
  | { readonly kind: 'unsupported'; readonly reason: string };

/** The variables to move out of the initial environment, and the few that stay. */
export function splitSecretEnv(env: NodeJS.ProcessEnv): {
  secrets: Record<string, string>;
  rest: NodeJS.ProcessEnv;
} {
  const secrets: Record<string, string> = {};
  const rest: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const kept = KEPT_VARIABLES.has(name) || KEPT_PREFIXES.some((prefix) => name.startsWith(prefix));
    if (kept) rest[name] = value;
    else secrets[name] = value;
  }
  return { secrets, rest };
}

/**
 * Called first thing by the entry point. On the first pass it re-executes the process without its
 * environment (and does not return). On the second pass it reads the variables back into
 * `process.env`, which changes memory only, never /proc/<pid>/environ.
 */
export function sealSecretEnvironment(image: ProcessImage): SealOutcome {
  const sealedFile = image.env[SEALED_ENV_VARIABLE];
  if (sealedFile) return unseal(image.env, sealedFile);
  delete image.env[SEALED_ENV_VARIABLE]; // set but empty: never ours
  if (!image.execve) {
    return {
      kind: 'unsupported',
      reason: `this Node.js (${process.version}) has no process.execve (Node.js 22.15 or later has it), so the agent's commands can read this process's initial environment in /proc`
    };
  }
  try {
    // A failed execve aborts Node instead of throwing: check what can be checked first.
    accessSync(image.execPath, constants.X_OK);
  } catch (error) {
    return { kind: 'unsupported', reason: `cannot re-execute ${image.execPath}: ${describe(error)}` };
  }
  const { secrets, rest } = splitSecretEnv(image.env);
  let file: string | undefined;
  try {
    file = writeSealedFile(secrets, sealedFolderParent(image.env));
    return image.execve(image.execPath, [image.execPath, ...image.execArgv, ...image.argv.slice(1)], {
      ...rest,
      [SEALED_ENV_VARIABLE]: file
    });
  } catch (error) {
    if (file) removeSealedFile(file);
    return { kind: 'unsupported', reason: `re-executing without secrets failed: ${describe(error)}` };
  }
}

const SealedSecrets = z.record(z.string(), z.string());

function unseal(env: NodeJS.ProcessEnv, file: string): SealOutcome {
  const problem = sealedFileProblem(file, env);
  if (problem) {
    throw new Error(
      `${SEALED_ENV_VARIABLE} is set to ${JSON.stringify(file)}, which is not a file compact-agent wrote: ${problem}. ` +
        `Do not set ${SEALED_ENV_VARIABLE} (in a workflow or a shell): compact-agent sets it for itself.`
    );
  }
  let secrets: Record<string, string>;
  try {
    secrets = SealedSecrets.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    removeSealedFile(file);
    throw new Error(
      `compact-agent could not read back its sealed environment from ${file}: ${describe(error)}. ` +
        `Run it again (re-run the job); if it happens again, report it.`
    );
  }
  removeSealedFile(file);
  delete env[SEALED_ENV_VARIABLE];
  Object.assign(env, secrets);
  return { kind: 'unsealed', names: Object.keys(secrets).sort() };
}

/**
 * Why a path is not one of ours (undefined when it is): ours is `<parent>/compact-agent-sealed-XXXXXX/env.json`,
 * a regular file of our user, mode 0600. Checked before anything is read or deleted.
 */
function sealedFileProblem(file: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!path.isAbsolute(file) || path.basename(file) !== FILE_NAME)
    return `it is not an absolute path to ${FILE_NAME}`;
  const folder = path.dirname(file);
  if (!path.basename(folder).startsWith(FOLDER_PREFIX)) return `its folder is not a ${FOLDER_PREFIX}* folder`;
  const parent = realOrSelf(path.dirname(folder));
  const allowed = [realOrSelf(sealedFolderParent(env)), realOrSelf(tmpdir())];
  if (!allowed.includes(parent)) return `its folder is not in ${allowed.join(' or ')}`;
  let stats;
  try {
    stats = lstatSync(file);
  } catch (error) {
    return describe(error);
  }
  if (!stats.isFile()) return 'it is not a regular file';
  if (typeof process.getuid === 'function' && stats.uid !== process.getuid()) return 'another user owns it';
  if ((stats.mode & 0o777) !== 0o600) return `its mode is ${(stats.mode & 0o777).toString(8)}, not 600`;
  return undefined;
}

function realOrSelf(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

/** RUNNER_TEMP is emptied after every job, /tmp may not be on a self-hosted runner. */
function sealedFolderParent(env: NodeJS.ProcessEnv): string {
  return env.RUNNER_TEMP && path.isAbsolute(env.RUNNER_TEMP) ? env.RUNNER_TEMP : tmpdir();
}

function writeSealedFile(secrets: Record<string, string>, parent: string): string {
  // A private folder (0700) and file (0600); it lives only until the new image has started.
  const folder = mkdtempSync(path.join(parent, FOLDER_PREFIX));
  const file = path.join(folder, FILE_NAME);
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return file;
}

/** Deletes exactly the file and its (then empty) folder: never anything recursively. */
function removeSealedFile(file: string): void {
  try {
    rmSync(file, { force: true });
    rmdirSync(path.dirname(file));
  } catch {
    // Left behind in a private folder of the runner's temp: not worth failing the run for.
  }
}
