import { readdirSync, readFileSync } from 'node:fs';

/** Names the environment variable that tags every process a bash tool call starts. */
export const COMMAND_MARKER_VARIABLE = 'COMPACT_AGENT_COMMAND';

/** What identifies the processes of one command: its session (the shell's pid) and its marker. */
export interface CommandIdentity {
  readonly sessionId: number;
  readonly marker: string;
}

/**
 * The live processes of this user that belong to a command: those still in its session or process
 * group, and those whose environment carries its marker (what `setsid` or a double fork started;
 * they leave the session but inherit the environment). Reads Linux's /proc; elsewhere it finds
 * nothing and the caller's process-group kill is all there is.
 *
 * Limits, by design of the mechanism: a process that leaves the session and then rewrites its
 * own environment block, execs with a cleared one (`env -i`), or makes itself non-dumpable (its
 * environ is then unreadable) is not found; a process of another user (sudo, a setuid program)
 * could not be signalled anyway. Processes are not filtered by owner: the session and the marker
 * are specific to this command, and kill(2) refuses what this user may not signal.
 */
export function findCommandProcesses(identity: CommandIdentity): number[] {
  const needle = Buffer.from(`${COMMAND_MARKER_VARIABLE}=${identity.marker}\0`);
  const found: number[] = [];
  for (const pid of listPids()) {
    if (pid === process.pid) continue;
    const membership = readMembership(pid);
    if (!membership || membership.state === 'Z' || membership.state === 'X') continue;
    const inSession =
      membership.sessionId === identity.sessionId || membership.processGroup === identity.sessionId;
    if (inSession || environmentHas(pid, needle)) found.push(pid);
  }
  return found;
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

interface Membership {
  readonly state: string;
  readonly processGroup: number;
  readonly sessionId: number;
}

/** /proc/<pid>/stat: "pid (comm) state ppid pgrp session …"; comm may hold spaces and parentheses. */
function readMembership(pid: number): Membership | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // Exited while we looked.
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, , processGroup, sessionId] = fields;
  if (state === undefined || processGroup === undefined || sessionId === undefined) return undefined;
  return { state, processGroup: Number(processGroup), sessionId: Number(sessionId) };
}

/** True when one NUL-separated entry of the process's initial environment is exactly the needle. */
function environmentHas(pid: number, needle: Buffer): boolean {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false;
  }
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}
