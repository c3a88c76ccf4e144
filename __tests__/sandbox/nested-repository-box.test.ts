/**
 * The box against a nested repository planted for git to find later: `.git/modules` (where a
 * gitlink's repository lives) is read-only in it, and a `.git` a command made is gone before the
 * next command runs, moved out of the workspace.
 */
import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { watchNestedRepositories } from '../../src/git/nested-repositories.js';
import { startBox } from '../../src/sandbox/box.js';
import type { CommandBox } from '../../src/sandbox/command-box.js';
import { createDefaultTools } from '../../src/tools/index.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';
import { describeWithBox } from './box-support.js';

jest.setTimeout(60_000);

describeWithBox('the box and nested repositories', () => {
  let repo: TempRepo;
  let box: CommandBox;
  let watch: ReturnType<typeof watchNestedRepositories>;

  beforeAll(async () => {
    repo = createTempRepo();
    // There at the start: a submodule's `.git` file and a nested repository's folder.
    repo.write('sub/.git', 'gitdir: ../.git/modules/sub\n');
    execFileSync('git', ['init', '-q', path.join(repo.root, 'kept', 'lib')]);
    watch = watchNestedRepositories(repo.root, createTempDir('nested-quarantine-'));
    const start = await startBox({
      workspace: repo.root,
      env: process.env,
      rules: [],
      nestedRepositories: watch
    });
    if (!start.ok) throw new Error(`the box did not start: ${start.reason}`);
    box = start.box;
  });

  afterAll(async () => {
    await box?.close();
    repo?.remove();
  });

  const bash = async (command: string) => {
    const result = await createDefaultTools({ box }).execute(
      { id: 'toolu_nested', name: 'bash', input: { command, timeout_ms: 30_000 } },
      toolContext(repo.root)
    );
    return typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
  };

  it("cannot write a submodule's repository into .git/modules", async () => {
    const output = await bash('mkdir .git/modules/tool && echo made');
    expect(output).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(path.join(repo.root, '.git', 'modules', 'tool'))).toBe(false);
  });

  it('a .git a command makes is moved out before the next command, and git there still works', async () => {
    expect(await bash('git init -q vendor/tool && ls -d vendor/tool/.git')).toContain('vendor/tool/.git');
    expect(await bash('ls -a vendor/tool; git status --short')).not.toContain('.git\n');
    expect(existsSync(path.join(repo.root, 'vendor', 'tool', '.git'))).toBe(false);
    expect(watch.moved().map((entry) => entry.path)).toEqual(['vendor/tool/.git']);
  });

  it(".git entries there at the start are read-only like the top one's: a gitdir: file, a nested config and hooks", async () => {
    const output = await bash(
      [
        "printf 'gitdir: ../evil\\n' > sub/.git && echo rewrote-file",
        'git config -f kept/lib/.git/config core.fsmonitor "touch /tmp/x" && echo wrote-config',
        'echo x > kept/lib/.git/hooks/post-checkout && echo wrote-hook',
        'mv kept/lib/.git kept/lib/aside && echo moved-folder'
      ].join('; ')
    );
    expect(output).not.toMatch(/rewrote-file|wrote-config|wrote-hook|moved-folder/);
    expect(readFileSync(path.join(repo.root, 'sub', '.git'), 'utf8')).toBe('gitdir: ../.git/modules/sub\n');
    expect(readFileSync(path.join(repo.root, 'kept', 'lib', '.git', 'config'), 'utf8')).not.toContain(
      'fsmonitor'
    );
    expect(existsSync(path.join(repo.root, 'kept', 'lib', '.git', 'hooks', 'post-checkout'))).toBe(false);
  });
});
