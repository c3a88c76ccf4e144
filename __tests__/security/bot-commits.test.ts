import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { publishChanges, type PublishOptions } from '../../src/action/publish-changes.js';
import type { TrustedGit } from '../../src/git/git-binary.js';
import type { RepositoryGuard } from '../../src/git/repository-guard.js';
import { renderReport } from '../../src/github/report/report.js';
import type { RunResult } from '../../src/agent/run-result.js';
import { NO_USAGE } from '../../src/model/usage.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { guardedRepoPerTest, publishOptions } from '../support/guarded-repo.js';
import { createTempDir, type RepoWithRemote } from '../support/temp-repo.js';
import { runResult } from '../support/run-result.js';

const BOT = { name: 'compact-agent[bot]', email: '123+compact-agent[bot]@users.noreply.github.com' };
const target = { kind: 'new-branch', branch: 'agent/2-bot', base: 'main', issueNumber: 2 } as const;

let repo: RepoWithRemote;
let guard: RepositoryGuard;
let base: string;

const guardedRepo = guardedRepoPerTest();
async function setUp(binary?: TrustedGit): Promise<void> {
  ({ repo, guard, base } = await guardedRepo({ binary }));
}

const options = (overrides: Partial<PublishOptions> = {}): PublishOptions =>
  publishOptions(guard, {
    identity: BOT,
    commitTitle: 'agent: fix the parser',
    runUrl: 'https://github.com/octo/repo/actions/runs/9',
    coAuthor: { login: 'octocat', id: 583231 },
    ...overrides
  });
const publish = (overrides: Partial<PublishOptions> = {}) =>
  publishChanges(target, base, guard.git, new MemoryGitHub(), options(overrides));

/** The agent, in its bash tool: commits under any name it likes. */
function agentCommit(message: string, author = 'Mallory <mallory@evil.example>'): void {
  repo.git('add', '-A');
  const [name, email] = /^(.*) <(.*)>$/.exec(author)!.slice(1) as [string, string];
  repo.git(
    '-c',
    `user.name=${name}`,
    '-c',
    `user.email=${email}`,
    'commit',
    '-q',
    `--author=${author}`,
    '-m',
    message
  );
}

