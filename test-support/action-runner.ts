import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleSources } from './source-bundle.js';
import { artifactEnv, type FakeArtifacts } from './fake-artifacts/index.js';
import type { FakeGitHub } from './fake-github/index.js';
import { ACTION_NODE } from './action-node.js';
import type { StreamChunk } from './runner-commands.js';
import { UNSPACED_LOOPBACK_WRITES_VARIABLE } from '../src/config/test-switches.js';

export interface ActionRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Both streams' chunks in the order they arrived (the runner's two readers see this order). */
  readonly chunks: readonly StreamChunk[];
  readonly outputs: Record<string, string>;
  readonly summary: string;
}

export interface ActionSetup {
  readonly eventName: string;
  readonly payload: unknown;
  readonly inputs: Record<string, string>;
  readonly workspace: string;
  readonly github: FakeGitHub;
  readonly artifacts: FakeArtifacts;
  readonly anthropicUrl: string;
  readonly runId?: string;
  /** Node's arguments: the built action by default, or `ACTION_FROM_SOURCE` for the current sources. */
  readonly entry?: readonly string[];
  /** More variables of the job's environment (what an earlier step exported, e.g. cloud credentials). */
  readonly env?: Readonly<Record<string, string>>;
  /** Called with the spawned process, e.g. to send it the runner's SIGINT. */
  readonly onSpawn?: (child: ChildProcess) => void;
  /**
   * The action's stdout and stderr as two real pipes, as a runner gives a step (Node's own 'pipe' is
   * a socket, which /proc/<pid>/fd cannot open), with `chunks` recording what came from which, in
   * the order it arrived. The action is then not the direct child: `onSpawn` signals reach its shell.
   */
  readonly realPipes?: boolean;
  /**
   * True keeps Octokit's write spacing (a second between writes, three between comments) as on a
   * real runner. Off by default: the fake needs no protecting, and the pauses cost every test seconds.
   */
  readonly spaceGitHubWrites?: boolean;
  /**
   * True gives the action `inputs` and nothing else, as the runner does (an input a step does not
   * give and action.yml has no default for is absent); by default the test's token, a model key
   * and notify_requester: false are added under them.
   */
  readonly onlyGivenInputs?: boolean;
}

/**
 * The action from src/: what a test of code not yet built into dist/ runs. Given as `entry`, it is
 * replaced by an esbuild bundle of src/index.ts when the action starts (see source-bundle.ts: a
 * start costs what dist/'s does, where tsx's loader compiled every module again, about 3 s of CPU).
 */
export const ACTION_FROM_SOURCE: readonly string[] = Object.freeze([path.resolve('src/index.ts')]);
/** The same, by the name the record tests use. */
export const SOURCE_ACTION = ACTION_FROM_SOURCE;

/**
 * Runs the built action (dist/index.js) as the runner would: a child process whose environment
 * points every service at the loopback fakes, with the event payload in a file.
 */
export function runAction(setup: ActionSetup): Promise<ActionRun> {
  const runner = mkdtempSync(path.join(tmpdir(), 'compact-agent-runner-'));
  const files = {
    event: path.join(runner, 'event.json'),
    output: path.join(runner, 'output'),
    summary: path.join(runner, 'summary.md')
  };
  writeFileSync(files.event, JSON.stringify(setup.payload));
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_EVENT_NAME: setup.eventName,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_REPOSITORY: setup.github.repo.full_name,
    GITHUB_RUN_ID: setup.runId ?? '4242',
    GITHUB_RUN_ATTEMPT: '1',
    // The workflow file the fake GitHub gives its runs by default (fake-github/workflow-runs.ts).
    GITHUB_WORKFLOW_REF: `${setup.github.repo.full_name}/.github/workflows/agent.yml@refs/heads/main`,
    GITHUB_API_URL: setup.github.url,
    GITHUB_WORKSPACE: setup.workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    RUNNER_TEMP: runner,
    ANTHROPIC_BASE_URL: setup.anthropicUrl,
    ...artifactEnv(setup.artifacts),
    ...(setup.spaceGitHubWrites ? {} : { [UNSPACED_LOOPBACK_WRITES_VARIABLE]: '1' }),
    ...setup.env,
    ...Object.fromEntries(
      Object.entries({
        ...(setup.onlyGivenInputs
          ? {}
          : {
              github_token: setup.github.token,
              anthropic_api_key: 'sk-ant-test',
              // Off unless a test asks: the end-of-run reply is one more comment on every thread, and the
              // tests that count a thread's comments predate it (__tests__/github/report-action turns it on).
              notify_requester: 'false'
            }),
        ...setup.inputs
      }).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value])
    )
  };
  // GitHub lists a run while it runs: a run of this workflow that lists its runs finds itself.
  const ownRunId = Number(setup.runId ?? '4242');
  if (Number.isSafeInteger(ownRunId) && ownRunId > 0) setup.github.startedRun(ownRunId);
  return new Promise((resolve, reject) => {
    const args =
      setup.entry === ACTION_FROM_SOURCE
        ? [bundleSources('src/index.ts')]
        : [...(setup.entry ?? [path.resolve('dist/index.js')])];
    // bash makes a pipe to a `cat` for each stream; pipefail keeps the action's exit code.
    const child = setup.realPipes
      ? spawn('bash', ['-c', 'set -o pipefail; "$0" "$@" 2> >(cat >&2) | cat', ACTION_NODE, ...args], {
          cwd: setup.workspace,
          env,
          stdio: ['ignore', 'pipe', 'pipe']
        })
      : spawn(ACTION_NODE, args, { cwd: setup.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
    setup.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    const chunks: StreamChunk[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      chunks.push({ stream: 'stdout', text: chunk.toString() });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      chunks.push({ stream: 'stderr', text: chunk.toString() });
    });
    child.on('error', reject);
    child.on('close', (code) => {
      // A later run looks this run up to trust its report (src/followup/workflow-origin.ts).
      const runId = Number(setup.runId ?? '4242');
      if (Number.isSafeInteger(runId) && runId > 0) setup.github.finishedRun(runId);
      resolve({
        code,
        stdout,
        stderr,
        chunks,
        outputs: parseOutputs(readFileSync(files.output, 'utf8')),
        summary: readFileSync(files.summary, 'utf8')
      });
    });
  });
}

/** GITHUB_OUTPUT holds `name<<delimiter`, the value, then the delimiter, per output. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const pattern = /^([^<\n]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const match of text.matchAll(pattern)) outputs[match[1]!] = match[3]!;
  return outputs;
}
