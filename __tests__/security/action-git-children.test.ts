import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { changedFiles } from '../../src/git/changed-files.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';

// The action runs `git status` during the agent's session (auto-compaction's work ledger), in a
// repository the agent controls. Found by review: it used to inherit the action's whole environment.
describe("the action's own git status, in a repository the agent may have rigged", () => {
  let repo: TempRepo;
  const secretName = 'INPUT_GITHUB_TOKEN';
  const secret = 'ghs_planted0hook0should0never0see0this0token';
  let saved: string | undefined;
  beforeEach(() => {
    repo = createTempRepo();
    repo.write('tracked.txt', 'one\n');
    repo.git('add', '-A');
    repo.git('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-qm', 'seed');
    saved = process.env[secretName];
    process.env[secretName] = secret;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[secretName];
    else process.env[secretName] = saved;
    repo.remove();
  });

  it('runs no planted fsmonitor or hook, gives git no secret, and still lists the changes', async () => {
    const loot = path.join(createTempDir(), 'loot.txt');
    const hook = repo.write('.git/fsmonitor.sh', `#!/bin/sh\nenv > ${loot}\n`);
    chmodSync(hook, 0o755);
    repo.git('config', 'core.fsmonitor', hook);
    // The planted hook works when git runs the ordinary way, with the environment it inherits.
    repo.git('status', '--porcelain');
    expect(readFileSync(loot, 'utf8')).toContain(secret);
    rmSync(loot);

    repo.write('tracked.txt', 'two\n');
    repo.write('new/file.js', 'x\n');
    expect(await changedFiles(repo.root)).toEqual([' M tracked.txt', '?? new/file.js']);
    expect(existsSync(loot)).toBe(false);
  });
});
