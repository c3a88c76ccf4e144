/**
 * The action (from src/) as a runner starts it after actions/setup-java and actions/setup-go: what
 * they exported reaches the agent's shell, a secret of the job does not (not even its value under an
 * innocent name that bash_env_passthrough names), and the names withheld are told to the model,
 * recorded in run_start and listed in the report.
 */
import { ACTION_FROM_SOURCE } from '../../test-support/action-runner.js';
import {
  reply,
  scriptFrom,
  systemText,
  text,
  toolResults,
  toolResultText,
  toolUse
} from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload } from '../support/action-world.js';

const startWorld = actionWorldPerTest();

const JAVA_HOME = '/opt/hostedtoolcache/Java_Temurin-Hotspot_jdk/17.0.13-11/x64';
const GOROOT = '/opt/hostedtoolcache/go/1.23.4/x64';
const DEPLOY_TOKEN = 'deploy-secret-5f0c1e9a7b3d';

it("passes the job's toolchain to the agent's shell, withholds its secrets, and says which by name", async () => {
  const payload = examplePayload('issue_comment', 'created', '/agent run the tests');
  const world = await startWorld({
    github: stateFromPayload(payload, { senderPermission: 'write' }),
    anthropic: {
      script: scriptFrom([reply(toolUse('bash', { command: 'env' })), reply(text('The shell is set up.'))])
    }
  });
  const run = await world.run({
    eventName: 'issue_comment',
    payload,
    inputs: { bash_env_passthrough: 'BUILD_CONFIG' },
    env: {
      // The runner puts what GITHUB_PATH collected in front of PATH for later steps.
      PATH: `${GOROOT}/bin:${JAVA_HOME}/bin:${process.env.PATH ?? ''}`,
      JAVA_HOME,
      JAVA_HOME_17_X64: JAVA_HOME,
      GOROOT,
      GOTOOLCHAIN: 'local',
      DEPLOY_TOKEN,
      BUILD_CONFIG: DEPLOY_TOKEN
    },
    entry: ACTION_FROM_SOURCE
  });
  expect(run.outputs.conclusion).toBe('success');

  const calls = world.anthropic.requests.filter((record) => record.path === '/v1/messages');
  const shell = toolResults(calls[1]!.request!).map(toolResultText).join('\n');
  expect(shell).toContain(`\nJAVA_HOME=${JAVA_HOME}\n`);
  expect(shell).toContain(`\nJAVA_HOME_17_X64=${JAVA_HOME}\n`);
  expect(shell).toContain(`\nGOROOT=${GOROOT}\n`);
  expect(shell).toContain('\nGOTOOLCHAIN=local\n');
  expect(shell).toMatch(new RegExp(`\\nPATH=${GOROOT}/bin:${JAVA_HOME}/bin:`));
  expect(shell).not.toContain('DEPLOY_TOKEN');
  expect(shell).not.toContain('BUILD_CONFIG');
  expect(shell).not.toContain(DEPLOY_TOKEN);

  // Told to the model once, in the system prompt, which stays the same all run (the cached prefix).
  const prompts = calls.map((record) => systemText(record.request!));
  expect(new Set(prompts).size).toBe(1);
  expect(prompts[0]).toMatch(
    /These variables of the job were withheld from your shell: [^\n]*BUILD_CONFIG, DEPLOY_TOKEN/
  );
  expect(prompts[0]).not.toContain(DEPLOY_TOKEN);

  // Recorded in run_start, and listed in the report: names, never values.
  const files = world.artifacts.files('agent-transcripts-4242-1');
  const start = JSON.parse(files.get('4242-1/transcript.jsonl')!.toString('utf8').split('\n')[0]!) as {
    withheld_env?: { secret: string[]; unlisted: string[] };
  };
  expect(start.withheld_env?.secret).toEqual(['BUILD_CONFIG', 'DEPLOY_TOKEN']);
  expect(start.withheld_env?.unlisted).not.toContain('JAVA_HOME');
  const report = world.github.createdComments.map((comment) => comment.body).join('\n');
  expect(report).toContain(
    "🔒 Withheld from the agent's shell: `BUILD_CONFIG`, `DEPLOY_TOKEN` (secrets and the action's own)"
  );
  expect(run.summary).toContain("Withheld from the agent's shell: `BUILD_CONFIG`, `DEPLOY_TOKEN`");
  expect(report + run.summary).not.toContain(DEPLOY_TOKEN);
});
