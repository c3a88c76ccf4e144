/**
 * What the GitHub Actions runner obeys in a step's output: a model of its command processor
 * (actions/runner src/Runner.Worker/ActionCommandManager.cs and ActionCommand.cs, and its
 * ProcessInvoker's stream readers, read 2026-11-25), for tests that check which lines written to
 * the action's stdout or stderr take effect.
 *
 * - The runner reads stdout and stderr with a reader each; a line ends at `\n`, `\r\n` or a bare
 *   `\r`, and a stream's last, unfinished line is read when the stream ends. Both readers feed ONE
 *   command processor, in the order their lines complete.
 * - A command is a line that, after leading white space, reads `::name props::data`, or one that
 *   holds the older `##[name props]data` anywhere, where `name` is a registered command
 *   (case-insensitive).
 * - `::stop-commands::TOKEN` makes the runner ignore every command until a line `::TOKEN::`; the
 *   token then names a registered command, and is forgotten once it resumed.
 */
export interface ObeyedCommand {
  readonly name: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly data: string;
}

/** The command extensions a current runner registers (ActionCommandManager's extension list). */
const REGISTERED = [
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'warning',
  'error',
  'notice',
  'debug',
  'group',
  'endgroup',
  'echo'
];

/** What the action wrote to one of its streams, in the order the chunks arrived across both. */
export interface StreamChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

/** The commands the runner acts on, in order, for output read from one stream. */
export function obeyedCommands(output: string): ObeyedCommand[] {
  return obeyedCommandsOfStreams([{ stream: 'stdout', text: output }]);
}

/**
 * The commands the runner acts on for both streams: each stream's lines complete in the order
 * their chunks arrived, and each stream's unfinished last line is read at its end, after the rest.
 */
export function obeyedCommandsOfStreams(chunks: readonly StreamChunk[]): ObeyedCommand[] {
  const pending = { stdout: '', stderr: '' };
  const lines: string[] = [];
  for (const chunk of chunks) {
    const parts = (pending[chunk.stream] + chunk.text).split(/\r\n|\n|\r(?!$)/);
    pending[chunk.stream] = parts.pop()!;
    lines.push(...parts);
  }
  // A final bare \r ends a line too (it was kept only in case a \n followed in the next chunk).
  for (const rest of [pending.stdout, pending.stderr]) if (rest !== '') lines.push(rest.replace(/\r$/, ''));
  return commandsOf(lines);
}

function commandsOf(lines: readonly string[]): ObeyedCommand[] {
  const registered = new Set([...REGISTERED, 'stop-commands']);
  const obeyed: ObeyedCommand[] = [];
  let stopToken: string | undefined;
  for (const line of lines) {
    const command = parseCommand(line, registered);
    if (command === undefined) continue;
    if (stopToken !== undefined) {
      if (command.name === stopToken) {
        registered.delete(stopToken);
        stopToken = undefined;
      }
      continue;
    }
    if (command.name === 'stop-commands') {
      stopToken = command.data.toLowerCase();
      registered.add(stopToken);
      continue;
    }
    obeyed.push(command);
  }
  return obeyed;
}

/**
 * The step's outputs as the runner ends up with them: `::set-output` commands it obeyed while the
 * step ran, then the GITHUB_OUTPUT file, read after the step (a later value of a name wins).
 */
export function runnerOutputs(
  chunks: readonly StreamChunk[],
  outputFile: Record<string, string>
): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const command of obeyedCommandsOfStreams(chunks))
    if (command.name === 'set-output' && command.properties.name)
      outputs[command.properties.name] = command.data;
  return { ...outputs, ...outputFile };
}

function parseCommand(raw: string, registered: ReadonlySet<string>): ObeyedCommand | undefined {
  const line = raw.trimStart();
  if (line.startsWith('::')) {
    const end = line.indexOf('::', 2);
    if (end < 0) return undefined;
    const info = line.slice(2, end);
    const space = info.indexOf(' ');
    const name = (space < 0 ? info : info.slice(0, space)).toLowerCase();
    if (!registered.has(name)) return undefined;
    return {
      name,
      properties: properties(space < 0 ? '' : info.slice(space + 1), ','),
      data: line.slice(end + 2)
    };
  }
  const old = line.indexOf('##[');
  if (old >= 0) {
    const end = line.indexOf(']', old);
    if (end < 0) return undefined;
    const info = line.slice(old + 3, end);
    const space = info.indexOf(' ');
    const name = (space < 0 ? info : info.slice(0, space)).toLowerCase();
    if (!registered.has(name)) return undefined;
    return {
      name,
      properties: properties(space < 0 ? '' : info.slice(space + 1), ';'),
      data: line.slice(end + 1)
    };
  }
  return undefined;
}

function properties(text: string, separator: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of text.split(separator)) {
    const at = pair.indexOf('=');
    if (at > 0) result[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return result;
}
