/**
 * The box against a command that plants a program for git to run later, outside it: the CLI's user
 * runs `git status` in the repository after the run, or a later step of the job does. The config,
 * the hooks and the git folder itself are out of the command's reach; git's ordinary work is not.
 */
import { jest } from '@jest/globals';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { startBox } from '../../src/sandbox/box.js';
import type { CommandBox } from '../../src/sandbox/command-box.js';
import { createDefaultTools } from '../../src/tools/index.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';
import { describeWithBox } from './box-support.js';

jest.setTimeout(60_000);

describeWithBox("the box and the repository's git folder", () => {
  let repo: TempRepo;
  let box: CommandBox;
  const ran = path.join(os.tmpdir(), `compact-agent-git-planted-${randomBytes(6).toString('hex')}`);

  beforeAll(async () => {
    repo = createTempRepo();
    const start = await startBox({ workspace: repo.root, env: process.env, rules: [] });
    if (!start.ok) throw new Error(`the box did not start: ${start.reason}`);
    box = start.box;
  });

  afterAll(async () => {
    await box?.close();
    rmSync(ran, { force: true });
    repo?.remove();
  });

  const bash = async (command: string) => {
    const result = await createDefaultTools({ box }).execute(
      { id: 'toolu_git', name: 'bash', input: { command, timeout_ms: 30_000 } },
      toolContext(repo.root)
    );
    return typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
  };

  it('cannot plant a program in the config, the hooks, or a git folder put in place of the real one', async () => {
    const config = readFileSync(path.join(repo.root, '.git', 'config'), 'utf8');
    const output = await bash(
      [
        `git config core.fsmonitor 'touch ${ran}; false'`,
        `git config core.hooksPath /tmp`,
        `printf '#!/bin/sh\\ntouch ${ran}\\n' > .git/hooks/post-checkout; chmod +x .git/hooks/post-checkout`,
        `rm -rf .git/hooks`,
        `mv .git .git-aside`,
        `ls -d .git .git-aside`
      ].join('; ')
    );
    expect(output).toMatch(/could not lock config file|Read-only file system|Permission denied/);
    // Nothing changed where git will read it after the run.
    expect(readFileSync(path.join(repo.root, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(path.join(repo.root, '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(existsSync(path.join(repo.root, '.git-aside'))).toBe(false);
    // And git run the ordinary way, outside the box, runs nothing planted.
    execFileSync('git', ['status', '--short'], { cwd: repo.root });
    execFileSync('git', ['checkout', '-q', '-b', 'after-the-run'], { cwd: repo.root });
    expect(existsSync(ran)).toBe(false);
  });

  it('cannot send git to a config of its own through a planted commondir', async () => {
    await bash(
      [
        'cp -r .git evil-git',
        `git config -f evil-git/config core.fsmonitor 'touch ${ran}; false'`,
        'echo "$PWD/evil-git" > .git/commondir'
      ].join(' && ')
    );
    expect(existsSync(path.join(repo.root, '.git', 'commondir'))).toBe(false);
    execFileSync('git', ['status', '--short'], { cwd: repo.root });
    expect(existsSync(ran)).toBe(false);
  });

  it('still lets the commands use git: status, add, commit and a branch', async () => {
    const output = await bash(
      'echo change >> README.md && git add README.md && git -c user.name=a -c user.email=a@example.com commit -qm "in the box" && git switch -q -c boxed && git log --oneline -1'
    );
    expect(output).toContain('in the box');
    expect(
      execFileSync('git', ['log', '--format=%s', '-1', 'boxed'], { cwd: repo.root, encoding: 'utf8' }).trim()
    ).toBe('in the box');
  });
});
