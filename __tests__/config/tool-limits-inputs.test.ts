import { InputError, parseAgentConfig } from '../../src/config/inputs.js';
import { CLI_INPUT_NAMING } from '../../src/cli/args.js';

function problemsOf(
  inputs: Record<string, string>,
  naming = undefined as typeof CLI_INPUT_NAMING | undefined
) {
  try {
    parseAgentConfig((name) => inputs[name] ?? '', { ANTHROPIC_API_KEY: 'k' }, naming);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  return [];
}

describe('the tool limit inputs', () => {
  it('are off by default: every tool, and bash commands are not judged', () => {
    const config = parseAgentConfig(() => '', { ANTHROPIC_API_KEY: 'k' });
    expect(config.toolLimits.allowedTools).toBeUndefined();
    expect(config.toolLimits.disallowedTools).toEqual([]);
    expect(config.toolLimits.bash).toBeUndefined();
  });

  it('read tool names split at commas and blanks, and command prefixes at commas and newlines', () => {
    const config = parseAgentConfig(
      (name) =>
        ({
          allowed_tools: 'bash, read_file\nmcp__calc__add',
          disallowed_bash_commands: 'git push\n  curl ,npm publish'
        })[name] ?? '',
      { ANTHROPIC_API_KEY: 'k' }
    );
    expect(config.toolLimits.allowedTools).toEqual(['bash', 'read_file', 'mcp__calc__add']);
    expect(config.toolLimits.bash?.disallowed.map((prefix) => prefix.words)).toEqual([
      ['git', 'push'],
      ['curl'],
      ['npm', 'publish']
    ]);
  });

  it.each([
    [{ allowed_tools: 'bassh' }, 'allowed_tools names "bassh", which is no tool.'],
    [{ disallowed_tools: 'Write' }, "That is Claude Code's name: here the tool is write_file."],
    [{ allowed_tools: 'Bash(npm test:*)' }, 'bash commands are limited with allowed_bash_commands'],
    [
      { allowed_bash_commands: 'npm test:*' },
      'allowed_bash_commands has "npm test:*": write the command prefix alone'
    ],
    [
      { allowed_bash_commands: 'npm test && curl x' },
      'allowed_bash_commands has "npm test && curl x", which is not one plain command'
    ],
    [
      { disallowed_bash_commands: 'git $X' },
      'disallowed_bash_commands has "git $X", which is not one plain command'
    ],
    [
      { disallowed_tools: 'bash', allowed_bash_commands: 'npm test' },
      'allowed_bash_commands is set, but bash is not offered (disallowed_tools names it)'
    ],
    [
      { allowed_tools: 'read_file', disallowed_bash_commands: 'curl' },
      'disallowed_bash_commands is set, but bash is not offered (allowed_tools does not name it)'
    ]
  ])('refuses %j, naming the input', (inputs, message) => {
    expect(problemsOf(inputs).join('\n')).toContain(message);
  });

  it('names the CLI flag on the command line', () => {
    expect(problemsOf({ allowed_bash_commands: 'a | b' }, CLI_INPUT_NAMING).join('\n')).toContain(
      '--allowed-bash-commands has "a | b"'
    );
  });
});
