import { setTimeout as delay } from 'node:timers/promises';
import { scanCommandProcesses, type CommandIdentity } from './process-table.js';

/** Enough rounds to catch processes forked while we killed their parents, bounded for a fork bomb. */
const MAX_ROUNDS = 60;
const PAUSE_BETWEEN_ROUNDS_MS = 10;
/**
 * Rescans for a scan that found no member but saw processes mid-execve; beyond this they are let be.
 * An execve can stall for tens of milliseconds on a loaded runner: 5 rescans (~50 ms) let a
 * double-forked daemon finish its execve after the sweep had given up, in CI under load. 40 rescans
 * (under a second, within MAX_ROUNDS) cost nothing when no process is mid-execve.
 */
const MAX_UNSETTLED_RESCANS = 40;

/**
 * Kills everything a command started: its process group at once, then, round after round, every
 * process still in its session or carrying its marker, until a scan finds none (or the rounds run
 * out). SIGKILL throughout: a process that ignores SIGTERM must not keep the run waiting.
 * Returns the processes a last scan still saw (empty when the sweep succeeded).
 */
export async function killCommandProcesses(identity: CommandIdentity): Promise<number[]> {
  // A process found by its marker alone (no session of its own, sessionId <= 0) has no group to kill:
  // kill(-(-1)) would signal pid 1, kill(-0) our own group.
  if (identity.sessionId > 0) signal(-identity.sessionId);
  let unsettledRescans = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const scan = scanCommandProcesses(identity);
    if (scan.members.length === 0) {
      if (scan.unsettled === 0 || unsettledRescans === MAX_UNSETTLED_RESCANS) return [];
      unsettledRescans++;
    }
    for (const pid of scan.members) signal(pid);
    await delay(PAUSE_BETWEEN_ROUNDS_MS);
  }
  return scanCommandProcesses(identity).members;
}

function signal(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
