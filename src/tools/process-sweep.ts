import { setTimeout as delay } from 'node:timers/promises';
import { findCommandProcesses, type CommandIdentity } from './process-table.js';

/** Enough rounds to catch processes forked while we killed their parents, bounded for a fork bomb. */
const MAX_ROUNDS = 60;
const PAUSE_BETWEEN_ROUNDS_MS = 15;
/**
 * A process in the middle of execve briefly shows an empty environment in /proc, so one empty scan
 * proves little: the sweep ends only after this many empty scans in a row.
 */
const QUIET_SCANS_TO_FINISH = 3;

/**
 * Kills everything a command started: its process group at once, then, round after round, every
 * process still in its session or carrying its marker, until a scan finds none (or the rounds run
 * out). SIGKILL throughout: a process that ignores SIGTERM must not keep the run waiting.
 * Returns the processes a last scan still saw (empty when the sweep succeeded).
 */
export async function killCommandProcesses(identity: CommandIdentity): Promise<number[]> {
  signal(-identity.sessionId);
  let quietScans = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const alive = findCommandProcesses(identity);
    quietScans = alive.length === 0 ? quietScans + 1 : 0;
    if (quietScans === QUIET_SCANS_TO_FINISH) return [];
    for (const pid of alive) signal(pid);
    await delay(PAUSE_BETWEEN_ROUNDS_MS);
  }
  return findCommandProcesses(identity);
}

function signal(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
