/**
 * Publishing and submodules: a gitlink or a `.gitmodules` change the base did not have is withheld
 * and named, unless allow_submodule_changes; the rest of the work is published either way.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { publishChanges } from '../../src/action/publish-changes.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { guardedRepoPerTest, publishOptions } from '../support/guarded-repo.js';

const guardedRepo = guardedRepoPerTest();
const target = { kind: 'new-branch', branch: 'agent/1-sub', base: 'main', issueNumber: 1 } as const;
const GITMODULES = '[submodule "lib"]\n\tpath = lib\n\turl = https://example.com/lib.git\n';

async function stageGitlink() {
  const guarded = await guardedRepo();
  const { repo } = guarded;
  // A gitlink as a submodule bump makes it: in the index, and an empty folder (nothing checked out).
  repo.git('update-index', '--add', '--cacheinfo', `160000,${guarded.base},lib`);
  mkdirSync(path.join(repo.root, 'lib'));
  repo.write('.gitmodules', GITMODULES);
  repo.write('README.md', '# changed\n');
  return guarded;
}

it('withholds a new gitlink and .gitmodules by default, names them, and publishes the rest', async () => {
  const { repo, guard, base } = await stageGitlink();
  const outcome = await publishChanges(target, base, guard.git, new MemoryGitHub(), publishOptions(guard));
  expect(outcome).toMatchObject({ kind: 'pushed', withheldSubmodules: ['.gitmodules', 'lib'] });
  const tree = repo.remoteGit('ls-tree', '-r', 'agent/1-sub');
  expect(tree).not.toMatch(/^160000/m);
  expect(tree).not.toContain('.gitmodules');
  expect(repo.remoteGit('show', 'agent/1-sub:README.md')).toBe('# changed\n');
});

it('publishes them with allow_submodule_changes', async () => {
  const { repo, guard, base } = await stageGitlink();
  const outcome = await publishChanges(target, base, guard.git, new MemoryGitHub(), {
    ...publishOptions(guard),
    allowSubmoduleChanges: true
  });
  expect(outcome).toMatchObject({ kind: 'pushed' });
  expect(outcome).not.toHaveProperty('withheldSubmodules');
  expect(repo.remoteGit('ls-tree', 'agent/1-sub', 'lib')).toMatch(new RegExp(`^160000 commit ${base}\tlib`));
  expect(repo.remoteGit('show', 'agent/1-sub:.gitmodules')).toBe(GITMODULES);
});

it('withholds a change of nothing but submodules: nothing is published, and the outcome names them', async () => {
  const guarded = await guardedRepo();
  guarded.repo.git('update-index', '--add', '--cacheinfo', `160000,${guarded.base},lib`);
  mkdirSync(path.join(guarded.repo.root, 'lib'));
  const outcome = await publishChanges(
    target,
    guarded.base,
    guarded.guard.git,
    new MemoryGitHub(),
    publishOptions(guarded.guard)
  );
  expect(outcome).toEqual({ kind: 'none', withheldSubmodules: ['lib'] });
});
