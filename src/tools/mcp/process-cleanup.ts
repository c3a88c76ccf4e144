import { setTimeout as delay } from 'node:timers/promises';
import { scanCommandProcesses, type SpawnClock } from '../process-table.js';

const MAX_ROUNDS = 20;
const PAUSE_BETWEEN_ROUNDS_MS = 10;
/**
 * An MCP server is not a session leader (the SDK spawns it in ours), so it cannot be found by its
 * session as a bash command is: only by the marker in its environment. No process has session or
 * process group -1, so the scan matches by marker alone, and nothing here signals a group.
 */
const NO_SESSION = -1;

/**
 * Kills what is left of an MCP server once its transport is closed: the children it started
 * (`npx` starts node, a wrapper script starts the real server), which inherit its marker.
 * SIGKILL, round after round, until a scan finds none. Returns the pids a last scan still saw.
 */
export async function killMarkedProcesses(marker: string, spawn: SpawnClock): Promise<number[]> {
  const identity = { sessionId: NO_SESSION, marker, spawn };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { members } = scanCommandProcesses(identity);
    if (members.length === 0) return [];
    for (const pid of members) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await delay(PAUSE_BETWEEN_ROUNDS_MS);
  }
  return scanCommandProcesses(identity).members;
}
