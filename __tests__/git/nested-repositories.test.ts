/**
 * The watch over nested repositories: each way a command can leave git a repository to find below
 * the workspace is moved out, what the workspace began with stays, and a sweep after the first
 * still finds what appears deep in a folder it did not read again.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync
} from 'node:fs';
import path from 'node:path';
import { watchNestedRepositories } from '../../src/git/nested-repositories.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

let repo: TempRepo;
let quarantine: string;
beforeEach(() => {
  repo = createTempRepo();
  quarantine = createTempDir('nested-quarantine-');
});
afterEach(() => repo.remove());

const at = (relative: string) => path.join(repo.root, relative);
const gitInit = (relative: string) => {
  mkdirSync(at(relative), { recursive: true });
  execFileSync('git', ['init', '-q', at(relative)]);
};

it('moves out a nested .git folder at any depth, a gitdir: file, and a link named .git; keeps them', () => {
  const watch = watchNestedRepositories(repo.root, quarantine);
  gitInit('vendor/tool');
  gitInit('a/b/c/d/e/deep');
  repo.write('wt/.git', `gitdir: ${createTempDir('elsewhere-')}\n`);
  mkdirSync(at('linked'));
  symlinkSync(createTempDir('link-target-'), at('linked/.git'));

  const moved = watch.sweep();
  expect(moved.map((entry) => [entry.path, entry.kind]).sort()).toEqual([
    ['a/b/c/d/e/deep/.git', 'folder'],
    ['linked/.git', 'link'],
    ['vendor/tool/.git', 'folder'],
    ['wt/.git', 'file']
  ]);
  for (const entry of moved) {
    expect(existsSync(at(entry.path))).toBe(false);
    // Kept, not lost: in the quarantine, and a link moved as the link itself (never followed).
    expect(entry.movedTo!.startsWith(quarantine)).toBe(true);
    expect(lstatSync(entry.movedTo!).isSymbolicLink()).toBe(entry.kind === 'link');
  }
  expect(readFileSync(moved.find((entry) => entry.kind === 'file')!.movedTo!, 'utf8')).toMatch(/^gitdir: /);
  expect(watch.sweep()).toEqual([]);
  expect(watch.moved()).toHaveLength(4);
});

it("leaves what the workspace began with, and the repository's own .git, but not a nested one put in its place", () => {
  gitInit('vendored/lib');
  const watch = watchNestedRepositories(repo.root, quarantine);
  repo.write('README.md', 'changed\n');
  expect(watch.sweep()).toEqual([]);
  expect(existsSync(at('.git/HEAD'))).toBe(true);
  expect(existsSync(at('vendored/lib/.git'))).toBe(true);

  renameSync(at('vendored/lib/.git'), path.join(createTempDir(), 'aside'));
  gitInit('vendored/lib');
  expect(watch.sweep().map((entry) => entry.path)).toEqual(['vendored/lib/.git']);
});

it('finds a .git made deep in a tree a sweep has already read (no folder is trusted by its name)', () => {
  mkdirSync(at('node_modules/pkg/lib'), { recursive: true });
  const watch = watchNestedRepositories(repo.root, quarantine);
  expect(watch.sweep()).toEqual([]);
  gitInit('node_modules/pkg/lib/sub');
  expect(watch.sweep().map((entry) => entry.path)).toEqual(['node_modules/pkg/lib/sub/.git']);
});

it("moves out a new entry of the repository's .git/modules (a gitlink's `.git` file would name it)", () => {
  const watch = watchNestedRepositories(repo.root, quarantine);
  mkdirSync(at('.git/modules/tool'), { recursive: true });
  writeFileSync(at('.git/modules/tool/config'), '[core]\n\tfsmonitor = touch /tmp/x\n');
  expect(watch.sweep().map((entry) => entry.path)).toEqual(['.git/modules/tool']);
  expect(existsSync(at('.git/modules/tool'))).toBe(false);
});
