/** What every command gets: the parsed flags and positionals, and where to write. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

export interface Invocation {
  /** Values of the string flags, by flag name without the dashes. */
  readonly values: ReadonlyMap<string, string>;
  /** Boolean flags that were given, by name. */
  readonly switches: ReadonlySet<string>;
  /** Positional arguments after the command's words. */
  readonly positionals: readonly string[];
}

/**
 * One command of the CLI. Adding a command (a subcommand such as `transcript verify` included) is
 * one entry in commands.ts: the parser, the help and the dispatch read everything from here.
 */
export interface CliCommand {
  /** The words that start it: `run`, `transcript`, `transcript verify`. */
  readonly name: string;
  /** One line for `compact-agent help`. */
  readonly summary: string;
  /** The text of `compact-agent <command> --help`: usage, flags and examples. */
  readonly help: string;
  readonly stringFlags: readonly string[];
  readonly booleanFlags: readonly string[];
  /** How many positional arguments it takes at most. */
  readonly maxPositionals: number;
  readonly execute: (invocation: Invocation, io: CliIo) => Promise<number>;
}
