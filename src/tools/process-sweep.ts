import { setTimeout as delay } from 'node:timers/promises';
import { findCommandProcesses, type CommandIdentity } from './process-table.js';

/** Enough rounds to catch processes forked while we killed their parents, bounded for a fork bomb. */
const MAX_ROUNDS = 50;
const PAUSE_BETWEEN_ROUNDS_MS = 10;

/**
 * Kills everything a command started: its process group at once, then, round after round, every
 * process still in its session or carrying its marker, until a scan finds none (or the rounds run
 * out). SIGKILL throughout: a process that ignores SIGTERM must not keep the run waiting.
 * Returns the processes a last scan still saw (empty when the sweep succeeded).
 */
export async function killCommandProcesses(identity: CommandIdentity): Promise<number[]> {
  signal(-identity.sessionId);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const alive = findCommandProcesses(identity);
    if (alive.length === 0) return [];
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
