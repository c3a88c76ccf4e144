import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { reply, scriptFrom, text, toolUse, type Script } from '../../test-support/fake-anthropic/index.js';
import { toolResults, toolResultText } from '../../test-support/fake-anthropic/replies.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from '../support/action-world.js';

/** The action from src/ with mcp_config naming a file in the workspace, against the fakes. */
const CALC_SERVER = path.resolve('test-support/mcp/calc-server.mjs');
const SERVER_KEY = 'calc-file-secret-key-0123456789';

const startWorld = actionWorldPerTest();
let world: ActionWorld;
const payload = examplePayload('issue_comment', 'created', '/agent add one and two');

async function startWorldWith(script: Script): Promise<ActionWorld> {
  world = await startWorld({
    github: stateFromPayload(payload, { senderPermission: 'write' }),
    anthropic: { script }
  });
  return world;
}

function actionWithMcpConfig(mcpConfig: string) {
  return world.run({
    eventName: 'issue_comment',
    payload,
    // The test servers import the project's node_modules, which the box does not show: box-free here.
    inputs: { mcp_config: mcpConfig, sandbox: 'off' },
    entry: ACTION_FROM_SOURCE,
    // Far above a refusal; only an action that waits on the FIFO forever (the bug) is stopped by it.
    onSpawn: (child) => {
      const stop = setTimeout(() => child.kill('SIGKILL'), 90_000);
      child.on('close', () => clearTimeout(stop));
    }
  });
}

const modelCalls = () => world.anthropic.requests.filter((request) => request.path === '/v1/messages');

describe('the action with mcp_config naming a file', () => {
  it('refuses a FIFO in the workspace at once, naming the input and what to give', async () => {
    const { repo } = await startWorldWith(scriptFrom([reply(text('never asked'))]));
    execFileSync('mkfifo', [path.join(repo.root, 'mcp.json')]);
    const run = await actionWithMcpConfig('mcp.json');
    expect(run.code).not.toBeNull();
    expect(run.outputs.conclusion).toBe('failure');
    const said = `mcp_config: cannot read the file ${path.join(repo.root, 'mcp.json')} (it is a FIFO (named pipe)).`;
    expect(run.stdout).toContain(said);
    expect(world.github.createdComments.at(-1)?.body).toContain(said);
    expect(modelCalls()).toHaveLength(0);
  }, 120_000);

  it("starts the file's servers from the one read, and redacts their keys", async () => {
    const { repo } = await startWorldWith(
      scriptFrom([
        reply(
          toolUse('mcp__calc__add', { a: 1, b: 2 }),
          toolUse('mcp__calc__echo_env', { name: 'CALC_API_KEY' })
        ),
        reply(text('Three.'))
      ])
    );
    repo.write(
      'mcp.json',
      JSON.stringify({
        mcpServers: {
          calc: { command: process.execPath, args: [CALC_SERVER], env: { CALC_API_KEY: SERVER_KEY } }
        }
      })
    );
    const run = await actionWithMcpConfig('mcp.json');
    expect(run.outputs.conclusion).toBe('success');
    const [sum, echoed] = toolResults(modelCalls()[1]!.request!).map(toolResultText);
    expect(sum).toBe('3');
    expect(echoed).not.toContain(SERVER_KEY);
    expect(JSON.stringify(world.anthropic.requests.map((request) => request.body))).not.toContain(SERVER_KEY);
  }, 120_000);
});
