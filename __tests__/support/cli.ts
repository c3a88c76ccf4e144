import { buildSync } from 'esbuild';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CliCommand } from '../../src/cli/command.js';
import { runCli } from '../../src/cli/main.js';
import { ACTION_NODE } from '../../test-support/action-node.js';

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

let sourceBundle: string | undefined;

/**
 * The CLI's current sources bundled by esbuild, once per test file: a start then costs what the
 * built CLI's does (about 0.4 s of CPU), where tsx's loader costs about 1.8 s per start, compiling and
 * resolving every module again. ESM needs `require` made for the CommonJS dependencies it inlines.
 * The file is named by its content, so test files share it and a folder holds one per version.
 */
function sourceCliBundle(): string {
  if (sourceBundle === undefined) {
    const built = buildSync({
      entryPoints: [path.resolve('src/cli/index.ts')],
      write: false,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'warning',
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);"
      }
    });
    const code = built.outputFiles[0]!.contents;
    const folder = path.join(tmpdir(), 'compact-agent-cli-sources');
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    // Written whole under a temporary name, then renamed: a parallel test file never runs half a file.
    if (!existsSync(file)) {
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, code);
      renameSync(partial, file);
    }
    sourceBundle = file;
  }
  return sourceBundle;
}

const entryOf = (build: CliBuild): string => (build === 'built' ? 'dist/cli/index.js' : sourceCliBundle());

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
