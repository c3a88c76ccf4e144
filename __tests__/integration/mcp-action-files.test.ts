import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  reply,
  scriptFrom,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic
} from '../../test-support/fake-anthropic/index.js';
import { toolResults, toolResultText } from '../../test-support/fake-anthropic/replies.js';
import { startFakeArtifacts, type FakeArtifacts } from '../../test-support/fake-artifacts/index.js';
import { startFakeGitHub, stateFromPayload, type FakeGitHub } from '../../test-support/fake-github/index.js';
import { ACTION_FROM_SOURCE, runAction } from '../../test-support/action-runner.js';
import { createRepoWithRemote, type RepoWithRemote } from '../support/temp-repo.js';
import { webhookExample } from '../support/webhook-examples.js';

/** The action from src/ with mcp_config naming a file in the workspace, against the fakes. */
const CALC_SERVER = path.resolve('test-support/mcp/calc-server.mjs');
const SERVER_KEY = 'calc-file-secret-key-0123456789';

let repo: RepoWithRemote;
let github: FakeGitHub;
let artifacts: FakeArtifacts;
let anthropic: FakeAnthropic;
afterEach(async () => {
  await Promise.all([github.close(), artifacts.close(), anthropic.close()]);
  repo.remove();
});

async function actionWithMcpConfig(mcpConfig: string, script: ReturnType<typeof scriptFrom>) {
  const payload = webhookExample('issue_comment', 'created');
  (payload.repository as { default_branch: string }).default_branch = 'main';
  (payload.comment as { body: string }).body = '/agent add one and two';
  [github, artifacts, anthropic] = await Promise.all([
    startFakeGitHub(stateFromPayload(payload, { senderPermission: 'write' })),
    startFakeArtifacts(),
    startFakeAnthropic({ script })
  ]);
  return runAction({
    eventName: 'issue_comment',
    payload,
    inputs: { mcp_config: mcpConfig },
    workspace: repo.root,
    github,
    artifacts,
    anthropicUrl: anthropic.url,
    entry: ACTION_FROM_SOURCE,
    // Far above a refusal; only an action that waits on the FIFO forever (the bug) is stopped by it.
    onSpawn: (child) => {
      const stop = setTimeout(() => child.kill('SIGKILL'), 90_000);
      child.on('close', () => clearTimeout(stop));
    }
  });
}

const modelCalls = () => anthropic.requests.filter((request) => request.path === '/v1/messages');

describe('the action with mcp_config naming a file', () => {
  it('refuses a FIFO in the workspace at once, naming the input and what to give', async () => {
    repo = createRepoWithRemote();
    execFileSync('mkfifo', [path.join(repo.root, 'mcp.json')]);
    const run = await actionWithMcpConfig('mcp.json', scriptFrom([reply(text('never asked'))]));
    expect(run.code).not.toBeNull();
    expect(run.outputs.conclusion).toBe('failure');
    const said = `mcp_config: cannot read the file ${path.join(repo.root, 'mcp.json')} (it is a FIFO (named pipe)).`;
    expect(run.stdout).toContain(said);
    expect(github.createdComments.at(-1)?.body).toContain(said);
    expect(modelCalls()).toHaveLength(0);
  }, 120_000);

  it("starts the file's servers from the one read, and redacts their keys", async () => {
    repo = createRepoWithRemote();
    repo.write(
      'mcp.json',
      JSON.stringify({
        mcpServers: {
          calc: { command: process.execPath, args: [CALC_SERVER], env: { CALC_API_KEY: SERVER_KEY } }
        }
      })
    );
    const run = await actionWithMcpConfig(
      'mcp.json',
      scriptFrom([
        reply(
          toolUse('mcp__calc__add', { a: 1, b: 2 }),
          toolUse('mcp__calc__echo_env', { name: 'CALC_API_KEY' })
        ),
        reply(text('Three.'))
      ])
    );
    expect(run.outputs.conclusion).toBe('success');
    const [sum, echoed] = toolResults(modelCalls()[1]!.request!).map(toolResultText);
    expect(sum).toBe('3');
    expect(echoed).not.toContain(SERVER_KEY);
    expect(JSON.stringify(anthropic.requests.map((request) => request.body))).not.toContain(SERVER_KEY);
  }, 120_000);
});
