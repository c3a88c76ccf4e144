/** A destination the box refused: host and port, how often, and the first command that tried. */
export interface BlockedAttempt {
  readonly host: string;
  readonly port: number;
  readonly count: number;
  readonly firstCommand: string;
  /** Why: not on the list, or an allowed name that resolved to an internal address. */
  readonly reason: string;
}

/** How long a command is kept in the record: enough to recognise it, not a second transcript. */
const MAX_COMMAND_CHARS = 200;

/** The run's refused destinations, grouped by host and port, in the order they were first seen. */
export class BlockedLog {
  private readonly attempts = new Map<string, BlockedAttempt>();

  record(host: string, port: number, command: string, reason: string): void {
    const key = `${host}:${port}`;
    const seen = this.attempts.get(key);
    if (seen) {
      this.attempts.set(key, { ...seen, count: seen.count + 1 });
      return;
    }
    const firstCommand =
      command.length > MAX_COMMAND_CHARS ? `${command.slice(0, MAX_COMMAND_CHARS)}…` : command;
    this.attempts.set(key, { host, port, count: 1, firstCommand, reason });
  }

  list(): BlockedAttempt[] {
    return [...this.attempts.values()];
  }
}
