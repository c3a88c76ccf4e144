import { randomBytes } from 'node:crypto';
import { linkSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { publishChanges, type PublishOptions } from '../../src/action/publish-changes.js';
import type { RepositoryGuard } from '../../src/git/repository-guard.js';
import { startAuthenticatedGitServer, type AuthenticatedGitServer } from '../support/git-http-server.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { guardedRepoPerTest, publishOptions } from '../support/guarded-repo.js';
import { createTempDir, type RepoWithRemote } from '../support/temp-repo.js';

// The checkout's push token used to be put back into .git/config after the agent's turns, and
// written through whatever the agent had made of that path: a hard link, or a symlink to its file.
describe('the push credential and the files the agent prepared', () => {
  const token = `ghs_${randomBytes(18).toString('hex')}`;
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  let repo: RepoWithRemote;
  let server: AuthenticatedGitServer;
  let guard: RepositoryGuard;
  let outside: string;
  let base: string;

  const guardedRepo = guardedRepoPerTest();
  beforeEach(async () => {
    ({ repo, guard, base } = await guardedRepo({
      prepare: async (checkout) => {
        server = await startAuthenticatedGitServer(path.dirname(checkout.remote), token);
        checkout.git('remote', 'set-url', 'origin', `${server.url}/${path.basename(checkout.remote)}`);
        // As actions/checkout leaves it.
        checkout.git('config', `http.${server.url}/.extraheader`, `AUTHORIZATION: basic ${basic}`);
      }
    }));
    outside = createTempDir('agent-loot-');
  });
  afterEach(async () => {
    await server.close();
    rmSync(outside, { recursive: true, force: true });
  });

  const options = (): PublishOptions =>
    publishOptions(guard, {
      readOnlyFolders: [],
      containsSecret: (text) => text.includes(token) || text.includes(basic)
    });
  const publish = () =>
    publishChanges(
      { kind: 'new-branch', branch: 'agent/1-cred', base: 'main', issueNumber: 1 },
      base,
      guard.git,
      new MemoryGitHub(),
      options()
    );

  /** Every file under `folder` (links not followed) whose bytes hold the token or its header form. */
  function filesWithToken(folder: string): string[] {
    const found: string[] = [];
    for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const text = readFileSync(file, 'latin1');
      if (text.includes(token) || text.includes(basic)) found.push(file);
    }
    return found;
  }

  function expectTokenNowhere(): void {
    expect(filesWithToken(repo.root)).toEqual([]);
    expect(filesWithToken(outside)).toEqual([]);
    // Every blob of the pushed branch (git grep exits 1 when nothing matches, which is the goal).
    const pushedFiles = repo.remoteGit('ls-tree', '-r', '--name-only', 'agent/1-cred').trim().split('\n');
    expect(pushedFiles).toContain('README.md');
    const leaking = pushedFiles.filter((file) => {
      const text = repo.remoteGit('show', `agent/1-cred:${file}`);
      return text.includes(token) || text.includes(basic);
    });
    expect(leaking).toEqual([]);
  }

  it('the agent finds no token in .git/config during its turns', () => {
    expect(readFileSync(path.join(repo.root, '.git', 'config'), 'utf8')).not.toContain(basic);
    expect(guard.credentialFiles).toEqual([path.join(repo.root, '.git', 'config')]);
  });

  it('a hard link to .git/config made by the agent never receives the token, and the push is authorized', async () => {
    const hardLink = path.join(outside, 'config-link');
    linkSync(path.join(repo.root, '.git', 'config'), hardLink);
    repo.write('README.md', '# changed\n');

    const outcome = await publish();
    expect(outcome).toMatchObject({ kind: 'pushed', branch: 'agent/1-cred' });
    expect(server.attempts.some((a) => a.service === 'git-receive-pack' && a.authorized)).toBe(true);
    expect(readFileSync(hardLink, 'utf8')).not.toContain(basic);
    // The config is a new file now, no longer shared with the agent's link.
    expect(statSync(path.join(repo.root, '.git', 'config')).nlink).toBe(1);
    expectTokenNowhere();
  });

  it('a .git/config replaced by a symlink to a file of the agent never writes the token there', async () => {
    const config = path.join(repo.root, '.git', 'config');
    const agentFile = repo.write('notes/config-copy', readFileSync(config, 'utf8'));
    const elsewhere = path.join(outside, 'config');
    renameSync(config, elsewhere);
    symlinkSync(agentFile, config);
    repo.write('README.md', '# changed\n');

    const outcome = await publish();
    expect(outcome).toMatchObject({ kind: 'pushed' });
    expect(readFileSync(agentFile, 'utf8')).not.toContain(basic);
    expect(readFileSync(elsewhere, 'utf8')).not.toContain(basic);
    expectTokenNowhere();
  });
});
