import path from 'node:path';
import { startFakeAnthropic, type FakeAnthropic } from '../../test-support/fake-anthropic/index.js';
import { startFakeArtifacts, type FakeArtifacts } from '../../test-support/fake-artifacts/index.js';
import { isWrite, startFakeGitHub, type FakeGitHub } from '../../test-support/fake-github/index.js';
import { expectNoContractViolations } from '../../test-support/github-contract/index.js';
import { WorkflowSimulator, type WorkflowRun } from '../../test-support/workflow-sim/simulator.js';
import { createRepoWithRemote, type RepoWithRemote } from './temp-repo.js';
import { before, shardModelScript, shardOf, unitFile } from './fanout-shard-model.js';

/**
 * A repository of `units` files calling oldApi(), pushed to a bare remote, with the fan-out config
 * on main; the fake GitHub (with GitHub's secondary limit on fast writes), the fake artifact
 * service and the fake Anthropic, one each for every job; and the simulator running
 * examples/workflows/fanout.yml over them. The scripted model plays each shard as the fanout CLI
 * test's does: it reads its paths from the shard's task and rewrites each file to newApi().
 */
export interface FanoutWorld {
  readonly repo: RepoWithRemote;
  readonly github: FakeGitHub;
  readonly artifacts: FakeArtifacts;
  readonly anthropic: FakeAnthropic;
  readonly sim: WorkflowSimulator;
  /** Shards whose model writes a broken file (the validation fails). */
  readonly breaks: Set<string>;
  /** Shards whose model also writes README.md, outside its paths. */
  readonly strays: Set<string>;
  /** Shards whose model keeps working, with long answers, until its budget stops it. */
  readonly spends: Set<string>;
  /** The issue the roll-up goes to (as /agent fanout would dispatch it). */
  readonly reportIssue: number;
  dispatch(inputs?: Record<string, string>): Promise<WorkflowRun>;
  /** The shards the model was asked to work on, from request `from` on. */
  shardsAsked(from?: number): Set<string>;
  /** Commits a change to main on the remote (someone else's push while the fan-out runs). */
  pushToMain(file: string, content: string): void;
  /** A file as a branch of the remote has it. */
  show(branch: string, file: string): string;
  /** Remote branches under fanout/. */
  fanoutBranches(): string[];
  /** Requests made with the token of any instance of `job` in `run`. */
  requestsOfJob(run: WorkflowRun, job: string): FakeGitHub['requests'];
  close(): Promise<void>;
}

export interface FanoutWorldOptions {
  readonly units: number;
  readonly land: 'per-shard' | 'combined';
  readonly shardSize: number;
  readonly maxTotalUsd: string;
}

export async function startFanoutWorld(options: FanoutWorldOptions): Promise<FanoutWorld> {
  const repo = createRepoWithRemote();
  for (let index = 1; index <= options.units; index++) repo.write(unitFile(index), before(unitFile(index)));
  repo.write('src/untouched.ts', 'export const other = 1;\n');
  repo.write(
    '.github/compact-agent.yml',
    [
      'fanout:',
      '  units: git grep -l oldApi -- src',
      `  shard_size: ${options.shardSize}`,
      `  land: ${options.land}`,
      "  validate: '! grep -rl BROKEN src'",
      '  validate_retries: 0',
      ''
    ].join('\n')
  );
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'units to migrate');
  repo.git('push', '-q', 'origin', 'main');

  const breaks = new Set<string>();
  const strays = new Set<string>();
  const spends = new Set<string>();
  const github = await startFakeGitHub({
    repo: { owner: 'octo', name: 'widgets' },
    issues: [
      { number: 1, title: 'Fan-out: use newApi', body: '/agent fanout use newApi', user: { login: 'alice' } }
    ],
    permissions: { alice: 'write' },
    // GitHub's secondary limit: a write within a second of the last one, or the 81st in a minute,
    // is refused with a retry-after (rate-limits.ts).
    secondaryLimitOnFastWrites: { minGapMs: 1000, retryAfterSeconds: 1, perMinute: 80 }
  });
  const artifacts = await startFakeArtifacts();
  const anthropic = await startFakeAnthropic({ script: shardModelScript({ breaks, strays, spends }) });
  const sim = new WorkflowSimulator({
    workflowFile: path.resolve('examples/workflows/fanout.yml'),
    workflowPath: '.github/workflows/fanout.yml',
    remote: repo.remote,
    github,
    artifacts,
    anthropicUrl: anthropic.url,
    secrets: { ANTHROPIC_API_KEY: 'sk-ant-test' }
  });
  return {
    repo,
    github,
    artifacts,
    anthropic,
    sim,
    breaks,
    strays,
    spends,
    reportIssue: 1,
    dispatch: (inputs = {}) =>
      sim.dispatch({
        prompt: 'Replace oldApi() with newApi().',
        max_total_usd: options.maxTotalUsd,
        report_issue: '1',
        ...inputs
      }),
    shardsAsked: (from = 0) =>
      new Set(
        anthropic.requests.slice(from).flatMap((record) => {
          const shard = record.request ? shardOf(record.request) : undefined;
          return shard ? [shard] : [];
        })
      ),
    pushToMain(file, content) {
      repo.git('fetch', '-q', 'origin', 'main');
      repo.git('checkout', '-q', '-B', 'main', 'origin/main');
      repo.write(file, content);
      repo.git('add', '-A');
      repo.git('commit', '-qm', `someone changes ${file}`);
      repo.git('push', '-q', 'origin', 'main');
    },
    show: (branch, file) => repo.remoteGit('show', `${branch}:${file}`),
    fanoutBranches: () =>
      repo
        .remoteGit('for-each-ref', '--format=%(refname:lstrip=2)', 'refs/heads/fanout')
        .split('\n')
        .filter(Boolean),
    requestsOfJob: (run, job) => {
      const tokens = new Set(run.jobs[job]?.instances.map((instance) => instance.githubToken));
      return github.requests.filter((request) => request.token !== undefined && tokens.has(request.token));
    },
    async close() {
      await Promise.all([github.close(), artifacts.close(), anthropic.close()]);
      repo.remove();
      expectNoContractViolations(github);
    }
  };
}

/** Writes among `requests` (POST, PATCH, PUT, DELETE). */
export function writesAmong(requests: FakeGitHub['requests']): FakeGitHub['requests'] {
  return requests.filter((request) => isWrite(request.method));
}

/** What a job's action printed (every step), for a failure message. */
export function jobOutput(run: WorkflowRun, job: string): string {
  return (run.jobs[job]?.instances ?? [])
    .map(
      (instance) =>
        `--- ${instance.name}: ${instance.result}\n${instance.actions.map((a) => a.stdout + a.stderr).join('\n')}${instance.error ?? ''}`
    )
    .join('\n');
}
