import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';

/** Where the pause writes and what it asks of the runner: the step's stdout and @actions/core. */
export interface CommandChannel {
  readonly write: (text: string) => void;
  readonly mask: (secret: string) => void;
  readonly warning: (message: string) => void;
}

const STEP_OUTPUT: CommandChannel = {
  write: (text) => void process.stdout.write(text),
  mask: (secret) => core.setSecret(secret),
  warning: (message) => core.warning(message)
};

/**
 * Keeps the runner from acting on workflow commands (`::set-output`, `::warning`, `::add-mask`, …)
 * while the agent's processes run. Those processes run as the action's user, so they can open the
 * action's stdout and stderr through /proc/<pid>/fd and write lines the runner would otherwise obey.
 *
 * GitHub's `::stop-commands::<token>` makes the runner ignore every command until a line
 * `::<token>::`; the token is random, masked first (the runner echoes the stop line into the log,
 * masked), and written only before the agent's first process starts and after its last one ended,
 * so no process of the agent can learn it. The runner's own check: actions/runner
 * src/Runner.Worker/ActionCommandManager.cs (stop-commands, checked 2026-11-25).
 *
 * What remains: while paused, the agent can still write plain lines into the step's log (text, not
 * commands). The action's own warnings in that window wait here and are issued after `resume`.
 */
export class WorkflowCommandPause {
  private token: string | undefined;
  private readonly held: string[] = [];

  constructor(private readonly channel: CommandChannel = STEP_OUTPUT) {}

  get paused(): boolean {
    return this.token !== undefined;
  }

  /** Stops command processing; a second call while paused does nothing. */
  pause(): void {
    if (this.token !== undefined) return;
    const token = randomBytes(16).toString('hex');
    this.channel.mask(token);
    // A line of its own: whatever was written before may not have ended its line.
    this.channel.write(`\n::stop-commands::${token}\n`);
    this.token = token;
  }

  /**
   * Resumes command processing, then issues the warnings held meanwhile. Call it only once no
   * process of the agent is left: the leading newline ends any line one of them left open, so the
   * resume line is read as a command.
   */
  resume(): void {
    if (this.token === undefined) return;
    this.channel.write(`\n::${this.token}::\n`);
    this.token = undefined;
    for (const message of this.held.splice(0)) this.channel.warning(message);
  }

  /** A warning now, or after `resume` while paused (a command the runner would ignore now). */
  readonly warning = (message: string): void => {
    if (this.token === undefined) this.channel.warning(message);
    else this.held.push(message);
  };
}
