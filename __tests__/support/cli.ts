import { spawn } from 'node:child_process';
import type { CliCommand } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/main.js';
import { ACTION_NODE } from '../../test-support/action-node.js';
import { bundleSources } from '../../test-support/source-bundle.js';

/** What a CLI run left: its exit code and what it wrote to each stream. */
export interface CliExit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment a CLI test gives a run: PATH and HOME, then `more` (an API key, the fake's URL).
 * Nothing else of the test runner's environment leaks in.
 */
export function cliEnv(more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...more };
}

/** The usual environment of a run against the fake model server: a key and its address. */
export const fakeModelEnv = (url: string): NodeJS.ProcessEnv =>
  cliEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url });

/**
 * The CLI in this process (runCli, the sources): the fastest way to test a command, each write one
 * line. `commands` swaps the command table (a test of the parser).
 */
export async function cliInProcess(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  commands?: readonly CliCommand[]
): Promise<CliExit & { readonly code: number }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (text: string) => (stdout += `${text}\n`),
    stderr: (text: string) => (stderr += `${text}\n`),
    env
  };
  const code = await (commands ? runCli(argv, io, commands) : runCli(argv, io));
  return { code, stdout, stderr };
}

/** Where a spawned CLI comes from: its sources (bundled for the test), or the build (dist/cli/). */
export type CliBuild = 'source' | 'built';

/** The sources bundled once per test file (see bundleSources): tsx's loader costs ~1.4 s more per start. */
const entryOf = (build: CliBuild): string =>
  build === 'built' ? 'dist/cli/index.js' : bundleSources('src/cli/index.ts');

export interface SpawnedNodeOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Killed (SIGKILL) past this: only for a test of a program that might wait forever. */
  readonly timeoutMs?: number;
}

/**
 * A Node program in its own process on the Node the project targets (it has process.execve, so the
 * CLI seals its environment), with exactly the environment given; both streams collected.
 */
export function spawnNode(args: readonly string[], options: SpawnedNodeOptions): Promise<CliExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(ACTION_NODE, args, {
      env: options.env,
      cwd: options.cwd ?? process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, killSignal: 'SIGKILL' })
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface SpawnedCliOptions extends Omit<SpawnedNodeOptions, 'cwd'> {
  /** The sources by default; `built` for a test of what users run. */
  readonly from?: CliBuild;
}

/** The CLI as a user starts it, in its own process (see spawnNode), from the sources or the build. */
export const spawnCli = (args: readonly string[], options: SpawnedCliOptions): Promise<CliExit> =>
  spawnNode([entryOf(options.from ?? 'source'), ...args], options);

/** The built CLI (dist/cli/index.js), as a user starts it. */
export const runBuiltCli = (args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliExit> =>
  spawnCli(args, { env, from: 'built' });
