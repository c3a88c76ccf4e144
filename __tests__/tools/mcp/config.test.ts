import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_INPUT_NAMING } from '../../../src/cli/args.js';
import { InputError, parseAgentConfig, type InputNaming } from '../../../src/config/inputs.js';
import { mcpConfigSecrets } from '../../../src/tools/mcp/config.js';
import { isSecretName } from '../../../src/security/redactor.js';
import { createTempDir } from '../../support/temp-repo.js';

/** The problems parseAgentConfig reports for this mcp_config value ([] when it is accepted). */
function problemsFor(value: string, naming?: InputNaming): string[] {
  try {
    parseAgentConfig((name) => (name === 'mcp_config' ? value : ''), { ANTHROPIC_API_KEY: 'k' }, naming);
    return [];
  } catch (error) {
    if (error instanceof InputError) return [...error.problems];
    throw error;
  }
}

const servers = (value: string) =>
  parseAgentConfig((name) => (name === 'mcp_config' ? value : ''), { ANTHROPIC_API_KEY: 'k' }).mcpServers;

describe('mcp_config is checked with the other inputs, before any model call', () => {
  it('has no servers when unset', () => {
    expect(servers('')).toEqual([]);
  });

  it('reads the common format, inline or from a file, with args and env defaulting to empty', () => {
    const inline =
      '{"mcpServers": {"calc": {"type": "stdio", "command": "node", "args": ["calc.mjs"], "env": {"MODE": "x"}}, "bare": {"command": "bare-server"}}}';
    const expected = [
      { name: 'calc', command: 'node', args: ['calc.mjs'], env: { MODE: 'x' } },
      { name: 'bare', command: 'bare-server', args: [], env: {} }
    ];
    expect(servers(inline)).toEqual(expected);
    const file = path.join(createTempDir(), 'mcp.json');
    writeFileSync(file, inline);
    expect(servers(file)).toEqual(expected);
  });

  const refused: ReadonlyArray<{ what: string; value: string; says: string[] }> = [
    {
      what: 'JSON that does not parse',
      value: '{"mcpServers": {"calc": ',
      says: ['mcp_config is not valid JSON', 'Expected {"mcpServers"']
    },
    {
      what: 'an object without mcpServers',
      value: '{"servers": {}}',
      says: [
        'mcp_config must be an object with one key, "mcpServers"',
        '"mcpServers" is missing',
        'unsupported key(s) "servers"'
      ]
    },
    {
      what: 'an env name that is not a variable name',
      value: '{"mcpServers": {"calc": {"command": "x", "env": {"a b": "c"}}}}',
      says: ['"env.a b" holds a name that is not a variable name']
    },
    {
      what: 'an http server',
      value: '{"mcpServers": {"remote": {"type": "http", "url": "https://mcp.example.com/mcp"}}}',
      says: ['the server "remote" is a remote server (type "http")', 'stdio servers only']
    },
    {
      what: 'an sse server',
      value: '{"mcpServers": {"remote": {"type": "sse", "url": "https://mcp.example.com/sse"}}}',
      says: ['is a remote server (type "sse")']
    },
    {
      what: 'a url without a type',
      value: '{"mcpServers": {"remote": {"url": "https://mcp.example.com/mcp"}}}',
      says: ['is a remote server (a "url" and no "command")']
    },
    {
      what: 'an unknown type',
      value: '{"mcpServers": {"odd": {"type": "carrier-pigeon", "command": "x"}}}',
      says: ['(unknown type "carrier-pigeon")']
    },
    {
      what: 'a server name with a dot',
      value: '{"mcpServers": {"my.server": {"command": "x"}}}',
      says: ['the server "my.server" has a name that cannot be part of a tool name', 'mcp__<server>__<tool>']
    },
    {
      what: 'a server name too long for a tool name',
      value: JSON.stringify({ mcpServers: { ['s'.repeat(41)]: { command: 'x' } } }),
      says: ['cannot be part of a tool name', '1 to 40']
    },
    {
      what: 'a missing command',
      value: '{"mcpServers": {"calc": {"args": ["x"]}}}',
      says: ['the server "calc": "command" is missing', 'Supported keys: type, command, args, env']
    },
    {
      what: 'a key we do not support (cwd)',
      value: '{"mcpServers": {"calc": {"command": "x", "cwd": "/tmp"}}}',
      says: ['unsupported key(s) "cwd"']
    },
    {
      what: 'args that are not strings',
      value: '{"mcpServers": {"calc": {"command": "x", "args": [1]}}}',
      says: ['the server "calc": "args.0": expected string']
    },
    {
      what: 'a variable reference we would not expand',
      value: '{"mcpServers": {"calc": {"command": "x", "env": {"API_KEY": "${API_KEY}"}}}}',
      says: ['holds "${API_KEY}"', 'does not expand environment variables', '${{ secrets.NAME }}']
    },
    {
      what: 'a file that does not exist',
      value: 'no/such/mcp.json',
      says: ['mcp_config: cannot read the file', 'no such file']
    },
    {
      what: 'a folder',
      value: createTempDir('mcp-folder-'),
      says: ['mcp_config: cannot read the file', '(it is a folder). Give inline JSON']
    },
    {
      // The phrase every command uses, not the raw "ELOOP: too many symbolic links encountered, open ...".
      what: 'a loop of symbolic links',
      value: (() => {
        const dir = createTempDir('mcp-loop-');
        symlinkSync(path.join(dir, 'b.json'), path.join(dir, 'a.json'));
        symlinkSync(path.join(dir, 'a.json'), path.join(dir, 'b.json'));
        return path.join(dir, 'a.json');
      })(),
      says: ['mcp_config: cannot read the file', '(a loop of symbolic links). Give inline JSON']
    }
  ];

  it.each(refused)('refuses $what with a message naming the input', ({ value, says }) => {
    const problems = problemsFor(value).join('\n');
    for (const words of says) expect(problems).toContain(words);
  });

  it('names the CLI flag when the CLI reads it', () => {
    expect(problemsFor('{"mcpServers": {"a b": {"command": "x"}}}', CLI_INPUT_NAMING)[0]).toMatch(
      /^--mcp-config: the server "a b" has a name/
    );
  });

  it('reports every bad server at once, next to the other inputs', () => {
    const problems = problemsFor(
      '{"mcpServers": {"a.b": {"command": "x"}, "web": {"type": "http", "url": "u"}}}'
    );
    expect(problems).toHaveLength(2);
  });

  it('hands the values of secret-looking env entries to the redactor, not the others', () => {
    const value =
      '{"mcpServers": {"api": {"command": "x", "env": {"SERVICE_API_KEY": "key-0123456789", "BASE_URL": "https://api.example.com"}}}}';
    expect(mcpConfigSecrets(value, isSecretName)).toEqual(['key-0123456789']);
  });
});
