import { readFileSync } from 'node:fs';
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

/** The action from src/ with an mcp_config input, against the fakes, as a runner would start it. */
const CALC_SERVER = path.resolve('test-support/mcp/calc-server.mjs');
const LARGE_SERVER = path.resolve('test-support/mcp/large-tools-server.mjs');
const SERVER_KEY = 'calc-secret-key-0123456789';

let repo: RepoWithRemote;
let github: FakeGitHub;
let artifacts: FakeArtifacts;
let anthropic: FakeAnthropic;
afterEach(async () => {
  await Promise.all([github.close(), artifacts.close(), anthropic.close()]);
  repo.remove();
});

function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2)[0] ?? 'X');
  } catch {
    return false;
  }
}

describe('the action with mcp_config', () => {
  it("gives the agent the server's tools, none of the action's secrets, redacts the server's key, and stops it", async () => {
    const payload = webhookExample('issue_comment', 'created');
    (payload.repository as { default_branch: string }).default_branch = 'main';
    (payload.comment as { body: string }).body = '/agent add one and two';
    repo = createRepoWithRemote();
    [github, artifacts, anthropic] = await Promise.all([
      startFakeGitHub(stateFromPayload(payload, { senderPermission: 'write' })),
      startFakeArtifacts(),
      startFakeAnthropic({
        script: scriptFrom([
          reply(
            toolUse('mcp__calc__add', { a: 1, b: 2 }),
            toolUse('mcp__calc__env_report', {}),
            toolUse('mcp__calc__echo_env', { name: 'CALC_API_KEY' })
          ),
          reply(text('One and two make three.'))
        ])
      })
    ]);
    const run = await runAction({
      eventName: 'issue_comment',
      payload,
      inputs: {
        mcp_config: JSON.stringify({
          mcpServers: {
            calc: { command: process.execPath, args: [CALC_SERVER], env: { CALC_API_KEY: SERVER_KEY } }
          }
        })
      },
      workspace: repo.root,
      github,
      artifacts,
      anthropicUrl: anthropic.url,
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
    const payload = webhookExample('issue_comment', 'created');
    (payload.repository as { default_branch: string }).default_branch = 'main';
    (payload.comment as { body: string }).body = '/agent look up the records';
    repo = createRepoWithRemote();
    [github, artifacts, anthropic] = await Promise.all([
      startFakeGitHub(stateFromPayload(payload, { senderPermission: 'write' })),
      startFakeArtifacts(),
      startFakeAnthropic({ script: scriptFrom([reply(text('never asked'))]) })
    ]);
    const run = await runAction({
      eventName: 'issue_comment',
      payload,
      inputs: {
        mcp_config: JSON.stringify({
          mcpServers: { large: { command: process.execPath, args: [LARGE_SERVER, '--tools', '40'] } }
        })
      },
      workspace: repo.root,
      github,
      artifacts,
      anthropicUrl: anthropic.url,
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
