import type { BlockedAttempt } from './blocked-log.js';

/** A command made ready to run inside the box: what to spawn, and what the proxy refused it. */
export interface BoxedCommand {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Ends the command's proxy channel; returns the destinations refused while it ran. */
  finish(): Promise<BlockedAttempt[]>;
}

/** What the bash tool (and the MCP servers) need of the box. */
export interface CommandBox {
  /** The network: through the proxy to the allowed hosts, or none. */
  readonly network: 'allowlist' | 'off';
  wrap(command: string, env: NodeJS.ProcessEnv): Promise<BoxedCommand>;
  /** A program by its argv (an MCP server); `label` names it in the record of refusals. */
  wrapArgv(argv: readonly string[], env: NodeJS.ProcessEnv, label: string): Promise<BoxedCommand>;
  /** Every refusal of the run, grouped by host and port. */
  blockedAttempts(): BlockedAttempt[];
  close(): Promise<void>;
}
