import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { publishChanges } from '../../src/action/publish-changes.js';
import { changedFiles } from '../../src/git/changed-files.js';
import { isSafeConfigKey, parseConfigList, renderConfig } from '../../src/git/config-snapshot.js';
import type { RepositoryGuard } from '../../src/git/repository-guard.js';
import { GitRepository } from '../../src/git/repository.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { guardedRepoPerTest, publishOptions } from '../support/guarded-repo.js';
import { createBareRepository, createTempDir, type RepoWithRemote } from '../support/temp-repo.js';

/**
 * The agent runs as the action's user and can edit anything in .git. Each attack here sets git up
 * to run a program (which would touch `marker`) inside the action's own git commands, and the
 * action must commit and push without it ever running, or refuse and say why.
 */
let repo: RepoWithRemote;
let guard: RepositoryGuard;
let base: string;
let marker: string;
let program: string;

const guardedRepo = guardedRepoPerTest();
beforeEach(async () => {
  ({ repo, guard, base } = await guardedRepo());
  const loot = createTempDir('agent-program-');
  marker = path.join(loot, 'ran.txt');
  // A program that records that it ran (and the environment it got), then passes data through.
  program = path.join(loot, 'evil.sh');
  writeFileSync(program, `#!/bin/sh\n{ echo "ran: $*"; env; } >> '${marker}'\ncat\n`);
  chmodSync(program, 0o755);
});
const target = { kind: 'new-branch', branch: 'agent/1-cfg', base: 'main', issueNumber: 1 } as const;
const publish = () => publishChanges(target, base, guard.git, new MemoryGitHub(), publishOptions(guard));
const pushedBranches = () =>
  repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim().split('\n');

/** Settings that each make git run `program` in add, status, commit, diff or push. */
function programSettings(): Array<[string, string]> {
  const hooks = path.dirname(program);
  for (const hook of ['pre-commit', 'post-commit', 'pre-push', 'reference-transaction', 'post-checkout'])
    writeFileSync(path.join(hooks, hook), `#!/bin/sh\necho ${hook} >> '${marker}'\n`, { mode: 0o755 });
  return [
    ['filter.evil.clean', program],
    ['filter.evil.smudge', program],
    ['filter.evil.required', 'true'],
    ['core.fsmonitor', program],
    ['core.hooksPath', hooks],
    ['core.sshCommand', program],
    ['core.askPass', program],
    ['core.pager', program],
    ['credential.helper', `!${program}`],
    ['diff.external', program],
    ['diff.evil.textconv', program],
    ['gpg.program', program],
    ['commit.gpgSign', 'true'],
    ['remote.origin.receivepack', `${program} receive`],
    ['remote.origin.uploadpack', `${program} upload`]
  ];
}

