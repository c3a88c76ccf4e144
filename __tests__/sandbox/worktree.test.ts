import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { worktreeCommonDir } from '../../src/sandbox/box-host.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'compact-agent-worktree-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a worktree checkout's git folder", () => {
  it('is shown to the box, so git works in a worktree', () => {
    const common = path.join(root, 'main', '.git');
    mkdirSync(path.join(common, 'worktrees', 'wt'), { recursive: true });
    const workspace = path.join(root, 'wt');
    mkdirSync(workspace);
    writeFileSync(path.join(workspace, '.git'), `gitdir: ${path.join(common, 'worktrees', 'wt')}\n`);
    expect(worktreeCommonDir(workspace, [])).toBe(common);
  });

  it('is never a hidden folder, nor anything a .git file names that is no worktree', () => {
    const workspace = path.join(root, 'wt');
    mkdirSync(workspace);
    mkdirSync(path.join(root, 'secret', 'worktrees', 'x'), { recursive: true });
    writeFileSync(path.join(workspace, '.git'), `gitdir: ${path.join(root, 'secret', 'worktrees', 'x')}\n`);
    expect(worktreeCommonDir(workspace, [path.join(root, 'secret')])).toBeUndefined();
    writeFileSync(path.join(workspace, '.git'), 'gitdir: /home\n');
    expect(worktreeCommonDir(workspace, [])).toBeUndefined();
  });
});
