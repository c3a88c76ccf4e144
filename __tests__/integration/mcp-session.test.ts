import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { runSession, type SessionOutcome } from '../../src/agent/session.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { AnthropicModelClient } from '../../src/model/anthropic-client.js';
import { MAX_MCP_DEFINITION_CHARS } from '../../src/tools/mcp/definition-budget.js';
import { McpStartError } from '../../src/tools/mcp/index.js';
import { mcpToolName } from '../../src/tools/mcp/tool-names.js';
import type { TranscriptLine } from '../../src/transcript/events.js';
import {
  startFakeAnthropic,
  type FakeAnthropic,
  type RecordedRequest
} from '../../test-support/fake-anthropic/index.js';
import {
  reply,
  scriptFrom,
  text,
  toolResults,
  toolResultText,
  toolUse
} from '../../test-support/fake-anthropic/replies.js';
import type { Script } from '../../test-support/fake-anthropic/types.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

const CALC_SERVER = path.resolve('test-support/mcp/calc-server.mjs');
const ODD_SERVER = path.resolve('test-support/mcp/odd-tools-server.mjs');
const LARGE_SERVER = path.resolve('test-support/mcp/large-tools-server.mjs');
const CALC_TOOLS = ['add', 'fail', 'env_report', 'echo_env', 'spawn_child', 'slow', 'crash', 'picture'];
const SECRET_ENV = {
  ANTHROPIC_API_KEY: 'sk-ant-secret-of-the-action',
  GITHUB_TOKEN: 'ghs_secret_of_the_action_0123456789'
};

let repo: TempRepo;
let fake: FakeAnthropic | undefined;
beforeEach(() => {
  repo = createTempRepo();
  repo.write('README.md', 'a repository\n');
  repo.git('add', '-A');
  repo.git('commit', '--quiet', '-m', 'seed');
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  repo.remove();
});

function calcConfig(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    mcpServers: {
      calc: { command: process.execPath, args: [CALC_SERVER], env: { CALC_MODE: 'test' }, ...extra }
    }
  });
}

async function runWithMcp(
  script: Script,
  mcpConfig: string,
  signal?: AbortSignal,
  notices: string[] = []
): Promise<SessionOutcome> {
  fake = await startFakeAnthropic({ script });
  // The test servers import the project's node_modules, which the box does not show: box-free here.
  const config = parseAgentConfig(
    (name) => (name === 'mcp_config' ? mcpConfig : name === 'sandbox' ? 'off' : ''),
    SECRET_ENV
  );
  return runSession({
    config,
    task: 'Use the calculator.',
    repoDir: repo.root,
    transcriptsDir: path.join(repo.root, '.transcripts'),
    runId: 'mcp-run',
    // What the action's process holds: its secrets, and what any shell needs.
    env: { ...SECRET_ENV, PATH: process.env.PATH, HOME: process.env.HOME },
    model: new AnthropicModelClient({ apiKey: 'test-key', baseURL: fake.url, retryBaseDelayMs: 1 }),
    onNotice: (line) => notices.push(line),
    ...(signal ? { signal } : {})
  });
}

const messageRequests = (): RecordedRequest[] =>
  (fake?.requests ?? []).filter((request) => request.path === '/v1/messages');

/** Alive and not a zombie: a killed grandchild may wait a moment for a reaper. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2)[0] ?? 'X');
  } catch {
    return false;
  }
}

/** The calculator, and a server listing `tools` tools with descriptions of 1,000 characters. */
function calcAndLargeConfig(tools: number, pidFile: string): string {
  return JSON.stringify({
    mcpServers: {
      calc: { command: process.execPath, args: [CALC_SERVER] },
      large: {
        command: process.execPath,
        args: [LARGE_SERVER, '--tools', String(tools), '--description-chars', '1000'],
        env: { PID_FILE: pidFile }
      }
    }
  });
}

function readTranscript(file: string): TranscriptLine[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as TranscriptLine);
}

