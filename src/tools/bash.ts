import { spawn } from 'node:child_process';
import { z } from 'zod';
import { defineTool } from './tool.js';
import { capText } from './cap-text.js';

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
const MAX_BASH_TIMEOUT_MS = 600_000;
/** Per stream; a command that prints more keeps its head and tail, which hold what matters. */
export const MAX_STREAM_CHARS = 30_000;

const bashInput = z.object({
  command: z.string().min(1).describe('The shell command to run (bash -c) in the repository root.'),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .max(MAX_BASH_TIMEOUT_MS)
    .optional()
    .describe(`Timeout in milliseconds (default ${DEFAULT_BASH_TIMEOUT_MS}, at most ${MAX_BASH_TIMEOUT_MS}).`)
});

export interface CommandResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

export function createBashTool(defaultTimeoutMs = DEFAULT_BASH_TIMEOUT_MS) {
  return defineTool({
    name: 'bash',
    description:
      'Run a shell command in the repository root. Returns the exit code, stdout and stderr ' +
      `(each capped at ${MAX_STREAM_CHARS} characters, head and tail kept). ` +
      'Use it to run tests, builds and git commands. Do not push: the action commits and pushes for you.',
    inputSchema: bashInput,
    async run(input, context) {
      const result = await runCommand(input.command, {
        cwd: context.workspace.root,
        env: context.env,
        timeoutMs: input.timeout_ms ?? defaultTimeoutMs,
        signal: context.signal
      });
      return { content: formatCommandResult(result), isError: result.timedOut || result.exitCode !== 0 };
    }
  });
}

export function formatCommandResult(result: CommandResult): string {
  const status = result.timedOut ? 'timed out (killed)' : `exit code: ${result.exitCode ?? 'none'}`;
  return [
    status,
    '--- stdout ---',
    capText(result.stdout, MAX_STREAM_CHARS),
    '--- stderr ---',
    capText(result.stderr, MAX_STREAM_CHARS)
  ].join('\n');
}

interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Runs `bash -c` in its own process group so a timeout kills the whole tree, not just the shell. */
export function runCommand(command: string, options: RunOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe']
    });
    const stdout = new BoundedBuffer(MAX_STREAM_CHARS * 4);
    const stderr = new BoundedBuffer(MAX_STREAM_CHARS * 4);
    let timedOut = false;
    const killTree = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, options.timeoutMs);
    const onAbort = () => killTree();
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.append(chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ exitCode: code, stdout: stdout.text(), stderr: stderr.text(), timedOut });
    });
  });
}

/** Keeps the first and last halves of a stream so a command that prints gigabytes cannot exhaust memory. */
class BoundedBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;

  constructor(private readonly limit: number) {}

  append(chunk: string): void {
    const half = this.limit / 2;
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk.length === 0) return;
    this.tail += chunk;
    if (this.tail.length > half) {
      this.dropped += this.tail.length - half;
      this.tail = this.tail.slice(this.tail.length - half);
    }
  }

  text(): string {
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n[... ${this.dropped} characters dropped ...]\n${this.tail}`;
  }
}
