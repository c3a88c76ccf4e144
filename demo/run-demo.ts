/**
 * `npm run demo`: the whole loop, offline. A scripted model served by the strict fake Anthropic
 * server drives the built CLI (dist/cli/index.js) on a copy of examples/word-stats, whose test
 * really fails. The demo then runs the tests itself, so the fix is checked, not claimed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropic } from '../test-support/fake-anthropic/index.js';
import { wordStatsFixer } from './word-stats-fixer.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TASK =
  'The test suite fails: countWords gives wrong counts. Find the bug, fix it, and make sure all tests pass.';

function prepareRepository(): string {
  const repo = mkdtempSync(path.join(tmpdir(), 'compact-agent-demo-'));
  cpSync(path.join(projectRoot, 'examples', 'word-stats'), repo, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '--quiet', '--initial-branch=main');
  git('add', '-A');
  git('-c', 'user.name=demo', '-c', 'user.email=demo@example.com', 'commit', '--quiet', '-m', 'word-stats');
  return repo;
}

function runCli(repo: string, baseUrl: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(projectRoot, 'dist', 'cli', 'index.js'),
        'run',
        '--repo',
        repo,
        '--prompt',
        TASK,
        '--max-turns',
        '20'
      ],
      {
        stdio: 'inherit',
        env: { ...process.env, ANTHROPIC_API_KEY: 'demo-key', ANTHROPIC_BASE_URL: baseUrl }
      }
    );
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

function testsPass(repo: string): boolean {
  try {
    execFileSync('npm', ['test'], { cwd: repo, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  const repo = prepareRepository();
  console.log(`compact-agent demo: fixing ${repo}`);
  console.log(`before: npm test ${testsPass(repo) ? 'passes' : 'fails'}\n`);
  const fake = await startFakeAnthropic({ script: wordStatsFixer });
  try {
    const exitCode = await runCli(repo, fake.url);
    const requests = fake.requests.filter((request) => request.path === '/v1/messages');
    const rejected = requests.filter((request) => request.response?.kind === 'error').length;
    const passes = testsPass(repo);
    console.log(`after: npm test ${passes ? 'passes' : 'still fails'}`);
    console.log(`model requests: ${requests.length}, rejected by the strict fake: ${rejected}`);
    console.log(
      `changed: ${execFileSync('git', ['diff', '--stat'], { cwd: repo, encoding: 'utf8' }).trim()}`
    );
    return exitCode === 0 && passes && rejected === 0 ? 0 : 1;
  } finally {
    await fake.close();
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
