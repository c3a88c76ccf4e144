import type { SandboxConfig } from '../config/sandbox-input.js';
import { startBox, type BoxSettings } from './box.js';
import type { CommandBox } from './command-box.js';
import { prepareHostedRunner } from './host-prepare.js';

/** What the run records about its box: on or off, the network, and why it is off. */
export interface SandboxRecord {
  readonly state: 'on' | 'off';
  readonly network: 'allowlist' | 'off';
  readonly reason?: string;
}

export interface SessionBox {
  readonly box: CommandBox | undefined;
  readonly record: SandboxRecord;
}

/** `sandbox: required` and no box: the run stops before any model call, saying what to do. */
export class SandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(
      `sandbox is required, but the box cannot be built here: ${reason}. Install bubblewrap ` +
        '(apt-get install bubblewrap) and allow it user namespaces (on Ubuntu 24.04: load the ' +
        'bwrap-userns-restrict AppArmor profile, or run as root), or set sandbox to auto or off. ' +
        "See compact-agent's docs/security.md#sandbox."
    );
    this.name = 'SandboxUnavailableError';
  }
}

/**
 * The run's box, by the `sandbox` input: off; auto (the box if it can be built, else none, with the
 * reason for the log and the report); required (the box, or SandboxUnavailableError). On a
 * GitHub-hosted runner whose first attempt fails, the host is prepared once and the box tried again.
 */
export async function openSessionBox(
  config: SandboxConfig,
  settings: Omit<BoxSettings, 'rules'>,
  onNotice: (line: string) => void = () => undefined
): Promise<SessionBox> {
  const network = config.rules === undefined ? 'off' : 'allowlist';
  if (config.mode === 'off')
    return { box: undefined, record: { state: 'off', network, reason: 'sandbox: off' } };
  const boxSettings: BoxSettings = { ...settings, rules: config.rules };
  let start = await startBox(boxSettings);
  if (!start.ok) {
    const prepared = prepareHostedRunner(settings.env, start.reason);
    if (prepared.tried) {
      onNotice(`Sandbox: ${prepared.summary}`);
      if (prepared.ok) start = await startBox(boxSettings);
    }
  }
  if (start.ok) return { box: start.box, record: { state: 'on', network } };
  if (config.mode === 'required') throw new SandboxUnavailableError(start.reason);
  onNotice(
    `Warning: the agent's commands run WITHOUT the sandbox (${start.reason}). ` +
      "They can reach any host and read the runner's files. Set sandbox: required to stop instead."
  );
  return { box: undefined, record: { state: 'off', network, reason: start.reason } };
}