describe("the repository's own config, rewritten by the agent", () => {
  it('runs none of its programs during the session or the commit and push, and the work is pushed', async () => {
    for (const [key, value] of programSettings()) repo.git('config', key, value);
    repo.write('.gitattributes', '* filter=evil diff=evil\n');
    repo.write('README.md', '# changed\n');
    // The settings work when git runs the ordinary way.
    repo.git('add', 'README.md');
    expect(readFileSync(marker, 'utf8')).toContain('ran:');
    writeFileSync(marker, '');
    // Same size, new content: git status must read it, through the clean filter if there is one.
    await new Promise((resolve) => setTimeout(resolve, 20));
    repo.write('README.md', '# CHANGED\n');

    expect(await changedFiles(repo.root)).toEqual(
      expect.arrayContaining(['MM README.md', '?? .gitattributes'])
    );
    const outcome = await publish();
    expect(outcome).toMatchObject({ kind: 'pushed', branch: 'agent/1-cfg' });
    expect(readFileSync(marker, 'utf8')).toBe('');
    expect(repo.remoteGit('show', 'agent/1-cfg:README.md')).toBe('# CHANGED\n');
  });

  it('an include (plain or conditional) of a file the agent wrote runs nothing either', async () => {
    const included = path.join(createTempDir(), 'included.config');
    writeFileSync(included, `[filter "inc"]\n\tclean = ${program}\n[core]\n\tfsmonitor = ${program}\n`);
    repo.git('config', 'include.path', included);
    repo.git('config', `includeIf.gitdir:${path.join(repo.root, '.git')}.path`, included);
    repo.write('.gitattributes', '* filter=inc\n');
    repo.write('README.md', '# changed\n');
    repo.git('add', 'README.md');
    expect(existsSync(marker)).toBe(true);
    writeFileSync(marker, '');

    expect(await changedFiles(repo.root)).toContain('M  README.md');
    expect(await publish()).toMatchObject({ kind: 'pushed' });
    expect(readFileSync(marker, 'utf8')).toBe('');
  });

  it("a filter whose name holds '=' (which a -c override would split) runs nothing either", async () => {
    repo.git('config', 'filter.a=b.clean', program);
    repo.write('.gitattributes', '* filter=a=b\n');
    repo.write('README.md', '# changed\n');
    repo.git('add', 'README.md');
    expect(existsSync(marker)).toBe(true);
    writeFileSync(marker, '');
    await new Promise((resolve) => setTimeout(resolve, 20));
    repo.write('README.md', '# CHANGED\n');

    expect(await changedFiles(repo.root)).toContain('MM README.md');
    expect(await publish()).toMatchObject({ kind: 'pushed' });
    expect(readFileSync(marker, 'utf8')).toBe('');
  });

  it('a remote url changed by the agent does not redirect the push', async () => {
    const other = createBareRepository('agent-remote-');
    repo.git('remote', 'set-url', 'origin', other);
    repo.git('config', `url.${other}.insteadOf`, repo.remote);
    repo.write('README.md', '# changed\n');
    expect(await publish()).toMatchObject({ kind: 'pushed' });
    expect(pushedBranches()).toContain('agent/1-cfg');
    expect(execFileSync('git', ['branch', '--list'], { cwd: other, encoding: 'utf8' })).toBe('');
  });
});

// These go around .git/config: git reads another folder's config and objects.
describe('a .git redirected elsewhere during the run', () => {
  function evilCopy(): string {
    const copy = path.join(createTempDir('agent-git-'), 'common');
    cpSync(path.join(repo.root, '.git'), copy, { recursive: true });
    for (const [key, value] of programSettings())
      execFileSync('git', ['config', '--file', path.join(copy, 'config'), key, value]);
    return copy;
  }

  it('a .git/commondir is refused: nothing runs, nothing is pushed, and the report says why', async () => {
    writeFileSync(path.join(repo.root, '.git', 'commondir'), `${evilCopy()}\n`);
    repo.write('.gitattributes', '* filter=evil\n');
    repo.write('README.md', '# changed\n');
    const outcome = await publish();
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/tampered with .*\.git\/commondir was created/)
    });
    expect(existsSync(marker)).toBe(false);
    expect(pushedBranches()).toEqual(['main']);
  });

  it('a .git/config replaced by a folder stops the commit with a reason instead of crashing', async () => {
    const config = path.join(repo.root, '.git', 'config');
    renameSync(config, path.join(createTempDir(), 'config'));
    mkdirSync(config);
    writeFileSync(path.join(config, 'x'), 'x');
    repo.write('README.md', '# changed\n');
    expect(await publish()).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/tampered with .*\.git\/config could not be rewritten/)
    });
    expect(pushedBranches()).toEqual(['main']);
  });

  it('objects/info/alternates added by the agent is refused', async () => {
    const copy = evilCopy();
    writeFileSync(path.join(repo.root, '.git', 'objects', 'info', 'alternates'), `${copy}/objects\n`);
    repo.write('README.md', '# changed\n');
    expect(await publish()).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('.git/objects/info/alternates was created')
    });
    expect(pushedBranches()).toEqual(['main']);
  });

  it('a FIFO in place of objects/info/alternates is refused without blocking the check', async () => {
    execFileSync('mkfifo', [path.join(repo.root, '.git', 'objects', 'info', 'alternates')]);
    repo.write('README.md', '# changed\n');
    expect(await publish()).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('.git/objects/info/alternates was created')
    });
  });

  it('.git swapped for a gitfile pointing at another repository is refused', async () => {
    const copy = evilCopy();
    renameSync(path.join(repo.root, '.git'), path.join(createTempDir(), 'moved'));
    writeFileSync(path.join(repo.root, '.git'), `gitdir: ${copy}\n`);
    repo.write('.gitattributes', '* filter=evil\n');
    repo.write('README.md', '# changed\n');
    expect(await publish()).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/tampered with .*was a directory and is now a file/)
    });
    expect(existsSync(marker)).toBe(false);
    expect(pushedBranches()).toEqual(['main']);
  });
});

