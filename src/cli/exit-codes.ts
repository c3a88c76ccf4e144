/** The CLI's exit codes, documented in docs/cli.md ("Exit codes"). Scripts may rely on them. */
export const EXIT = {
  /** The run finished with success; `transcript` printed its summary. */
  success: 0,
  /** The run ended without success: a limit, a model error or Ctrl-C. The transcript says why. */
  runFailed: 1,
  /** A command, flag or value is wrong; nothing was started and no model was called. */
  usage: 2,
  /** A file could not be used: not a transcript, unreadable, or the --html report cannot be written. */
  fileProblem: 3,
  /** An unexpected error inside compact-agent (a bug): --debug shows where. */
  internal: 4
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the person can fix: its message is one paragraph, shown without a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

export function fileError(message: string): CliError {
  return new CliError(message, EXIT.fileProblem);
}
