/**
 * The land job's re-scan runner: the agents' code in the box whatever the sandbox mode, and no
 * host process when no box can be built (security review G, finding 1).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SANDBOX } from '../../src/config/sandbox-input.js';
import type { AgentConfig } from '../../src/config/inputs.js';
import { boxedValidation } from '../../src/fanout/boxed-validation.js';
import { SandboxUnavailableError } from '../../src/sandbox/session-box.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'compact-agent-boxed-validation-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const agent = (mode: 'auto' | 'off') =>
  ({ sandbox: { ...DEFAULT_SANDBOX, mode }, bashEnvPassthrough: [] }) as unknown as AgentConfig;

describe('the re-scan runner that requires the box', () => {
  it.each(['auto', 'off'] as const)(
    'sandbox: %s and no bubblewrap on PATH: throws SandboxUnavailableError and runs nothing on the host',
    async (mode) => {
      // A PATH without bwrap: what a runner without the package looks like.
      const env = { PATH: path.join(dir, 'empty-bin'), HOME: os.homedir() };
      const marker = path.join(dir, 'ran');
      const run = boxedValidation(agent(mode), env, () => undefined, { requireBox: true });
      await expect(
        run(`/bin/sh -c 'echo $$ > ${marker}'`, {
          cwd: dir,
          timeoutMs: 60_000,
          signal: new AbortController().signal,
          maxStreamChars: 10_000
        })
      ).rejects.toThrow(SandboxUnavailableError);
      expect(existsSync(marker)).toBe(false);
    }
  );
});
