import { setTimeout as delay } from 'node:timers/promises';
import { scanCommandProcesses, type CommandIdentity } from './process-table.js';

/** Enough rounds to catch processes forked while we killed their parents, bounded for a fork bomb. */
const MAX_KILL_ROUNDS = 60;
const PAUSE_BETWEEN_SCANS_MS = 10;
/**
 * How long the sweep waits for processes caught in the middle of execve to settle. Only processes
 * truly mid-execve count (see CommandScan.unsettled), and an execve ends, so the wait is bounded by
 * time, not by a number of scans: on a loaded 2-core runner a stalled execve outlasted 40 rescans
 * (~0.5 s), and the double-forked daemon it became outlived the sweep.
 */
const MAX_UNSETTLED_WAIT_MS = 10_000;
/**
 * Clean scans in a row (no member, nothing mid-execve) that end the sweep. One is not proof: a
 * process read while it changed (its environment, its state) can look like no member for one scan.
 */
const CLEAN_SCANS_TO_END = 2;

/**
 * Kills everything a command started: its process group at once, then, scan after scan, every
 * process still in its session or carrying its marker, until scans in a row find none (or the kill
 * rounds run out). SIGKILL throughout: a process that ignores SIGTERM must not keep the run waiting.
 * Returns the processes a last scan still saw (empty when the sweep succeeded).
 */
export async function killCommandProcesses(identity: CommandIdentity): Promise<number[]> {
  // A process found by its marker alone (no session of its own, sessionId <= 0) has no group to kill:
  // kill(-(-1)) would signal pid 1, kill(-0) our own group.
  if (identity.sessionId > 0) signal(-identity.sessionId);
  let killRounds = 0;
  let cleanScans = 0;
  let unsettledSince: number | undefined;
  for (;;) {
    const scan = scanCommandProcesses(identity);
    if (scan.members.length > 0) {
      cleanScans = 0;
      if (++killRounds > MAX_KILL_ROUNDS) return scan.members;
      for (const pid of scan.members) signal(pid);
    } else if (scan.unsettled > 0) {
      cleanScans = 0;
      unsettledSince ??= Date.now();
      if (Date.now() - unsettledSince > MAX_UNSETTLED_WAIT_MS) return [];
    } else if (++cleanScans === CLEAN_SCANS_TO_END) {
      return [];
    }
    await delay(PAUSE_BETWEEN_SCANS_MS);
  }
}

function signal(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
