import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync
} from 'node:fs';
import path from 'node:path';
import { publishChanges } from '../../src/action/publish-changes.js';
import { changedFiles } from '../../src/git/changed-files.js';
import { candidateProblem, pinnedGit, pinTrustedGit, resolveTrustedGit } from '../../src/git/git-binary.js';
import { GitRepository } from '../../src/git/repository.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { guardedRepoPerTest, publishOptions } from '../support/guarded-repo.js';
import { createRepoWithRemote, createTempDir } from '../support/temp-repo.js';

const SYSTEM_GIT = realpathSync('/usr/bin/git');

/** An executable `git` that records that it ran (and what it saw), then behaves like git. */
function plantGit(folder: string, marker: string): string {
  mkdirSync(folder, { recursive: true });
  const planted = path.join(folder, 'git');
  const script = `#!/bin/sh\n{ echo "ran: $*"; env; } >> '${marker}'\nexec ${SYSTEM_GIT} "$@"\n`;
  appendFileSync(planted, script);
  chmodSync(planted, 0o755);
  return planted;
}

describe('a git planted on PATH during the run (the action resolved its git at start)', () => {
  const guardedRepo = guardedRepoPerTest();
  let savedPath: string | undefined;
  beforeEach(() => {
    savedPath = process.env.PATH;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it('never runs: not for git status during the session, nor for the commit and the push after it', async () => {
    // The resolution point: what the action does first, before the agent has a turn.
    const { repo, guard, base } = await guardedRepo({ binary: pinnedGit() });

    // The agent's turn: a `git` in a folder put first on PATH (as a writable ~/.local/bin would be).
    const marker = path.join(createTempDir(), 'planted-git-ran.txt');
    const planted = plantGit(path.join(createTempDir(), 'bin'), marker);
    process.env.PATH = `${path.dirname(planted)}:${process.env.PATH}`;
    // The planted git works for anyone who looks git up on PATH now.
    execFileSync('git', ['--version'], { env: process.env });
    expect(readFileSync(marker, 'utf8')).toContain('ran: --version');
    rmSync(marker);
    repo.write('README.md', '# changed by the agent\n');

    // The work ledger's git status, made with a fresh GitRepository as the session does.
    expect(await changedFiles(repo.root)).toEqual([' M README.md']);
    const outcome = await publishChanges(
      { kind: 'new-branch', branch: 'agent/1-path', base: 'main', issueNumber: 1 },
      base,
      new GitRepository(repo.root).withPushConfig([]),
      new MemoryGitHub(),
      publishOptions(guard, { readOnlyFolders: [] })
    );
    expect(outcome).toMatchObject({ kind: 'pushed', branch: 'agent/1-path' });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('resolveTrustedGit', () => {
  it('skips a git inside the workspace, in a folder others may write, or writable by others', () => {
    const workspace = createTempDir('workspace-');
    const inWorkspace = path.join(workspace, 'bin');
    plantGit(inWorkspace, path.join(workspace, 'marker'));
    const openFolder = path.join(createTempDir(), 'open');
    plantGit(openFolder, '/dev/null');
    chmodSync(openFolder, 0o777);
    const looseFolder = path.join(createTempDir(), 'loose');
    chmodSync(plantGit(looseFolder, '/dev/null'), 0o777);

    const found = resolveTrustedGit([inWorkspace, openFolder, looseFolder, 'relative/bin'].join(':'), [
      workspace
    ]);
    expect(found.path).toBe(SYSTEM_GIT);
  });

  it('refuses to run a pinned git that was rewritten in place after the start', async () => {
    const folder = createTempDir('private-bin-');
    chmodSync(folder, 0o755);
    const copy = path.join(folder, 'git');
    copyFileSync(SYSTEM_GIT, copy);
    chmodSync(copy, 0o755);
    expect(candidateProblem(copy, [])).toBeUndefined();
    const pinned = pinTrustedGit(copy);
    expect(pinned.path).toBe(realpathSync(copy));
    const repo = createRepoWithRemote();
    const git = new GitRepository(repo.root, { binary: pinned });
    expect(await git.head()).toMatch(/^[0-9a-f]{40}$/);

    appendFileSync(copy, Buffer.from([0])); // the agent, as the same user, edits the file
    await expect(git.head()).rejects.toThrow(/changed during the run \(it was modified\)/);
    repo.remove();
  });
});
