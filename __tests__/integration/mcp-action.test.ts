import { readFileSync } from 'node:fs';
import path from 'node:path';
import { reply, scriptFrom, text, toolUse } from '../../test-support/fake-anthropic/index.js';
import { toolResults, toolResultText } from '../../test-support/fake-anthropic/replies.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import { actionWorldPerTest, examplePayload } from '../support/action-world.js';

/** The action from src/ with an mcp_config input, against the fakes, as a runner would start it. */
const CALC_SERVER = path.resolve('test-support/mcp/calc-server.mjs');
const LARGE_SERVER = path.resolve('test-support/mcp/large-tools-server.mjs');
const SERVER_KEY = 'calc-secret-key-0123456789';

const startWorld = actionWorldPerTest();

function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2)[0] ?? 'X');
  } catch {
    return false;
  }
}

describe('the action with mcp_config', () => {
  it('starts no MCP server for a read-only plan run, and says so', async () => {
    const payload = examplePayload('issue_comment', 'created', '/agent plan add one and two');
    const world = await startWorld({
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      anthropic: { script: scriptFrom([reply(text('## Goal\nAdd them.'))]) }
    });
    const run = await world.run({
      eventName: 'issue_comment',
      payload,
      inputs: {
        sandbox: 'off', // the test servers import the project's node_modules, which the box does not show
        mcp_config: JSON.stringify({
          mcpServers: { calc: { command: process.execPath, args: [CALC_SERVER] } }
        })
      },
      entry: ACTION_FROM_SOURCE
    });
    expect(run.outputs.conclusion).toBe('success');
    expect(run.stdout).toContain(
      'This plan run is read-only, so the MCP servers of mcp_config (calc) are not started.'
    );
    expect(run.stdout).not.toContain('MCP servers: calc (');
    const request = world.anthropic.requests.find((record) => record.path === '/v1/messages')!.request!;
    expect((request.tools ?? []).map((tool) => tool.name).filter((name) => name.startsWith('mcp__'))).toEqual(
      []
    );
  });

  it("gives the agent the server's tools, none of the action's secrets, redacts the server's key, and stops it", async () => {
    const payload = examplePayload('issue_comment', 'created', '/agent add one and two');
    const world = await startWorld({
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      anthropic: {
        script: scriptFrom([
          reply(
            toolUse('mcp__calc__add', { a: 1, b: 2 }),
            toolUse('mcp__calc__env_report', {}),
            toolUse('mcp__calc__echo_env', { name: 'CALC_API_KEY' })
          ),
          reply(text('One and two make three.'))
        ])
      }
    });
    const { anthropic } = world;
    const run = await world.run({
      eventName: 'issue_comment',
      payload,
      inputs: {
        sandbox: 'off', // the test servers import the project's node_modules, which the box does not show
        mcp_config: JSON.stringify({
          mcpServers: {
            calc: { command: process.execPath, args: [CALC_SERVER], env: { CALC_API_KEY: SERVER_KEY } }
          }
        })
      },
      entry: ACTION_FROM_SOURCE
    });
    expect(run.outputs.conclusion).toBe('success');
    expect(run.stdout).toContain('MCP servers: calc (');

    const second = anthropic.requests.filter((request) => request.path === '/v1/messages')[1]!.request!;
    const [sum, report, echoed] = toolResults(second).map(toolResultText);
    expect(sum).toBe('3');
    const { pid, names } = JSON.parse(report!) as { pid: number; names: string[] };
    expect(names).toContain('CALC_API_KEY');
    for (const secret of [
      'GITHUB_TOKEN',
      'ANTHROPIC_API_KEY',
      'ACTIONS_RUNTIME_TOKEN',
      'INPUT_GITHUB_TOKEN'
    ]) {
      expect(names).not.toContain(secret);
    }
    expect(names.filter((name) => name.startsWith('INPUT_'))).toEqual([]);
    // The server has its key, but what it prints of it is redacted before the model sees it.
    expect(echoed).not.toContain(SERVER_KEY);
    expect(JSON.stringify(anthropic.requests.map((request) => request.body))).not.toContain(SERVER_KEY);
    expect(isRunning(pid)).toBe(false);
  });

  it('reports servers whose tool definitions pass the cap in the log, the comment and the job summary, before any model call', async () => {
    const payload = examplePayload('issue_comment', 'created', '/agent look up the records');
    const world = await startWorld({
      github: stateFromPayload(payload, { senderPermission: 'write' }),
      anthropic: { script: scriptFrom([reply(text('never asked'))]) }
    });
    const { github, anthropic } = world;
    const run = await world.run({
      eventName: 'issue_comment',
      payload,
      inputs: {
        sandbox: 'off', // the test servers import the project's node_modules, which the box does not show
        mcp_config: JSON.stringify({
          mcpServers: { large: { command: process.execPath, args: [LARGE_SERVER, '--tools', '40'] } }
        })
      },
      entry: ACTION_FROM_SOURCE
    });
    expect(run.outputs.conclusion).toBe('failure');
    const paragraph =
      /The MCP servers' tool definitions come to [\d,]+ characters .* "large" [\d,]+ characters in 40 tools;/;
    expect(run.stdout).toMatch(paragraph);
    expect(github.createdComments.at(-1)?.body).toMatch(paragraph);
    expect(run.summary).toMatch(paragraph);
    expect(anthropic.requests.filter((request) => request.path === '/v1/messages')).toHaveLength(0);
  });
});
