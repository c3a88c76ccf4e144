import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { globby } from 'globby';
import { FanoutInputError } from './fanout-error.js';
import { ownedFiles } from './owned-files.js';
import { normalizeUnitPath } from './unit-path.js';
import { describeUnitSource, type UnitSource } from './unit-source.js';
import { unboxedValidation, type ValidationRunner } from './validation.js';

export interface UnitListingOptions {
  readonly repoDir: string;
  /** The caller's environment: the unit command gets it without secrets, as the agent's commands do. */
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  /** How long the unit command may run (default 5 minutes). */
  readonly timeoutMs?: number;
}

/** A re-scan runs the unit command on code agents wrote: always through a runner (the box). */
export interface UnitRescanOptions extends UnitListingOptions {
  readonly runner: ValidationRunner;
  /** Folders outside `repoDir` the box shows read-only (the git objects the scanned repository borrows). */
  readonly readOnlyFolders: readonly string[];
}

/**
 * A re-scan for the burndown: how many units are left, where none left is the goal, not an error
 * (and `git grep -l`'s exit 1 with no output means none). Undefined when the scan itself fails.
 */
export async function countUnits(
  source: UnitSource,
  options: UnitRescanOptions
): Promise<number | undefined> {
  try {
    const raw =
      source.kind === 'command'
        ? linesOf(await unitCommandOutput(source.command, { ...options, noMatchIsEmpty: true }))
        : await rawUnits(source, options);
    return new Set(raw.map((line) => normalizeUnitPath(line, describeUnitSource(source)))).size;
  } catch {
    return undefined;
  }
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
/** Past this much output the listing would be cut in the middle: an error, never a silent loss of units. */
const MAX_LISTING_CHARS = 8_000_000;

/**
 * The units of a fan-out, sorted and without duplicates, each a normalized path inside the
 * repository. The plan runs the unit command on the person's own checkout before any agent ran,
 * as they would themselves (no box); a re-scan of landed code goes through countUnits' runner. An empty list, a command that fails or a path outside the repository is a
 * FanoutInputError that says what to change.
 */
export async function listUnits(source: UnitSource, options: UnitListingOptions): Promise<string[]> {
  const raw = await rawUnits(source, options);
  const origin = describeUnitSource(source);
  const units = [...new Set(raw.map((line) => normalizeUnitPath(line, origin)))].sort();
  if (units.length === 0)
    throw new FanoutInputError(
      `${origin} listed no units, so there is nothing to fan out. Check it in the repository ` +
        '(it should print one path per line), or give other units.'
    );
  return units;
}

async function rawUnits(source: UnitSource, options: UnitListingOptions): Promise<string[]> {
  switch (source.kind) {
    case 'command':
      return linesOf(await unitCommandOutput(source.command, options));
    case 'globs':
      return globby([...source.patterns], {
        cwd: options.repoDir,
        gitignore: true,
        dot: false,
        followSymbolicLinks: false
      });
    case 'packages':
      return workspacePackages(options.repoDir);
    case 'owners':
      return ownedFiles(options.repoDir, source.owners);
  }
}

/**
 * Runs the unit command like the agent's commands (bounded, its children ended), without secrets:
 * through `runner` when given (the box), else on the host.
 */
async function unitCommandOutput(
  command: string,
  options: UnitListingOptions & {
    readonly noMatchIsEmpty?: boolean;
    readonly runner?: ValidationRunner;
    readonly readOnlyFolders?: readonly string[];
  }
): Promise<string> {
  if (command.trim() === '')
    throw new FanoutInputError('The unit command is empty. Give a command that prints one path per line.');
  const runner = options.runner ?? unboxedValidation(options.env);
  const result = await runner(command, {
    cwd: options.repoDir,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    signal: options.signal ?? new AbortController().signal,
    maxStreamChars: MAX_LISTING_CHARS,
    ...(options.readOnlyFolders ? { readOnlyFolders: options.readOnlyFolders } : {})
  });
  if (
    options.noMatchIsEmpty &&
    result.exitCode === 1 &&
    result.stdout.trim() === '' &&
    result.stderr.trim() === ''
  )
    return '';
  const why = result.timedOut
    ? `did not finish in ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`
    : result.cancelled
      ? 'was cancelled'
      : result.exitCode !== 0
        ? `exited with code ${result.exitCode}`
        : undefined;
  if (why !== undefined) {
    const detail = result.stderr.trim().split('\n').slice(-3).join(' ');
    throw new FanoutInputError(
      `The unit command \`${command}\` ${why}${detail ? ` (${detail})` : ''}. ` +
        'Run it in the repository yourself and fix it; it must exit 0 and print one path per line. ' +
        '(`git grep -l` exits 1 when nothing matches: then there is nothing to fan out.)'
    );
  }
  if (result.stdout.length >= MAX_LISTING_CHARS)
    throw new FanoutInputError(
      `The unit command \`${command}\` printed more than ${MAX_LISTING_CHARS} characters. ` +
        'List fewer units (a narrower path or pattern) and fan out in several runs.'
    );
  return result.stdout;
}

function linesOf(output: string): string[] {
  return output.split('\n').filter((line) => line.trim() !== '');
}

/** package.json's `workspaces` (npm and yarn: an array, or `{ packages: [...] }`), folders that hold a package.json. */
async function workspacePackages(repoDir: string): Promise<string[]> {
  const file = path.join(repoDir, 'package.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    throw new FanoutInputError(
      'The units are the workspace packages, but the repository has no readable package.json at its root. ' +
        'List the units with a command or globs instead.'
    );
  }
  const workspaces =
    typeof manifest === 'object' && manifest !== null && 'workspaces' in manifest
      ? manifest.workspaces
      : undefined;
  const patterns = Array.isArray(workspaces)
    ? workspaces
    : typeof workspaces === 'object' && workspaces !== null && 'packages' in workspaces
      ? workspaces.packages
      : undefined;
  if (!Array.isArray(patterns) || !patterns.every((entry): entry is string => typeof entry === 'string'))
    throw new FanoutInputError(
      'The units are the workspace packages, but package.json names no `workspaces` (a list of folders ' +
        'or globs). List the units with a command or globs instead.'
    );
  const manifests = await globby(
    patterns.map((pattern) => `${pattern.replace(/\/+$/, '')}/package.json`),
    { cwd: repoDir, gitignore: true, ignore: ['**/node_modules/**'], followSymbolicLinks: false }
  );
  return manifests.map((found) => path.posix.dirname(found));
}
