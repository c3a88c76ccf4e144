import { killCommandProcesses } from '../process-sweep.js';
import type { SpawnClock } from '../process-table.js';

/**
 * An MCP server is not a session leader (the SDK spawns it in ours), so it cannot be found by its
 * session as a bash command is: only by the marker in its environment. No process has session or
 * process group -1, so the sweep matches by marker alone and signals no group.
 */
const NO_SESSION = -1;

/**
 * Kills what is left of an MCP server once its transport is closed: the children it started
 * (`npx` starts node, a wrapper script starts the real server), which inherit its marker. The same
 * sweep as a bash command's, so a child caught mid-execve is rescanned too. Returns the pids a last
 * scan still saw.
 */
export function killMarkedProcesses(marker: string, spawn: SpawnClock): Promise<number[]> {
  return killCommandProcesses({ sessionId: NO_SESSION, marker, spawn });
}
