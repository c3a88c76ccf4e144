import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runAction, type ActionRun, type ActionSetup } from '../../test-support/action-runner.js';
import {
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeAnthropicOptions
} from '../../test-support/fake-anthropic/index.js';
import {
  startFakeArtifacts,
  type FakeArtifacts,
  type FakeArtifactsOptions
} from '../../test-support/fake-artifacts/index.js';
import {
  startFakeGitHub,
  type FakeGitHub,
  type FakeGitHubOptions
} from '../../test-support/fake-github/index.js';
import { expectNoContractViolations } from '../../test-support/github-contract/index.js';
import { createRepoWithRemote, type RepoWithRemote } from './temp-repo.js';
import { webhookExample } from './webhook-examples.js';

/**
 * What one spawned action runs against: a checkout with a local bare `origin`, and the three
 * loopback fakes (GitHub, Anthropic, the artifact service).
 */
export interface ActionWorld {
  readonly repo: RepoWithRemote;
  readonly github: FakeGitHub;
  readonly artifacts: FakeArtifacts;
  readonly anthropic: FakeAnthropic;
  /** Runs the action against these fakes, in the checkout unless told otherwise; `inputs` defaults to none. */
  run(request: ActionRequest): Promise<ActionRun>;
  /**
   * A fresh clone of origin's `branch` (default main), as actions/checkout gives a later workflow
   * run; removed with the world.
   */
  cloneOrigin(branch?: string): string;
  /** The model calls (POST /v1/messages) the fake Anthropic has answered so far. */
  modelCalls(): number;
  /**
   * Stops the fakes and deletes the checkout, its remote and the clones; then fails if anything
   * the run sent GitHub, or the fake answered, broke GitHub's OpenAPI description.
   */
  close(): Promise<void>;
}

/** What a test says about one run; the workspace and the fakes' addresses come from the world. */
export type ActionRequest = Omit<
  ActionSetup,
  'workspace' | 'github' | 'artifacts' | 'anthropicUrl' | 'inputs'
> & {
  readonly inputs?: Record<string, string>;
  /** Another workspace than the world's checkout (e.g. one from cloneOrigin). */
  readonly workspace?: string;
  /** Another model endpoint than this world's fake Anthropic (e.g. a cloud front). */
  readonly anthropicUrl?: string;
};

export interface ActionWorldOptions {
  /** The folder the checkout starts from; default a repository holding only a README. */
  readonly seed?: string;
  readonly github?: FakeGitHubOptions;
  readonly anthropic?: FakeAnthropicOptions;
  readonly artifacts?: FakeArtifactsOptions;
}

export async function startActionWorld(options: ActionWorldOptions = {}): Promise<ActionWorld> {
  const repo = createRepoWithRemote(options.seed);
  const [github, artifacts, anthropic] = await Promise.all([
    startFakeGitHub(options.github),
    startFakeArtifacts(options.artifacts),
    startFakeAnthropic(options.anthropic)
  ]).catch((error: unknown) => {
    repo.remove();
    throw error;
  });
  const clones: string[] = [];
  return {
    repo,
    github,
    artifacts,
    anthropic,
    run: (request) =>
      runAction({
        ...request,
        inputs: request.inputs ?? {},
        workspace: request.workspace ?? repo.root,
        github,
        artifacts,
        anthropicUrl: request.anthropicUrl ?? anthropic.url
      }),
    cloneOrigin: (branch = 'main') => {
      const clone = mkdtempSync(path.join(tmpdir(), 'compact-agent-checkout-'));
      clones.push(clone);
      execFileSync('git', ['clone', '--quiet', '--branch', branch, repo.remote, clone]);
      return clone;
    },
    modelCalls: () => anthropic.requests.filter((request) => request.path === '/v1/messages').length,
    close: async () => {
      await Promise.all([github.close(), artifacts.close(), anthropic.close()]);
      repo.remove();
      for (const clone of clones) rmSync(clone, { recursive: true, force: true });
      expectNoContractViolations(github);
    }
  };
}

/**
 * `startActionWorld` for a test file whose tests each build their own world: registers an
 * `afterEach` that closes every world the finished test started, even when it failed.
 */
export function actionWorldPerTest(): (options?: ActionWorldOptions) => Promise<ActionWorld> {
  const open: ActionWorld[] = [];
  afterEach(async () => {
    const worlds = open.splice(0);
    await Promise.all(worlds.map((world) => world.close()));
  });
  return async (options) => {
    const world = await startActionWorld(options);
    open.push(world);
    return world;
  };
}

/**
 * A webhook example as a run receives it: its repository's default branch, and its pull request's
 * base, are `main` (the local checkout's, which origin has, as GitHub's always has the base: the
 * repository's config file is read from it), and its comment says `commentBody` when given.
 */
export function examplePayload(
  event: string,
  action?: string,
  commentBody?: string
): Record<string, unknown> {
  const payload = webhookExample(event, action);
  if ('repository' in payload) (payload.repository as { default_branch: string }).default_branch = 'main';
  if ('pull_request' in payload) (payload.pull_request as { base: { ref: string } }).base.ref = 'main';
  if (commentBody !== undefined) (payload.comment as { body: string }).body = commentBody;
  return payload;
}
