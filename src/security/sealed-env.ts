import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { isSecretName } from './redactor.js';

/**
 * Why this exists: Linux shows a process's *initial* environment in /proc/<pid>/environ to every
 * process of the same user, and deleting a variable from process.env does not change it. The agent's
 * shell runs as that user, so it could read the GitHub token from the action's process and push with
 * it. The action therefore replaces itself (execve) with a copy whose initial environment holds no
 * secrets; the secrets travel through a private file that the new image reads and deletes at once,
 * and from then on live only in the process's memory.
 */
export const SEALED_ENV_VARIABLE = 'COMPACT_AGENT_SEALED_ENV';

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
  | { readonly kind: 'nothing-to-seal' }
  | { readonly kind: 'unsealed'; readonly names: readonly string[] }
  | { readonly kind: 'unsupported'; readonly reason: string };

/** The variables that must not stay in the initial environment, and the rest. */
export function splitSecretEnv(env: NodeJS.ProcessEnv): {
  secrets: Record<string, string>;
  rest: NodeJS.ProcessEnv;
} {
  const secrets: Record<string, string> = {};
  const rest: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (isSecretName(name) && value !== '') secrets[name] = value;
    else rest[name] = value;
  }
  return { secrets, rest };
}

/**
 * Called first thing by the entry point. On the first pass it re-executes the process without its
 * secrets (and does not return). On the second pass it reads the secrets back into `process.env`,
 * which changes memory only, never /proc/<pid>/environ.
 */
export function sealSecretEnvironment(image: ProcessImage): SealOutcome {
  const sealedFile = image.env[SEALED_ENV_VARIABLE];
  if (sealedFile !== undefined) return unseal(image.env, sealedFile);
  const { secrets, rest } = splitSecretEnv(image.env);
  const names = Object.keys(secrets);
  if (names.length === 0) return { kind: 'nothing-to-seal' };
  if (!image.execve) {
    return {
      kind: 'unsupported',
      reason: `this Node.js (${process.version}) has no process.execve, so the agent's shell can read the action's initial environment`
    };
  }
  let file: string | undefined;
  try {
    file = writeSealedFile(secrets);
    return image.execve(image.execPath, [image.execPath, ...image.execArgv, ...image.argv.slice(1)], {
      ...rest,
      [SEALED_ENV_VARIABLE]: file
    });
  } catch (error) {
    if (file) rmSync(path.dirname(file), { recursive: true, force: true });
    return { kind: 'unsupported', reason: `re-executing without secrets failed: ${describe(error)}` };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const SealedSecrets = z.record(z.string(), z.string());

function unseal(env: NodeJS.ProcessEnv, file: string): SealOutcome {
  let secrets: Record<string, string>;
  try {
    secrets = SealedSecrets.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new Error(
      `compact-agent could not read back its sealed secrets from ${file}: ${describe(error)}. ` +
        `Re-run the job; if it happens again, report it.`
    );
  } finally {
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
  delete env[SEALED_ENV_VARIABLE];
  Object.assign(env, secrets);
  return { kind: 'unsealed', names: Object.keys(secrets).sort() };
}

function writeSealedFile(secrets: Record<string, string>): string {
  // A private folder (0700) and file (0600); it lives only until the new image has started.
  const folder = mkdtempSync(path.join(tmpdir(), 'compact-agent-sealed-'));
  const file = path.join(folder, 'env.json');
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return file;
}
