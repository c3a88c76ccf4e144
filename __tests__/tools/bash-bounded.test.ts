/**
 * Attacks on the bash tool's process lifetime: what a command leaves running must neither keep the
 * tool call waiting nor survive it. Each test looks in /proc for a process that outlived the call.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createDefaultTools } from '../../src/tools/index.js';
import { COMMAND_MARKER_VARIABLE } from '../../src/tools/process-table.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';

const tools = createDefaultTools();
let repo: TempRepo;

beforeEach(() => {
  repo = createTempRepo();
});
afterEach(() => repo.remove());

const bash = (input: unknown, signal?: AbortSignal) =>
  tools.execute(
    { id: 'toolu_bash', name: 'bash', input },
    { ...toolContext(repo.root), ...(signal && { signal }) }
  );

/** Live (not zombie) processes with this exact argument; the tests tag their sleeps with it. */
function liveProcessesWith(tag: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (state !== 'Z' && `\0${cmdline}`.includes(`\0${tag}\0`)) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** A unique sleep duration, so each test can find exactly its own stray process. */
let sequence = 0;
const uniqueSleep = () => `400.${process.pid}${++sequence}`;

/** Generous: only "did not wait for the 400 s sleep"; the old code never returned at all. */
const RETURNS_PROMPTLY_MS = 20_000;

describe('bash: nothing outlives the tool call, and the call ends when the shell exits', () => {
  const escapes: Array<[string, (sleep: string) => string]> = [
    ['a setsid child holding stdout', (sleep) => `setsid sleep ${sleep} & echo started`],
    ['a child ignoring SIGTERM', (sleep) => `(trap '' TERM; exec sleep ${sleep}) & echo started`],
    [
      'a nohup child with output to /dev/null',
      (sleep) => `nohup sleep ${sleep} > /dev/null 2>&1 & echo started`
    ],
    [
      'a double-forked daemon in its own session',
      (sleep) => `( setsid bash -c 'sleep ${sleep} &' & ) ; echo started`
    ],
    ['a job-control child in its own process group', (sleep) => `set -m; sleep ${sleep} & echo started`]
  ];

  it.each(escapes)('%s: the call returns, keeps its output, and the process is gone', async (_, command) => {
    const sleep = uniqueSleep();
    const started = Date.now();
    const result = await bash({ command: command(sleep) });
    expect(Date.now() - started).toBeLessThan(RETURNS_PROMPTLY_MS);
    expect(result.content).toBe('exit code: 0\n--- stdout ---\nstarted\n\n--- stderr ---\n');
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it('a timeout kills the whole tree, escapees included, and keeps what was printed before', async () => {
    const sleep = uniqueSleep();
    const result = await bash({
      command: `echo before; setsid sleep ${sleep} & (trap '' TERM; sleep ${sleep}) & sleep ${sleep}; echo never`,
      timeout_ms: 500
    });
    expect(result.isError).toBe(true);
    expect(result.content).toBe('timed out (killed)\n--- stdout ---\nbefore\n\n--- stderr ---\n');
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it('cancelling the run ends the call and kills what the command started', async () => {
    const sleep = uniqueSleep();
    const controller = new AbortController();
    const pending = bash(
      { command: `setsid sleep ${sleep} & echo before; sleep ${sleep}` },
      controller.signal
    );
    // Wait until the command is running before cancelling.
    for (let tries = 0; liveProcessesWith(sleep).length < 2 && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.content).toBe('cancelled (killed)\n--- stdout ---\nbefore\n\n--- stderr ---\n');
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it('keeps everything the shell wrote before exiting, even while a child holds the pipe', async () => {
    const sleep = uniqueSleep();
    const result = await bash({
      command: `sleep ${sleep} & head -c 200000 /dev/zero | tr '\\0' y; echo; echo done >&2; exit 4`
    });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^exit code: 4\n--- stdout ---\nyyyy/);
    expect(result.content).toContain('--- stderr ---\ndone\n');
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it('ends the call on time even when an escapee (new session, cleared environment) holds the pipe', async () => {
    // The documented limit of the sweep: `env -i` drops the marker, so this process may survive.
    // The call must still end once the shell exits, with what the shell printed.
    const sleep = uniqueSleep();
    const started = Date.now();
    const result = await bash({ command: `setsid env -i sleep ${sleep} & echo started` });
    expect(Date.now() - started).toBeLessThan(RETURNS_PROMPTLY_MS);
    expect(result.content).toBe('exit code: 0\n--- stdout ---\nstarted\n\n--- stderr ---\n');
    for (const pid of liveProcessesWith(sleep)) process.kill(pid, 'SIGKILL');
  });

  it('tags every process with a marker of its own, which the sweep looks for', async () => {
    const first = await bash({ command: `printenv ${COMMAND_MARKER_VARIABLE}` });
    const second = await bash({ command: `printenv ${COMMAND_MARKER_VARIABLE}` });
    const markerOf = (content: string) => content.split('\n')[2] ?? '';
    expect(markerOf(first.content)).toMatch(/^[0-9a-f]{32}$/);
    expect(markerOf(second.content)).toMatch(/^[0-9a-f]{32}$/);
    expect(markerOf(first.content)).not.toBe(markerOf(second.content));
  });
});
