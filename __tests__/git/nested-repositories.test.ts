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

it('puts back a start .git file rewritten in place (same inode) to name another repository', () => {
  repo.write('sub/.git', 'gitdir: ../.git/modules/sub\n');
  const watch = watchNestedRepositories(repo.root, quarantine);
  const inode = lstatSync(at('sub/.git')).ino;
  writeFileSync(at('sub/.git'), 'gitdir: ../evil\n');
  expect(lstatSync(at('sub/.git')).ino).toBe(inode);

  const moved = watch.sweep();
  expect(moved.map((entry) => [entry.path, entry.reason])).toEqual([['sub/.git', 'rewritten']]);
  expect(readFileSync(at('sub/.git'), 'utf8')).toBe('gitdir: ../.git/modules/sub\n');
  expect(readFileSync(moved[0]!.movedTo!, 'utf8')).toBe('gitdir: ../evil\n');
  expect(watch.sweep()).toEqual([]);
  expect(watch.atStart()).toEqual(['sub/.git']);
});

describe('as the non-root user the job runs as (root lists any folder)', () => {
  const nobody = 65534;
  const onlyAsRoot = process.getuid?.() === 0 ? it : it.skip;

  onlyAsRoot('a repository planted under a folder made unlistable (chmod 111) is found and moved out', () => {
    const shared = createTempDir('nested-nobody-');
    const workspace = path.join(shared, 'ws');
    const marker = path.join(shared, 'PWNED');
    mkdirSync(workspace);
    const git = (args: string[], cwd = workspace) =>
      execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], {
        cwd,
        uid: nobody,
        gid: nobody,
        env: { PATH: process.env.PATH, HOME: shared },
        stdio: 'pipe'
      }).toString();
    execFileSync('chmod', ['755', shared]);
    execFileSync('chown', ['-R', `${nobody}:${nobody}`, shared]);
    git(['init', '-q']);
    git(['commit', '-q', '--allow-empty', '-m', 'base']);
    const attack = [
      'set -e',
      'mkdir -p vendor/tool && cd vendor/tool && git init -q',
      'git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x',
      `git config core.fsmonitor 'touch ${marker}; false' && cd ../..`,
      `printf '[submodule "tool"]\\n\\tpath = vendor/tool\\n\\turl = https://example.invalid/x\\n' > .gitmodules`,
      'git add .gitmodules',
      'git update-index --add --cacheinfo 160000,$(git -C vendor/tool rev-parse HEAD),vendor/tool',
      'chmod 111 vendor'
    ].join('\n');
    const quarantineOfNobody = path.join(shared, 'q');
    mkdirSync(quarantineOfNobody);
    execFileSync('chown', [`${nobody}:${nobody}`, quarantineOfNobody]);

    const output = execFileSync(
      path.resolve('node_modules/.bin/tsx'),
      [path.resolve('__tests__/support/sweep-as-user.ts'), workspace, quarantineOfNobody, attack],
      { uid: nobody, gid: nobody, env: { PATH: process.env.PATH, HOME: shared }, stdio: 'pipe' }
    ).toString();
    const moved = JSON.parse(output) as { path: string; reason?: string }[];
    expect(moved.map((entry) => entry.path)).toEqual(['vendor/tool/.git']);

    // The later steps of the job: the planted core.fsmonitor must not run.
    git(['status', '--short']);
    git([
      'submodule',
      'foreach',
      '--recursive',
      `sh -c "git config --local --name-only --get-regexp 'http\\.https\\:\\/\\/github\\.com\\/\\.extraheader' || :"`
    ]);
    expect(existsSync(marker)).toBe(false);
  });
});
