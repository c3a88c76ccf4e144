/** The sweep kills what carries a command's marker or sits in its session, and nothing else. */
import { spawn, type ChildProcess } from 'node:child_process';
import { killCommandProcesses } from '../../src/tools/process-sweep.js';
import {
  COMMAND_MARKER_VARIABLE,
  findCommandProcesses,
  readSpawnClock,
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

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.signalCode)
    : new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_, signal) => resolve(signal)));

describe('killCommandProcesses', () => {
  it('kills a process that left the session but carries the marker, and spares look-alikes', async () => {
    const marked = await sleeper('a1b2c3');
    const otherMarker = await sleeper('a1b2c3d4'); // a marker that merely starts the same
    const unmarked = await sleeper(undefined);
    const unrelatedSession = 2 ** 22 + 12345; // no process has this session id
    const identity = { sessionId: unrelatedSession, marker: 'a1b2c3' };

    expect(findCommandProcesses(identity)).toEqual([marked.pid]);
    expect(await killCommandProcesses(identity)).toEqual([]);
    expect(await exited(marked)).toBe('SIGKILL');
    expect(otherMarker.exitCode).toBeNull();
    expect(otherMarker.signalCode).toBeNull();
    expect(unmarked.signalCode).toBeNull();
  });

  it('kills every process in the session, marker or not', async () => {
    const leader = await sleeper(undefined);
    const identity = { sessionId: leader.pid ?? -1, marker: 'not-present' };
    expect(findCommandProcesses(identity)).toEqual([leader.pid]);
    await killCommandProcesses(identity);
    expect(await exited(leader)).toBe('SIGKILL');
  });

  it('skips processes older than the command, by start time and by pid', async () => {
    const before = readSpawnClock();
    const marked = await sleeper('e5f6');
    const identity = (spawn: SpawnClock) => ({ sessionId: -1, marker: 'e5f6', spawn });
    expect(findCommandProcesses(identity({ ...before, shellPid: marked.pid }))).toEqual([marked.pid]);

    // A command that started an hour after this process cannot own it, whatever its environment says.
    const anHourLater = { ...before, ticks: (before.ticks ?? 0) + 100 * 3600, shellPid: marked.pid };
    expect(findCommandProcesses(identity(anHourLater))).toEqual([]);

    // A command whose shell got a higher pid (with no wrap-around since) cannot own it either.
    const after = readSpawnClock();
    await sleeper(undefined); // moves the kernel's pid counter past the "shell" below
    const higherPid = { ...after, ticks: undefined, shellPid: (after.lastPid ?? 0) + 1 };
    expect(findCommandProcesses(identity(higherPid))).toEqual([]);
    expect(findCommandProcesses(identity({ ...higherPid, pidMax: 0 }))).toEqual([marked.pid]); // could have wrapped
  });
});
