import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT } from '../../src/cli/exit-codes.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import {
  reply,
  scriptFrom,
  text,
  toolNames,
  toolResultTexts,
  toolUse
} from '../../test-support/fake-anthropic/replies.js';
import { cliInProcess, fakeModelEnv } from '../support/cli.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

const CALC_SERVER = path.resolve('test-support/mcp/calc-server.mjs');
const LARGE_SERVER = path.resolve('test-support/mcp/large-tools-server.mjs');

let repo: TempRepo;
let folder: string;
let fake: FakeAnthropic;
beforeEach(async () => {
  repo = createTempRepo();
  repo.write('README.md', 'hi\n');
  repo.git('add', '-A');
  repo.git('commit', '--quiet', '-m', 'seed');
  folder = createTempDir('compact-agent-mcp-cli-');
  fake = await startFakeAnthropic({
    script: scriptFrom([reply(toolUse('mcp__calc__add', { a: 1, b: 2 })), reply(text('Three.'))])
  });
});
afterEach(async () => {
  await fake.close();
  repo.remove();
});

// The test servers import the project's node_modules, which the box does not show: box-free here.
const cli = (...argv: string[]) => cliInProcess([...argv, '--sandbox', 'off'], fakeModelEnv(fake.url));

function configFile(content: string): string {
  const file = path.join(folder, 'mcp.json');
  writeFileSync(file, content);
  return file;
}

const modelCalls = () => fake.requests.filter((request) => request.path === '/v1/messages').length;

describe('compact-agent run --mcp-config', () => {
  it("gives the agent the server's tools and prints them once", async () => {
    const file = configFile(
      JSON.stringify({ mcpServers: { calc: { command: process.execPath, args: [CALC_SERVER] } } })
    );
    const run = await cli('run', '--repo', repo.root, '--prompt', 'Add.', '--mcp-config', file);
    expect(run.code).toBe(EXIT.success);
    const [first, second] = fake.requests.filter((request) => request.path === '/v1/messages');
    expect(toolNames(first!.request!)).toContain('mcp__calc__add');
    expect(toolResultTexts(second!.request!)).toEqual(['3']);
    expect(run.stderr).toContain('MCP servers: calc (');
  });

  it('refuses a file that is not JSON before any model call, naming the flag', async () => {
    const run = await cli(
      'run',
      '--repo',
      repo.root,
      '--prompt',
      'x',
      '--mcp-config',
      configFile('mcpServers: {}')
    );
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('--mcp-config (');
    expect(run.stderr).toContain('is not valid JSON');
    expect(run.stderr).not.toContain('    at ');
    expect(modelCalls()).toBe(0);
  });

  it('refuses a file that does not exist', async () => {
    const run = await cli(
      'run',
      '--repo',
      repo.root,
      '--prompt',
      'x',
      '--mcp-config',
      path.join(folder, 'nope.json')
    );
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain('--mcp-config: cannot read the file');
    expect(modelCalls()).toBe(0);
  });

  it('stops before any model call when a server does not start, naming the server and its command', async () => {
    const file = configFile(
      JSON.stringify({ mcpServers: { ghost: { command: 'no-such-mcp-server-binary' } } })
    );
    const run = await cli('run', '--repo', repo.root, '--prompt', 'x', '--mcp-config', file);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toContain(
      '--mcp-config: The MCP server "ghost" could not be started (command: no-such-mcp-server-binary'
    );
    expect(run.stderr).not.toContain('unexpected error');
    expect(modelCalls()).toBe(0);
  });

  it('stops before any model call when the tool definitions pass the cap, with one paragraph naming the servers', async () => {
    const file = configFile(
      JSON.stringify({
        mcpServers: { large: { command: process.execPath, args: [LARGE_SERVER, '--tools', '40'] } }
      })
    );
    const run = await cli('run', '--repo', repo.root, '--prompt', 'x', '--mcp-config', file);
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toMatch(
      /--mcp-config: The MCP servers' tool definitions come to [\d,]+ characters .* "large" [\d,]+ characters in 40 tools;/
    );
    expect(run.stderr).not.toContain('unexpected error');
    expect(modelCalls()).toBe(0);
  });
});
