import { parseCommandLine, wantsDebug } from './args.js';
import type { CliCommand, CliIo } from './command.js';
import { CLI_COMMANDS } from './commands.js';
import { CliError, EXIT } from './exit-codes.js';
import { generalHelp } from './help.js';
import { CLI_VERSION } from './version.js';
import { errorMessage } from '../errors/error-message.js';
import { terminalSafe } from '../audit/terminal-text.js';

/**
 * The whole CLI as a function: parse, dispatch, map every failure to one paragraph and an exit
 * code. A stack trace is shown only for an unexpected error, and only with --debug.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  commands: readonly CliCommand[] = CLI_COMMANDS
): Promise<number> {
  const debug = wantsDebug(argv);
  let label = 'compact-agent';
  try {
    const parsed = parseCommandLine(argv, commands);
    if (parsed.kind === 'version') {
      io.stdout(CLI_VERSION);
      return EXIT.success;
    }
    if (parsed.kind === 'help') {
      io.stdout(parsed.command ? parsed.command.help : generalHelp(commands));
      // Bare `compact-agent` is a usage error; asking for help is not.
      return argv.length === 0 ? EXIT.usage : EXIT.success;
    }
    const { command, invocation } = parsed;
    label = `compact-agent ${command.name}`;
    if (invocation.switches.has('version')) {
      io.stdout(CLI_VERSION);
      return EXIT.success;
    }
    if (invocation.switches.has('help')) {
      io.stdout(command.help);
      return EXIT.success;
    }
    return await command.execute(invocation, io);
  } catch (error) {
    if (error instanceof CliError) {
      // A message can quote a zip entry's name or a comment: no control character reaches the terminal.
      io.stderr(terminalSafe(`${label}: ${error.message}`));
      if (debug && error.stack) io.stderr(error.stack);
      return error.exitCode;
    }
    const message = errorMessage(error);
    io.stderr(
      `${label} stopped on an unexpected error: ${terminalSafe(message.split('\n')[0] ?? '')} ` +
        (debug ? '' : 'Run it again with --debug to see where, and report it with that output.')
    );
    if (debug) io.stderr(error instanceof Error && error.stack ? error.stack : String(error));
    return EXIT.internal;
  }
}
