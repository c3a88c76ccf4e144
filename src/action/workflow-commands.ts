import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';

/** Where the pause writes and what it asks of the runner: the step's stdout and stderr, and @actions/core. */
export interface CommandChannel {
  readonly write: (text: string) => void;
  readonly writeError: (text: string) => void;
  readonly mask: (secret: string) => void;
  readonly warning: (message: string) => void;
  /** Waits, so that the runner has read what was written before the next write. */
  readonly settle: () => Promise<void>;
}

/**
 * The runner reads stdout and stderr with a reader each; a line becomes a command when its reader
 * sees the line end. This long is more than enough for its readers to take what is in the pipes.
 */
const SETTLE_MS = 250;

const STEP_OUTPUT: CommandChannel = {
  // Writes to pipes are synchronous in Node on Linux: the text is in the pipe when these return.
  write: (text) => void process.stdout.write(text),
  writeError: (text) => void process.stderr.write(text),
  mask: (secret) => core.setSecret(secret),
  warning: (message) => core.warning(message),
  settle: () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
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
 * The runner reads the two streams apart, and a line the agent left unfinished would end only when
 * the stream does, after the resume: so `resume` first ends the last line of both streams, gives
 * the runner's readers a moment to take them (still paused), and only then resumes, on stdout.
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
   * process of the agent is left: a line one of them left open on either stream is ended first and
   * read while still paused, so it is never obeyed, and the resume line is read as a command.
   */
  async resume(): Promise<void> {
    const token = this.token;
    if (token === undefined) return;
    this.channel.writeError('\n');
    this.channel.write('\n');
    await this.channel.settle();
    this.channel.write(`::${token}::\n`);
    this.token = undefined;
    for (const message of this.held.splice(0)) this.channel.warning(message);
  }

  /** A warning now, or after `resume` while paused (a command the runner would ignore now). */
  readonly warning = (message: string): void => {
    if (this.token === undefined) this.channel.warning(message);
    else this.held.push(message);
  };
}
