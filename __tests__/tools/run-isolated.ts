import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface IsolatedRun {
  /** Null when the child was killed at the deadline (the attack hung it). */
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a TypeScript snippet in a child Node process (through tsx) with a deadline. An attack that
 * blocks the event loop or a synchronous call would hang the test runner itself; in a child it
 * is killed at the deadline and the test fails cleanly. `src(...)` in the snippet is the absolute
 * path of a source module, for imports.
 */
export function runIsolated(
  snippet: (src: (relative: string) => string) => string,
  deadlineMs = 45_000
): IsolatedRun {
  const dir = mkdtempSync(path.join(tmpdir(), 'compact-agent-isolated-'));
  try {
    const script = path.join(dir, 'snippet.mts');
    writeFileSync(
      script,
      snippet((relative) => JSON.stringify(path.resolve('src', relative)))
    );
    const run = spawnSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), script], {
      encoding: 'utf8',
      timeout: deadlineMs,
      killSignal: 'SIGKILL'
    });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
