/**
 * `npm run demo`: the whole action, offline. The built action (dist/index.js) runs on a real
 * webhook payload, an `/agent` comment from @octokit/webhooks-examples, against loopback fakes of
 * GitHub, the artifact service and the Anthropic API (a scripted model), in a copy of
 * examples/word-stats whose test really fails, with a local bare repository as `origin`.
 * The demo prints the comment the action posted, and checks the pushed fix by running the tests.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAction } from '../test-support/action-runner.js';
import { startFakeAnthropic } from '../test-support/fake-anthropic/index.js';
import { startFakeArtifacts } from '../test-support/fake-artifacts/index.js';
import { startFakeGitHub, stateFromPayload } from '../test-support/fake-github/index.js';
import { wordStatsFixer } from './word-stats-fixer.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMMENT = '/agent the word count test fails on text with several spaces; please fix it';

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
  const [github, artifacts, anthropic] = await Promise.all([
    startFakeGitHub(stateFromPayload(payload, { senderPermission: 'write' })),
    startFakeArtifacts(),
    startFakeAnthropic({ script: wordStatsFixer })
  ]);
  try {
    console.log(
      `compact-agent demo: @Codertocat comments on issue #1 of ${github.repo.full_name}:\n  ${COMMENT}\n`
    );
    console.log(`before: npm test ${testsPass(workspace) ? 'passes' : 'fails'} in ${workspace}\n`);
    const run = await runAction({
      eventName: 'issue_comment',
      payload,
      inputs: {},
      workspace,
      github,
      artifacts,
      anthropicUrl: anthropic.url
    });
    const report = github.createdComments[0];
    console.log(
      '──────── the comment the action posted (after',
      report?.history.length ?? 0,
      'progress edits) ────────\n'
    );
    console.log(report?.body ?? '(no comment)');
    console.log('\n────────────────────────────────────────────────────────────────────────\n');
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
    console.log(
      `model requests: ${anthropic.requests.filter((r) => r.path === '/v1/messages').length}, rejected by the strict fake: ${rejected}`
    );
    console.log(`outputs: ${JSON.stringify(run.outputs)}`);
    return run.code === 0 && fixed && rejected === 0 ? 0 : 1;
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