/** `author|committer|parents|body` of each commit the remote branch has beyond main. */
function pushedCommits(): string[] {
  return repo
    .remoteGit('log', '--format=%an <%ae>|%cn <%ce>|%P|%B%x00', `main..${target.branch}`)
    .split('\0')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

describe('every pushed commit is the bot’s', () => {
  it("re-creates the agent's own commits, and what it left uncommitted, as one bot commit with a co-author", async () => {
    await setUp();
    repo.write('src/parser.js', 'export const parse = (s) => s.trim();\n');
    agentCommit('Fixes #1: parser\n\nCo-authored-by: someone <someone@example.com>');
    repo.write('src/parser.test.js', 'test("trim", () => {});\n');
    agentCommit('tests', 'Someone Else <else@example.com>');
    repo.write('NOTES.md', 'left uncommitted\n');

    const outcome = await publish();
    expect(outcome).toMatchObject({ kind: 'pushed', branch: target.branch });
    const commits = pushedCommits();
    expect(commits).toHaveLength(1);
    const [author, committer, parents, body] = commits[0]!.split('|') as [string, string, string, string];
    expect(author).toBe(`${BOT.name} <${BOT.email}>`);
    expect(committer).toBe(`${BOT.name} <${BOT.email}>`);
    expect(parents).toBe(base);
    expect(body).toBe(
      'agent: fix the parser\n\nRun: https://github.com/octo/repo/actions/runs/9\n\n' +
        'Co-authored-by: octocat <583231+octocat@users.noreply.github.com>'
    );
    // The agent's work is all there; its messages (and their "Fixes #1") are not.
    expect(repo.remoteGit('ls-tree', '-r', '--name-only', target.branch).trim().split('\n').sort()).toEqual([
      'NOTES.md',
      'README.md',
      'src/parser.js',
      'src/parser.test.js'
    ]);
    expect(repo.remoteGit('log', '--format=%B', target.branch)).not.toMatch(/Fixes #1|Mallory|else@/);
  });

  it('keeps workflow files and transcripts the agent committed out of the pushed tree', async () => {
    await setUp();
    repo.write('.github/workflows/evil.yml', 'on: push\n');
    repo.write('.transcripts/run/transcript.jsonl', '{"secret":"no"}\n');
    repo.write('app.js', 'ok\n');
    repo.git('add', '-f', '.transcripts');
    agentCommit('sneak');

    const outcome = await publish();
    expect(outcome).toMatchObject({ kind: 'pushed', withheld: ['.github/workflows/evil.yml'] });
    expect(repo.remoteGit('ls-tree', '-r', '--name-only', target.branch).trim().split('\n').sort()).toEqual([
      'README.md',
      'app.js'
    ]);
  });

  it('gives no co-author when the login could forge a trailer, and pushes nothing when the agent undid its work', async () => {
    await setUp();
    repo.write('a.txt', 'a\n');
    await expect(publish({ coAuthor: { login: 'x>\nSigned-off-by: ceo' } })).resolves.toMatchObject({
      kind: 'pushed'
    });
    expect(pushedCommits()[0]).not.toContain('Co-authored-by');

    await setUp();
    repo.write('b.txt', 'b\n');
    agentCommit('add b');
    repo.git('rm', '-q', 'b.txt');
    agentCommit('remove b');
    expect(await publish()).toEqual({ kind: 'none' });
  });
});

describe('a git fault after the agent’s turns (the disk fills up)', () => {
  /** git with a file-size limit: any file it writes past 64 KiB fails, as on a full disk. */
  function gitWithFullDisk(): TrustedGit {
    const wrapper = path.join(createTempDir('full-disk-'), 'git');
    writeFileSync(wrapper, '#!/bin/bash\nulimit -f 64\nexec /usr/bin/git "$@"\n', { mode: 0o755 });
    return { path: wrapper, assertUnchanged: () => undefined };
  }

  it('still pushes what the agent had committed, as the bot, and the report says what was left out and why', async () => {
    await setUp(gitWithFullDisk());
    repo.write('src/fix.js', 'export const fixed = true;\n');
    agentCommit('the fix');
    // Uncommitted, and too big to be written: `git add` fails.
    repo.write('data/big.bin', randomBytes(512 * 1024).toString('base64'));

    const outcome = await publish();
    expect(outcome).toMatchObject({
      kind: 'pushed',
      branch: target.branch,
      leftOut: expect.stringMatching(
        /not yet committed .*could not be committed \(git add --all failed: git was killed by SIGXFSZ/
      )
    });
    expect(repo.remoteGit('ls-tree', '-r', '--name-only', target.branch).trim().split('\n').sort()).toEqual([
      'README.md',
      'src/fix.js'
    ]);
    expect(pushedCommits()[0]!.split('|')[0]).toBe(`${BOT.name} <${BOT.email}>`);
    const report = renderReport({
      result: minimalResult(),
      runUrl: 'https://github.com/octo/repo/actions/runs/9',
      changes: outcome,
      artifact: { kind: 'failed', error: 'n/a' },
      transcriptDir: '.transcripts/run'
    });
    expect(report).toMatch(
      /Pushed to `agent\/2-bot`[\s\S]*Not everything was committed: the changes not yet committed/
    );
  });

  it('with nothing committed to fall back on, the outcome is a failure that says why', async () => {
    await setUp(gitWithFullDisk());
    repo.write('data/big.bin', randomBytes(512 * 1024).toString('base64'));
    const outcome = await publish();
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(
        /^the changes could not be committed: git add --all failed: git was killed by SIGXFSZ/
      )
    });
    expect(repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim()).toBe('main');
  });
});

function minimalResult(): RunResult {
  return runResult({
    turns: 1,
    usage: NO_USAGE,
    costUsd: 0,
    durationMs: 1000,
    summary: 'Fixed.',
    contextTokensPerTurn: []
  });
}