describe('MCP servers: their tools join the agent, through the official SDK over stdio', () => {
  it('offers mcp__calc__add, answers with the server result, marks a failing tool as an error, and leaves no process behind', async () => {
    const notices: string[] = [];
    const outcome = await runWithMcp(
      scriptFrom([
        reply(
          text('Adding, and more.'),
          toolUse('mcp__calc__add', { a: 2, b: 40 }),
          toolUse('mcp__calc__fail', {}),
          toolUse('mcp__calc__env_report', {}),
          toolUse('mcp__calc__spawn_child', {}),
          toolUse('mcp__calc__picture', {})
        ),
        reply(text('The sum is 42.'))
      ]),
      calcConfig(),
      undefined,
      notices
    );
    expect(outcome.result.error).toBeUndefined();
    expect(outcome.result.stopReason).toBe('success');

    const [first, second] = messageRequests();
    const add = first!.request!.tools?.find((tool) => tool.name === 'mcp__calc__add');
    expect(add?.description).toBe('Add two numbers.');
    expect(add?.input_schema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b']
    });
    // The built-in tools come first, unchanged, so their cached prefix holds.
    expect(first!.request!.tools?.slice(0, 7).map((tool) => tool.name)).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
      'compact'
    ]);

    const results = toolResults(second!.request!);
    expect(results.map(toolResultText)[0]).toBe('42');
    expect(results[0]!.is_error).toBeUndefined();
    expect(results[1]!.is_error).toBe(true);
    expect(toolResultText(results[1]!)).toContain('the calculator is broken on purpose');
    const report = JSON.parse(toolResultText(results[2]!)) as {
      pid: number;
      cwd: string;
      names: string[];
      calcMode: string;
    };
    expect(report.calcMode).toBe('test');
    expect(realpathSync(report.cwd)).toBe(realpathSync(repo.root));
    const grandchild = Number(toolResultText(results[3]!));
    expect(Number.isInteger(grandchild)).toBe(true);
    expect(toolResultText(results[4]!)).toBe(
      '[image content, image/png, 300 bytes: not shown]\na blank picture'
    );

    // The server and the child it left behind are gone once the run is over.
    for (let tries = 0; tries < 50 && (isRunning(report.pid) || isRunning(grandchild)); tries++) {
      await delay(20);
    }
    expect(isRunning(report.pid)).toBe(false);
    expect(isRunning(grandchild)).toBe(false);

    // Auditors see the servers: one log line, and run_start in the transcript.
    expect(notices).toEqual([
      'MCP servers: calc (' +
        process.execPath +
        '): mcp__calc__add, mcp__calc__fail, mcp__calc__env_report, mcp__calc__echo_env, mcp__calc__spawn_child, ' +
        'mcp__calc__slow, mcp__calc__crash, mcp__calc__picture'
    ]);
    const start = readTranscript(outcome.transcriptPath)[0];
    expect(start?.type === 'run_start' && start.mcp_servers).toEqual([
      {
        name: 'calc',
        command: process.execPath,
        args: [CALC_SERVER],
        env: ['CALC_MODE'],
        tools: [
          'mcp__calc__add',
          'mcp__calc__fail',
          'mcp__calc__env_report',
          'mcp__calc__echo_env',
          'mcp__calc__spawn_child',
          'mcp__calc__slow',
          'mcp__calc__crash',
          'mcp__calc__picture'
        ],
        skipped: []
      }
    ]);
    expect(start?.type === 'run_start' && start.tools).toContain('mcp__calc__add');
  });

  it('renames, clips or leaves out the tools whose names or schemas the API would refuse, and says so', async () => {
    const longName = mcpToolName('odd', 'x'.repeat(100));
    const notices: string[] = [];
    const outcome = await runWithMcp(
      scriptFrom([
        reply(toolUse('mcp__odd__files_read_text', {}), toolUse(longName, {})),
        reply(text('Read.'))
      ]),
      JSON.stringify({ mcpServers: { odd: { command: process.execPath, args: [ODD_SERVER] } } }),
      undefined,
      notices
    );
    // The strict fake refuses a request with a tool name outside the API's pattern: it answered.
    expect(outcome.result.stopReason).toBe('success');
    const [first, second] = messageRequests();
    const offered = first!.request!.tools!.map((tool) => tool.name).slice(7);
    expect(offered).toEqual(['mcp__odd__files_read_text', longName]);
    expect(longName).toHaveLength(64);
    // The server is called by its own names.
    expect(toolResults(second!.request!).map(toolResultText)).toEqual([
      'called files/read.text',
      `called ${'x'.repeat(100)}`
    ]);
    expect(notices[0]).toContain(
      'not offered: bad_schema (its input property "has space" has a name the API refuses), ' +
        "files_read_text (its name mcp__odd__files_read_text is already taken by odd's files/read.text)"
    );
  });

  it('offers every tool of servers whose definitions fit the cap, named as before, and sends no more than the cap', async () => {
    const pidFile = path.join(repo.root, 'large.pid');
    const outcome = await runWithMcp(
      scriptFrom([
        reply(toolUse('mcp__large__tool_07', { key: 'k' }), toolUse('mcp__calc__add', { a: 1, b: 2 })),
        reply(text('Looked up.'))
      ]),
      calcAndLargeConfig(8, pidFile)
    );
    expect(outcome.result.stopReason).toBe('success');
    const [first, second] = messageRequests();
    const mcpTools = first!.request!.tools!.slice(7);
    expect(mcpTools.map((tool) => tool.name)).toEqual([
      ...CALC_TOOLS.map((tool) => `mcp__calc__${tool}`),
      ...Array.from({ length: 8 }, (_, index) => `mcp__large__tool_0${index}`)
    ]);
    // What the API was sent of them: near the cap (this config is meant to fill it), not past it.
    const sentChars = mcpTools
      .map(
        ({ name, description, input_schema }) => JSON.stringify({ name, description, input_schema }).length
      )
      .reduce((sum, chars) => sum + chars, 0);
    expect(sentChars).toBeGreaterThan(MAX_MCP_DEFINITION_CHARS * 0.8);
    expect(sentChars).toBeLessThanOrEqual(MAX_MCP_DEFINITION_CHARS);
    expect(toolResults(second!.request!).map(toolResultText)).toEqual(['looked up with tool_07', '3']);
  });

  it('refuses servers whose tool definitions pass the cap before any model call, naming them with their sizes, and stops them', async () => {
    const pidFile = path.join(repo.root, 'large.pid');
    const failure = runWithMcp(scriptFrom([reply(text('never asked'))]), calcAndLargeConfig(60, pidFile));
    await expect(failure).rejects.toThrow(McpStartError);
    const message = await failure.catch((error: unknown) => (error as Error).message);
    expect(message).toMatch(
      /^The MCP servers' tool definitions come to [\d,]+ characters \(about [\d,]+ tokens\), more than the 12,500 \(about 5,000 tokens\) a run sends: "calc" [\d,]+ characters in 8 tools, "large" [\d,]+ characters in 60 tools; the largest tools are mcp__large__tool_00 [\d,]+, /
    );
    expect(message).toContain(
      'Remove a server from the MCP configuration, or start it with its own option for fewer tools'
    );
    expect(messageRequests()).toHaveLength(0);
    expect(existsSync(path.join(repo.root, '.transcripts', 'mcp-run'))).toBe(false);
    const largePid = Number(readFileSync(pidFile, 'utf8'));
    for (let tries = 0; tries < 50 && isRunning(largePid); tries++) await delay(20);
    expect(isRunning(largePid)).toBe(false);
  });

  it('starts the server with the tool environment, never the action secrets', async () => {
    const outcome = await runWithMcp(
      scriptFrom([reply(toolUse('mcp__calc__env_report', {})), reply(text('Seen.'))]),
      calcConfig()
    );
    expect(outcome.result.stopReason).toBe('success');
    const report = JSON.parse(toolResultText(toolResults(messageRequests()[1]!.request!)[0]!)) as {
      names: string[];
    };
    expect(report.names).toContain('PATH');
    expect(report.names).toContain('CALC_MODE');
    expect(report.names).not.toContain('ANTHROPIC_API_KEY');
    expect(report.names).not.toContain('GITHUB_TOKEN');
  });

  it('turns a server that dies mid-call into tool errors, and the run goes on', async () => {
    const outcome = await runWithMcp(
      scriptFrom([
        reply(toolUse('mcp__calc__crash', {}), toolUse('mcp__calc__add', { a: 1, b: 1 })),
        reply(text('The calculator is gone; I will add by hand.'))
      ]),
      calcConfig()
    );
    expect(outcome.result.stopReason).toBe('success');
    const results = toolResults(messageRequests()[1]!.request!);
    expect(results.map((result) => result.is_error)).toEqual([true, true]);
    expect(toolResultText(results[0]!)).toMatch(
      /^The MCP server "calc" failed on crash: .*Connection closed/
    );
    expect(toolResultText(results[1]!)).toMatch(/^The MCP server "calc" failed on add: /);
  });

  it('stops the server when the run is cancelled during one of its tool calls', async () => {
    const cancel = new AbortController();
    const started = path.join(repo.root, 'slow-started.txt');
    const running = runWithMcp(
      scriptFrom([reply(toolUse('mcp__calc__slow', {})), reply(text('never asked'))]),
      calcConfig(),
      cancel.signal
    );
    const readPid = () => (existsSync(started) ? Number(readFileSync(started, 'utf8')) : 0);
    for (let tries = 0; tries < 500 && readPid() === 0; tries++) await delay(20);
    const serverPid = readPid();
    expect(isRunning(serverPid)).toBe(true);
    cancel.abort();
    const outcome = await running;
    expect(outcome.result.cancelled).toBe(true);
    expect(outcome.result.error).toBe('The run was cancelled.');
    for (let tries = 0; tries < 50 && isRunning(serverPid); tries++) await delay(20);
    expect(isRunning(serverPid)).toBe(false);
  });

  it('starts no server for a run cancelled before it began, and ends it as cancelled', async () => {
    const cancel = new AbortController();
    cancel.abort();
    const notices: string[] = [];
    const outcome = await runWithMcp(
      scriptFrom([reply(text('never asked'))]),
      calcConfig(),
      cancel.signal,
      notices
    );
    expect(outcome.result.cancelled).toBe(true);
    expect(notices).toEqual([]);
    expect(messageRequests()).toHaveLength(0);
  });

  it('fails before the first model call when a server does not start, naming the server and its command', async () => {
    const failure = runWithMcp(
      scriptFrom([reply(text('never asked'))]),
      JSON.stringify({ mcpServers: { ghost: { command: 'no-such-mcp-server-binary', args: ['--stdio'] } } })
    );
    await expect(failure).rejects.toThrow(McpStartError);
    // Nothing was written: the servers start before the run folder is made.
    expect(existsSync(path.join(repo.root, '.transcripts', 'mcp-run'))).toBe(false);
    await expect(failure).rejects.toThrow(
      /The MCP server "ghost" could not be started \(command: no-such-mcp-server-binary --stdio/
    );
    expect(messageRequests()).toHaveLength(0);
  });

  it('says what a server that exits at once printed', async () => {
    const failure = runWithMcp(
      scriptFrom([reply(text('never asked'))]),
      JSON.stringify({
        mcpServers: {
          quitter: {
            command: process.execPath,
            args: ['-e', 'console.error("missing API key"); process.exit(3)']
          }
        }
      })
    );
    await expect(failure).rejects.toThrow(/"quitter" could not be started.*missing API key/);
    expect(messageRequests()).toHaveLength(0);
  });
});
