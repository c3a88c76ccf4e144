/** The sweep kills what carries a command's marker or sits in its session, and nothing else. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { killCommandProcesses } from '../../src/tools/process-sweep.js';
import {
  COMMAND_MARKER_VARIABLE,
  findCommandProcesses,
  readSpawnClock,
  scanCommandProcesses,
  type SpawnClock
} from '../../src/tools/process-table.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A sleeping process in a session of its own, with the given marker (or none) in its environment. */
function sleeper(marker: string | undefined): Promise<ChildProcess> {
  const env = { PATH: process.env.PATH, ...(marker && { [COMMAND_MARKER_VARIABLE]: marker }) };
  const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env });
  started.push(child);
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child));
    child.once('error', reject);
  });
}

// Markers unique to this run: two test runs on one machine must not see (or kill) each other's sleepers.
const freshMarker = () => randomBytes(6).toString('hex');

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.signalCode)
    : new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_, signal) => resolve(signal)));

describe('killCommandProcesses', () => {
  it('kills a process that left the session but carries the marker, and spares look-alikes', async () => {
    const marker = freshMarker();
    const marked = await sleeper(marker);
    const otherMarker = await sleeper(`${marker}d4`); // a marker that merely starts the same
    const unmarked = await sleeper(undefined);
    const unrelatedSession = 2 ** 22 + 12345; // no process has this session id
    const identity = { sessionId: unrelatedSession, marker };

    expect(findCommandProcesses(identity)).toEqual([marked.pid]);
    expect(await killCommandProcesses(identity)).toEqual([]);
    expect(await exited(marked)).toBe('SIGKILL');
    expect(otherMarker.exitCode).toBeNull();
    expect(otherMarker.signalCode).toBeNull();
    expect(unmarked.signalCode).toBeNull();
  });

  it('kills every process in the session, marker or not', async () => {
    const leader = await sleeper(undefined);
    const identity = { sessionId: leader.pid ?? -1, marker: freshMarker() };
    expect(findCommandProcesses(identity)).toEqual([leader.pid]);
    await killCommandProcesses(identity);
    expect(await exited(leader)).toBe('SIGKILL');
  });

  it('skips processes older than the command, by start time and by pid', async () => {
    const before = readSpawnClock();
    const marker = freshMarker();
    const marked = await sleeper(marker);
    const identity = (spawn: SpawnClock) => ({ sessionId: -1, marker, spawn });
    expect(findCommandProcesses(identity({ ...before, shellPid: marked.pid }))).toEqual([marked.pid]);

    // A command that started an hour after this process cannot own it, whatever its environment says.
    const anHourLater = { ...before, ticks: (before.ticks ?? 0) + 100 * 3600, shellPid: marked.pid };
    expect(findCommandProcesses(identity(anHourLater))).toEqual([]);

    // A command whose shell got a higher pid (with no wrap-around since) cannot own it either.
    const after = readSpawnClock();
    await sleeper(undefined); // moves the kernel's pid counter past the "shell" below
    // Read the clock now: pids are trusted only for pid_max / 50,000 s (0.66 s at 32,768), and a
    // loaded runner can take that long to spawn the sleeper.
    const higherPid = { ...after, atMs: Date.now(), ticks: undefined, shellPid: (after.lastPid ?? 0) + 1 };
    expect(findCommandProcesses(identity(higherPid))).toEqual([]);
    expect(findCommandProcesses(identity({ ...higherPid, pidMax: 0 }))).toEqual([marked.pid]); // could have wrapped
  });

  it('kills a process whose first thread exited while another runs on (its leader reads as a zombie)', async () => {
    const marker = freshMarker();
    // The main thread leaves with pthread_exit; the second thread holds the process alive.
    const program = [
      'import ctypes, threading, time',
      'threading.Thread(target=lambda: time.sleep(300), daemon=True).start()',
      'ctypes.CDLL(None).pthread_exit(None)'
    ].join('\n');
    const env = { PATH: process.env.PATH, [COMMAND_MARKER_VARIABLE]: marker };
    const child = spawn('python3', ['-c', program], { detached: true, stdio: 'ignore', env });
    started.push(child);
    await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
    // Wait until the leader is a zombie with a live thread beside it (what the scan must not skip).
    for (let tries = 0; !zombieWithThreads(child.pid!) && tries < 400; tries++) await delay(25);
    expect(zombieWithThreads(child.pid!)).toBe(true);

    const identity = { sessionId: 2 ** 22 + 12346, marker };
    expect(findCommandProcesses(identity)).toEqual([child.pid]);
    expect(await killCommandProcesses(identity)).toEqual([]);
    expect(await exited(child)).toBe('SIGKILL');
  });

  it('does not wait for a process with an empty environment: only one in the middle of execve is unsettled', async () => {
    const before = readSpawnClock();
    const bare = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env: {} });
    started.push(bare);
    await new Promise((resolve, reject) => bare.once('spawn', resolve).once('error', reject));
    for (let tries = 0; !hasArguments(bare.pid!) && tries < 400; tries++) await delay(25);
    const scan = scanCommandProcesses({ sessionId: -1, marker: freshMarker(), spawn: before });
    expect(scan.members).toEqual([]);
    expect(scan.unsettled).toBe(0);
  });
});

/** /proc/<pid>/stat says zombie while more than one thread lives. */
function zombieWithThreads(pid: number): boolean {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return fields[0] === 'Z' && Number(fields[17]) > 1;
  } catch {
    return false;
  }
}

function hasArguments(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`).length > 0;
  } catch {
    return false;
  }
}