describe('a FIFO where git reads a file', () => {
  // `git add --all` is what publishing runs after the agent's turns, and staging a new file always
  // looks up its attributes. (`git status` opens .gitattributes only when an entry is racily clean,
  // so a test built on it passed or failed with the runner's load.)
  it('stops the command at its deadline instead of blocking the job', async () => {
    execFileSync('mkfifo', [path.join(repo.root, '.gitattributes')]);
    repo.write('new-file.txt', 'staging this needs its attributes\n');
    const bounded = new GitRepository(repo.root, { timeoutMs: 1500 });
    await expect(bounded.run(['add', '--all'])).rejects.toThrow(
      /git add --all failed: git did not finish within 2 s and was stopped/
    );
  }, 20_000);
});

describe('the config snapshot', () => {
  it('keeps what describes the repository and its remotes, and drops every key that runs or redirects', () => {
    for (const key of [
      'core.repositoryformatversion',
      'core.bare',
      'extensions.objectformat',
      'remote.origin.url',
      'remote.origin.fetch',
      'branch.main.merge',
      'gc.auto'
    ])
      expect([key, isSafeConfigKey(key)]).toEqual([key, true]);
    for (const key of [
      'include.path',
      'includeif.gitdir:/x.path',
      'filter.lfs.clean',
      'core.fsmonitor',
      'core.hookspath',
      'core.sshcommand',
      'core.worktree',
      'credential.helper',
      'credential.https://github.com.helper',
      'http.https://github.com/.extraheader',
      'http.proxy',
      'url.https://evil/.insteadof',
      'remote.origin.receivepack',
      'remote.origin.proxy',
      'diff.external',
      'diff.x.textconv',
      'gpg.program',
      'trailer.x.command',
      'alias.st'
    ])
      expect([key, isSafeConfigKey(key)]).toEqual([key, false]);
  });

  it('renders values git reads back unchanged (quotes, backslashes, dotted subsections)', () => {
    const entries = [
      { key: 'core.bare', value: 'false' },
      { key: 'remote.my.remote.url', value: 'https://example.com/a "b" \\c\td' },
      { key: 'remote.my.remote.fetch', value: '+refs/heads/*:refs/remotes/my.remote/*' },
      { key: 'remote.my.remote.fetch', value: '+refs/tags/*:refs/tags/*' },
      { key: 'extensions.worktreeconfig', value: undefined },
      { key: 'branch.main.remote', value: 'two  spaces inside' },
      { key: 'branch.main.merge', value: ' spaced\rends ' }
    ];
    const file = path.join(createTempDir(), 'config');
    writeFileSync(file, renderConfig(entries));
    const listing = execFileSync('git', ['config', '--file', file, '--list', '-z'], { encoding: 'utf8' });
    expect(parseConfigList(listing)).toEqual(entries);
  });
});
