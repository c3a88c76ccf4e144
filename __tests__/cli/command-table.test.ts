import type { CliCommand, Invocation } from '../../src/cli/command.js';
import { CLI_COMMANDS } from '../../src/cli/commands.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { cliInProcess } from '../support/cli.js';

/** A subcommand is one entry in the table: the parser finds it by its words and gives it its own flags. */
describe('the command table', () => {
  const seen: Array<{ name: string; invocation: Invocation }> = [];
  const recorder = (name: string, flags: Partial<CliCommand>): CliCommand => ({
    name,
    summary: `the ${name} command`,
    help: `Usage: compact-agent ${name}`,
    stringFlags: [],
    booleanFlags: [],
    maxPositionals: 1,
    execute: (invocation) => {
      seen.push({ name, invocation });
      return Promise.resolve(EXIT.success);
    },
    ...flags
  });
  const table = [
    recorder('transcript', { stringFlags: ['html'] }),
    recorder('transcript verify', { booleanFlags: ['strict'] })
  ];
  const cli = (...argv: string[]) => cliInProcess(argv, {}, table);
  beforeEach(() => (seen.length = 0));

  it('dispatches `transcript verify PATH` to the subcommand, with its flags', async () => {
    expect((await cli('transcript', 'verify', 'run.zip', '--strict')).code).toBe(0);
    expect(seen[0]!.name).toBe('transcript verify');
    expect(seen[0]!.invocation.positionals).toEqual(['run.zip']);
    expect([...seen[0]!.invocation.switches]).toEqual(['strict']);
    const help = await cli('help', 'transcript', 'verify');
    expect(help).toEqual({ code: 0, stdout: 'Usage: compact-agent transcript verify\n', stderr: '' });
  });

  it('keeps `transcript PATH` for the parent, which does not know the subcommand flags', async () => {
    expect((await cli('--debug', 'transcript', 'run.zip', '--html', 'r.html')).code).toBe(0);
    expect(seen[0]!.name).toBe('transcript');
    expect(seen[0]!.invocation.positionals).toEqual(['run.zip']);
    expect(seen[0]!.invocation.values.get('html')).toBe('r.html');
    const refused = await cli('transcript', 'run.zip', '--strict');
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain('Unknown flag --strict. See compact-agent transcript --help');
  });

  it('lists every command of the real table in help, and shows each one its own help', async () => {
    const { stdout: help } = await cliInProcess(['help'], {});
    for (const command of CLI_COMMANDS) {
      expect(help).toContain(`  ${command.name}`);
      const own = await cliInProcess([...command.name.split(' '), '--help'], {});
      expect(own.code).toBe(EXIT.success);
      expect(own.stdout).toBe(`${command.help}\n`);
      expect(own.stdout).toContain('Examples:');
    }
  });
});
