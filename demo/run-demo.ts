/**
 * `npm run demo`: the whole action, offline. The built action (dist/index.js) runs on a real
 * webhook payload, an `/agent` comment from @octokit/webhooks-examples, against loopback fakes of
 * GitHub, the artifact service and the Anthropic API (a scripted model, with the prompt-cache usage
 * model), in a copy of examples/word-stats whose test really fails, with a local bare repository as
 * `origin`. The compaction thresholds are lowered through the action's own inputs so that every layer
 * fires on this small code base. The demo prints the comment the action posted, the compactions by
 * layer and the cache-read share, and checks the pushed fix by running the tests. It exits non-zero
 * when any of that falls short, so CI catches a regression.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACTION_FROM_SOURCE, runAction } from '../test-support/action-runner.js';
import {
  blocksOf,
  createPromptCache,
  startFakeAnthropic,
  type ParsedRequest
} from '../test-support/fake-anthropic/index.js';
import { startFakeArtifacts } from '../test-support/fake-artifacts/index.js';
import { startFakeGitHub, stateFromPayload } from '../test-support/fake-github/index.js';
import { DEFAULT_MODEL, resolveModelSpec } from '../src/config/models.js';
import { DEMO_COMPACTION_INPUTS, describeDemoThresholds } from './demo-thresholds.js';
import { cacheReadShare, layerCounts, layerLine, readCompactionLayers, shortfalls } from './layer-check.js';
import { createWordStatsSession } from './word-stats-session.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMMENT = '/agent the word count test fails on text with several spaces; please fix it';
/**
 * `--from-source` runs the action from src/ (through tsx) instead of dist/: what `npm run
 * screenshot:audit` uses, so the screenshot shows this checkout's code before dist/ is rebuilt.
 */
const FROM_SOURCE = process.argv.includes('--from-source');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The checkout a runner would have: examples/word-stats on main, with a bare `origin`. */
function prepareCheckout(): { workspace: string; origin: string } {
  const origin = mkdtempSync(path.join(tmpdir(), 'compact-agent-demo-origin-'));
  git(origin, 'init', '--quiet', '--bare', '--initial-branch=main');
  const workspace = mkdtempSync(path.join(tmpdir(), 'compact-agent-demo-'));
  cpSync(path.join(projectRoot, 'examples', 'word-stats'), workspace, { recursive: true });
  git(workspace, 'init', '--quiet', '--initial-branch=main');
  git(workspace, 'add', '-A');
  git(
    workspace,
    '-c',
    'user.name=demo',
    '-c',
    'user.email=demo@example.com',
    'commit',
    '--quiet',
    '-m',
    'word-stats'
  );
  git(workspace, 'remote', 'add', 'origin', origin);
  git(workspace, 'push', '--quiet', 'origin', 'main');
  return { workspace, origin };
}

/** A real issue_comment payload, with our comment and a default branch that matches the checkout. */
function issueCommentPayload(): Record<string, unknown> {
  const require = createRequire(import.meta.url);
  const sets = require('@octokit/webhooks-examples/api.github.com/index.json') as Array<{
    name: string;
    examples: Array<Record<string, unknown>>;
  }>;
  const example = sets
    .find((set) => set.name === 'issue_comment')!
    .examples.find((e) => e.action === 'created')!;
  const payload = structuredClone(example);
  (payload.comment as { body: string }).body = COMMENT;
  (payload.repository as { default_branch: string }).default_branch = 'main';
  return payload;
}

/** Thinking blocks the action sent back in a request's history (preserved thinking). */
function thinkingBlocksIn(request: ParsedRequest | undefined): number {
  return (request?.messages ?? [])
    .flatMap((message) => blocksOf(message))
    .filter((block) => block.type === 'thinking').length;
}

function testsPass(cwd: string): boolean {
  try {
    execFileSync('npm', ['test'], { cwd, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  const { workspace, origin } = prepareCheckout();
  const payload = issueCommentPayload();
  const model = resolveModelSpec(DEFAULT_MODEL);
  const session = createWordStatsSession();
  const [github, artifacts, anthropic] = await Promise.all([
    startFakeGitHub(stateFromPayload(payload, { senderPermission: 'write' })),
    startFakeArtifacts(),
    startFakeAnthropic({
      script: session,
      usageModel: createPromptCache({ minCacheableTokens: model.minCacheableTokens })
    })
  ]);
  try {
    console.log(
      `compact-agent demo: @Codertocat comments on issue #1 of ${github.repo.full_name}:\n  ${COMMENT}\n`
    );
    console.log(`${describeDemoThresholds()}\n`);
    console.log(`before: npm test ${testsPass(workspace) ? 'passes' : 'fails'} in ${workspace}\n`);
    const run = await runAction({
      eventName: 'issue_comment',
      payload,
      inputs: { ...DEMO_COMPACTION_INPUTS },
      workspace,
      github,
      artifacts,
      anthropicUrl: anthropic.url,
      ...(FROM_SOURCE ? { entry: ACTION_FROM_SOURCE } : {})
    });
    const report = github.createdComments[0];
    console.log(
      '──────── the comment the action posted (after',
      report?.history.length ?? 0,
      'progress edits) ────────\n'
    );
    console.log(report?.body ?? '(no comment)');
    console.log('\n────────────────────────────────────────────────────────────────────────\n');
    const counts = layerCounts(readCompactionLayers(run.outputs.transcript_dir ?? workspace));
    const cache = cacheReadShare(run.outputs);
    console.log(layerLine(counts, cache));
    const branch = run.outputs.branch_name;
    const check = mkdtempSync(path.join(tmpdir(), 'compact-agent-demo-check-'));
    let fixed = false;
    if (branch) {
      git(check, 'clone', '--quiet', '--branch', branch, origin, '.');
      fixed = testsPass(check);
    }
    const rejected = anthropic.requests.filter(
      (r) => r.path === '/v1/messages' && r.response?.kind === 'error'
    ).length;
    console.log(`pushed branch: ${branch ?? '(none)'}; npm test on it ${fixed ? 'passes' : 'fails'}`);
    console.log(`pull request: ${run.outputs.pr_url ?? '(none)'}`);
    console.log(
      `artifact: ${artifacts.artifacts.map((a) => `${a.name} (${a.size} bytes)`).join(', ') || '(none)'}`
    );
    const modelRequests = anthropic.requests.filter((r) => r.path === '/v1/messages');
    console.log(
      `model requests: ${modelRequests.length} ` +
        `(${session.progress.agentTurns} agent turns, ${session.progress.summaries.length} summaries), ` +
        `thinking blocks sent back: ${modelRequests.reduce((sum, r) => sum + thinkingBlocksIn(r.request), 0)}, ` +
        `rejected by the strict fake: ${rejected}`
    );
    console.log(`outputs: ${JSON.stringify(run.outputs)}`);
    const problems = [
      ...(run.code === 0 ? [] : [`the action exited with code ${run.code ?? 'none'}`]),
      ...(fixed ? [] : ['the pushed branch does not pass its tests']),
      ...(rejected === 0 ? [] : [`the fake rejected ${rejected} request(s)`]),
      ...(session.progress.finished ? [] : ['the scripted model did not finish its session']),
      ...(session.progress.spillReadBack ? [] : ['the model never read a spilled result back']),
      ...shortfalls(counts, cache)
    ];
    if (problems.length > 0) {
      console.error(`\ndemo FAILED: ${problems.join('; ')}.`);
      if (run.code !== 0) console.error(run.stderr.slice(-4000));
      return 1;
    }
    return 0;
  } finally {
    await Promise.all([github.close(), artifacts.close(), anthropic.close()]);
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  }
);
