import { parseArgs } from 'node:util';
import type { InputNaming, InputReader } from '../config/inputs.js';
import type { CliCommand, Invocation } from './command.js';
import { usageError } from './exit-codes.js';
import { errorMessage } from '../errors/error-message.js';

/** Flags every command takes, before or after its name. */
const GLOBAL_SWITCHES = ['help', 'version', 'debug'] as const;
const SHORT_FLAGS: Readonly<Record<string, string>> = { help: 'h', version: 'V' };

export type ParsedCommandLine =
  | { readonly kind: 'version' }
  | { readonly kind: 'help'; readonly command: CliCommand | undefined }
  | { readonly kind: 'command'; readonly command: CliCommand; readonly invocation: Invocation };

/** Whether --debug was asked for, read before parsing so that even a parse error can honour it. */
export function wantsDebug(argv: readonly string[]): boolean {
  return argv.includes('--debug');
}

/**
 * Finds the command (the longest run of leading words naming one, so `transcript verify` wins over
 * `transcript`), then parses the rest strictly with that command's flags. Throws a usage error.
 */
export function parseCommandLine(
  argv: readonly string[],
  commands: readonly CliCommand[]
): ParsedCommandLine {
  const globals = new Set([
    ...GLOBAL_SWITCHES.map((name) => `--${name}`),
    ...Object.values(SHORT_FLAGS).map((short) => `-${short}`)
  ]);
  // The leading words (`help transcript verify` has three), skipping the global switches among them.
  const wordIndexes: number[] = [];
  for (let index = 0; index < argv.length && wordIndexes.length < 3; index++) {
    const token = argv[index]!;
    if (globals.has(token)) continue;
    if (token.startsWith('-')) break;
    wordIndexes.push(index);
  }
  const words = wordIndexes.map((index) => argv[index]!);
  if (words[0] === 'help') {
    const topic = words.slice(1).join(' ');
    const command = topic === '' ? undefined : findCommand(topic, commands);
    if (topic !== '' && !command) throw unknownCommand(topic, commands);
    return { kind: 'help', command };
  }
  const command =
    (words.length >= 2 ? findCommand(words.slice(0, 2).join(' '), commands) : undefined) ??
    (words[0] !== undefined ? findCommand(words[0], commands) : undefined);
  if (!command) {
    if (words[0] !== undefined) throw unknownCommand(words[0], commands);
    const flags = new Set(argv);
    if (flags.has('--version') || flags.has('-V')) return { kind: 'version' };
    if (flags.has('--help') || flags.has('-h') || argv.length === 0)
      return { kind: 'help', command: undefined };
    throw usageError(
      `"${argv[0]}" comes before the command. Start with the command, e.g. ` +
        `compact-agent run --repo . --prompt "..."; compact-agent help lists the commands.`
    );
  }
  const commandWords = new Set(wordIndexes.slice(0, command.name.split(' ').length));
  const remaining = argv.filter((_, index) => !commandWords.has(index));
  return { kind: 'command', command, invocation: parseFlags(command, remaining) };
}

function parseFlags(command: CliCommand, argv: readonly string[]): Invocation {
  const options = Object.fromEntries([
    ...command.stringFlags.map((name) => [name, { type: 'string' as const }]),
    ...[...command.booleanFlags, ...GLOBAL_SWITCHES].map((name) => [
      name,
      SHORT_FLAGS[name]
        ? { type: 'boolean' as const, short: SHORT_FLAGS[name] }
        : { type: 'boolean' as const }
    ])
  ]);
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(`${plainParseError(error)} See compact-agent ${command.name} --help for its flags.`);
  }
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string') values.set(name, value);
    else if (value === true) switches.add(name);
  }
  if (
    !switches.has('help') &&
    !switches.has('version') &&
    parsed.positionals.length > command.maxPositionals
  ) {
    const extra = parsed.positionals.slice(command.maxPositionals).join(' ');
    throw usageError(
      `The command ${command.name} does not take "${extra}". ` +
        `A value with spaces needs quotes, e.g. --prompt "fix the tests". See compact-agent ${command.name} --help.`
    );
  }
  return { values, switches, positionals: parsed.positionals };
}

/** node:util's messages suggest `--` tricks; the person needs the flag's name and what is wrong. */
function plainParseError(error: unknown): string {
  const message = errorMessage(error);
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `Unknown flag ${unknown[1]}.`;
  const missing = /Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
  if (missing) return `The flag ${missing[1]} needs a value.`;
  const ambiguous = /Option '(?:-\w, )?(--[\w-]+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    return (
      `The flag ${ambiguous[1]} needs a value, and the next word starts with "-". ` +
      `If that word is its value, write ${ambiguous[1]}=VALUE.`
    );
  }
  const notBoolean = /Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message);
  if (notBoolean) return `The flag ${notBoolean[1]} takes no value.`;
  return message;
}

function findCommand(name: string, commands: readonly CliCommand[]): CliCommand | undefined {
  return commands.find((command) => command.name === name);
}

function unknownCommand(name: string, commands: readonly CliCommand[]) {
  const names = [...new Set(commands.map((command) => command.name.split(' ')[0]))].join(', ');
  return usageError(
    `Unknown command "${name}". The commands are ${names}, and help; see compact-agent help.`
  );
}

/** The names of the action's inputs as the CLI spells them: `max_turns` is `--max-turns`. */
export const CLI_INPUT_NAMING: InputNaming = {
  nameOf: (input) => `--${input.replace(/_/g, '-')}`,
  apiKeySource:
    'set the environment variable ANTHROPIC_API_KEY (the CLI takes no key on its command line), ' +
    'or run the model on Amazon Bedrock (--use-bedrock) or Google Vertex AI (--use-vertex).'
};

/** Lets the CLI feed the same parser as the action: `max_turns` is read from `--max-turns`. */
export function cliInputReader(
  values: ReadonlyMap<string, string>,
  switches: ReadonlySet<string> = new Set()
): InputReader {
  return (name) => {
    const flag = name.replace(/_/g, '-');
    return values.get(flag) ?? (switches.has(flag) ? 'true' : '');
  };
}
