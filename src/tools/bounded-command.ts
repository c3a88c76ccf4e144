import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BoundedBuffer } from './bounded-buffer.js';
import { COMMAND_MARKER_VARIABLE, readSpawnClock } from './process-table.js';
import { killCommandProcesses } from './process-sweep.js';
import type { BlockedAttempt } from '../sandbox/blocked-log.js';
import type { BoxedCommand, CommandBox } from '../sandbox/command-box.js';

/** How long output may still arrive once the command has ended (a background child may hold the pipe). */
export const OUTPUT_GRACE_MS = 300;

export interface CommandResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  /** In the box: the destinations its proxy refused this command. */
  readonly blocked?: readonly BlockedAttempt[];
}

export interface RunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Characters kept per stream (head and tail). */
  readonly maxStreamChars: number;
  /** Run inside this box (src/sandbox/); without one, the process sweep ends what the command left. */
  readonly box?: CommandBox;
}

/**
 * Runs `bash -c` as a bounded process. The shell leads its own session, and every process it starts
 * inherits a random marker in its environment. The call ends when the shell exits (not when its
 * pipes close: a background child may hold them forever), at the timeout, or on cancellation;
 * then everything in the session or carrying the marker is killed, `setsid` and double-forked
 * daemons included, and what the pipes still hold is read for a short grace.
 */
export async function runBoundedCommand(command: string, options: RunOptions): Promise<CommandResult> {
  if (!options.box || options.signal.aborted) return runCommand(command, options, undefined);
  const boxed = await options.box.wrap(command, options.env);
  try {
    const result = await runCommand(command, options, boxed);
    const blocked = await boxed.finish();
    return blocked.length > 0 ? { ...result, blocked } : result;
  } catch (error) {
    await boxed.finish();
    throw error;
  }
}

/**
 * In the box, ending the command is killing bubblewrap: bubblewrap's init, PID 1 of
 * the command's PID namespace, dies with it (--die-with-parent), and the kernel kills every process
 * left in that namespace, daemons included. No sweep is needed, and none could see inside.
 */
function runCommand(
  command: string,
  options: RunOptions,
  boxed: BoxedCommand | undefined
): Promise<CommandResult> {
  const marker = randomBytes(16).toString('hex');
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      resolve({ exitCode: null, stdout: '', stderr: '', timedOut: false, cancelled: true });
      return;
    }
    const spawnClock = readSpawnClock();
    const child = spawn(boxed?.file ?? 'bash', boxed ? [...boxed.args] : ['-c', command], {
      cwd: options.cwd,
      env: boxed ? boxed.env : { ...options.env, [COMMAND_MARKER_VARIABLE]: marker },
      // setsid(): the shell's pid names its session and process group. bubblewrap needs none (its
      // --new-session does it inside), and a new session costs it about 10 ms per command here.
      detached: !boxed,
      stdio: ['ignore', 'pipe', 'pipe']
    });
    const stdout = collect(child.stdout, options.maxStreamChars);
    const stderr = collect(child.stderr, options.maxStreamChars);
    let ending: 'exited' | 'timed out' | 'cancelled' | undefined;
    let exitCode: number | null = null;

    const end = async (how: 'exited' | 'timed out' | 'cancelled') => {
      if (ending) return;
      ending = how;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (child.pid !== undefined && boxed) {
        killBox(child.pid);
      } else if (child.pid !== undefined) {
        await killCommandProcesses({
          sessionId: child.pid,
          marker,
          spawn: { ...spawnClock, shellPid: child.pid }
        });
      }
      await drain(child, OUTPUT_GRACE_MS);
      resolve({
        exitCode: how === 'exited' ? exitCode : null,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut: how === 'timed out',
        cancelled: how === 'cancelled'
      });
    };
    const timer = setTimeout(() => void end('timed out'), options.timeoutMs);
    const onAbort = () => void end('cancelled');
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      if (ending) return;
      ending = 'exited';
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', (code) => {
      exitCode = code;
      void end('exited');
    });
  });
}

/** bubblewrap itself: its init (PID 1 of the box) dies with it, and the kernel ends the rest. */
function killBox(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function collect(stream: Readable, maxChars: number): BoundedBuffer {
  const buffer = new BoundedBuffer(maxChars);
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => buffer.append(chunk));
  stream.on('error', () => undefined); // A destroyed pipe is expected at the end.
  return buffer;
}

/** Waits until both pipes reach their end, or the grace runs out; then closes them. */
async function drain(child: ChildProcess, graceMs: number): Promise<void> {
  const streams = [child.stdout, child.stderr].filter((stream): stream is Readable => stream !== null);
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([Promise.all(streams.map(ended)), grace]);
  clearTimeout(timer);
  for (const stream of streams) stream.destroy();
}

function ended(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
}
