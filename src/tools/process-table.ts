import { readdirSync, readFileSync } from 'node:fs';

/** Names the environment variable that tags every process a bash tool call starts. */
export const COMMAND_MARKER_VARIABLE = 'COMPACT_AGENT_COMMAND';

/** What identifies the processes of one command. */
export interface CommandIdentity {
  /** The shell's pid, which names its session and process group. */
  readonly sessionId: number;
  /** The value of COMMAND_MARKER_VARIABLE every process of the command inherits. */
  readonly marker: string;
  /** Taken just before the command was spawned: lets a scan skip what is older (see SpawnClock). */
  readonly spawn?: SpawnClock;
}

/**
 * Where the system stood just before a command was spawned. Reading /proc is slow on a busy
 * machine, so a scan skips what cannot be the command's: processes started earlier (their
 * environment is not read) and, while pids cannot have wrapped around, pids below the shell's.
 */
export interface SpawnClock {
  /** Clock ticks since boot (as /proc/<pid>/stat counts), rounded down. */
  readonly ticks: number | undefined;
  /** The last pid the kernel handed out, and the largest it hands out. */
  readonly lastPid: number | undefined;
  readonly pidMax: number | undefined;
  readonly atMs: number;
  /** The shell's pid, once spawned. */
  readonly shellPid?: number;
}

/** Forks per second no machine sustains; it bounds how soon pids can wrap around to the shell's. */
const MAX_FORKS_PER_SECOND = 50_000;

export function readSpawnClock(): SpawnClock {
  return {
    ticks: ticksSinceBoot(),
    lastPid: readNumber('/proc/sys/kernel/ns_last_pid'),
    pidMax: readNumber('/proc/sys/kernel/pid_max'),
    atMs: Date.now()
  };
}

/**
 * The lowest pid a process of the command can have: the shell's, as long as the kernel's pid
 * counter cannot have wrapped since the spawn (it still stands between the shell's pid and the
 * top, and too little time has passed to go all the way round); otherwise 0 (scan everything).
 */
function lowestPossiblePid(clock: SpawnClock | undefined): number {
  if (!clock?.shellPid || clock.lastPid === undefined || clock.pidMax === undefined) return 0;
  const lastPid = readNumber('/proc/sys/kernel/ns_last_pid');
  if (lastPid === undefined || clock.shellPid <= clock.lastPid || lastPid < clock.shellPid) return 0;
  const secondsToWrap = clock.pidMax / MAX_FORKS_PER_SECOND;
  return (Date.now() - clock.atMs) / 1000 < secondsToWrap ? clock.shellPid : 0;
}

function readNumber(file: string): number | undefined {
  try {
    const value = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface CommandScan {
  /** Live processes in the command's session or process group, or carrying its marker. */
  readonly members: number[];
  /**
   * Processes, newer than the command, in the middle of execve (environment and arguments read
   * empty for a moment): a scan that saw one proves nothing about it.
   */
  readonly unsettled: number;
}

/** Linux reports process times in USER_HZ, 100 per second on every architecture it runs on. */
const TICKS_PER_SECOND = 100;
/** The kernel's flag for its own threads, which have no environment at all. */
const PF_KTHREAD = 0x00200000;

/** Clock ticks since boot, slightly rounded down; undefined without /proc. */
function ticksSinceBoot(): number | undefined {
  try {
    const seconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return Number.isFinite(seconds) ? Math.floor(seconds * TICKS_PER_SECOND) - 2 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Looks through /proc for the processes of a command: those still in its session or process
 * group, and those whose environment carries its marker (what `setsid` or a double fork started;
 * they leave the session but inherit the environment). Elsewhere than Linux it finds nothing and
 * the caller's process-group kill is all there is.
 *
 * Limits, by design of the mechanism: a process that leaves the session and then rewrites its
 * own environment block, execs with a cleared one (`env -i`), or makes itself non-dumpable (its
 * environ is then unreadable) is not found; a process of another user (sudo, a setuid program)
 * could not be signalled anyway. Processes are not filtered by owner: the session and the marker
 * are specific to this command, and kill(2) refuses what this user may not signal.
 */
export function scanCommandProcesses(identity: CommandIdentity): CommandScan {
  const needle = Buffer.from(`${COMMAND_MARKER_VARIABLE}=${identity.marker}\0`);
  const members: number[] = [];
  let unsettled = 0;
  const lowestPid = lowestPossiblePid(identity.spawn);
  const startedAfterTicks = identity.spawn?.ticks;
  for (const pid of listPids()) {
    if (pid === process.pid || pid < lowestPid) continue;
    const entry = readStat(pid);
    // A zombie leader with live threads is a live process: its threads can still fork.
    if (!entry || ((entry.state === 'Z' || entry.state === 'X') && entry.threads <= 1)) continue;
    if (entry.sessionId === identity.sessionId || entry.processGroup === identity.sessionId) {
      members.push(pid);
      continue;
    }
    if ((entry.flags & PF_KTHREAD) !== 0) continue;
    if (startedAfterTicks !== undefined && entry.startTicks < startedAfterTicks) continue;
    const marked = environmentHas(
      entry.state === 'Z' || entry.state === 'X' ? liveThread(pid) : `${pid}`,
      needle
    );
    if (marked === true) members.push(pid);
    else if (marked === 'empty' && midExecve(pid)) unsettled++;
  }
  return { members, unsettled };
}

/** The members of a command (see scanCommandProcesses). */
export function findCommandProcesses(identity: CommandIdentity): number[] {
  return scanCommandProcesses(identity).members;
}

function listPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

interface StatEntry {
  readonly state: string;
  readonly processGroup: number;
  readonly sessionId: number;
  readonly flags: number;
  readonly startTicks: number;
  /** Live threads in the process (a leader that exited leaves the others running). */
  readonly threads: number;
}

/**
 * /proc/<pid>/stat: "pid (comm) state ppid pgrp session tty tpgid flags … starttime …"; comm may
 * hold spaces and parentheses, so fields are counted from the last ')'. Field N is fields[N - 3].
 */
function readStat(pid: number): StatEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // Exited while we looked.
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, processGroup, sessionId, flags, threads, startTicks] = [0, 2, 3, 6, 17, 19].map(
    (index) => fields[index]
  );
  if (state === undefined || startTicks === undefined) return undefined;
  return {
    state,
    processGroup: Number(processGroup),
    sessionId: Number(sessionId),
    flags: Number(flags),
    threads: Number(threads ?? 1),
    startTicks: Number(startTicks)
  };
}

/**
 * `<pid>/task/<tid>` of a thread still running in a process whose leader exited: the leader has no
 * memory left to read the environment from, its live threads do.
 */
function liveThread(pid: number): string {
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const state = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state !== undefined && state !== 'Z' && state !== 'X') return `${pid}/task/${tid}`;
    }
  } catch {
    // Gone while we looked.
  }
  return `${pid}`;
}

/**
 * Whether a process whose environment read empty is in the middle of execve: then its arguments
 * read empty too (the new image has neither yet). A process that merely runs with an empty
 * environment (`env -i`) still has its arguments, and is settled: the sweep need not wait for it.
 */
function midExecve(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`).length === 0;
  } catch {
    return false; // Gone.
  }
}

/**
 * True when one NUL-separated entry of the process's initial environment is exactly the needle;
 * 'empty' when the environment read empty (see CommandScan.unsettled).
 */
function environmentHas(procEntry: string, needle: Buffer): boolean | 'empty' {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${procEntry}/environ`);
  } catch {
    return false;
  }
  if (environ.length === 0) return 'empty';
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}
