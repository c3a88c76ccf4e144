import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { publishChanges } from '../../src/action/publish-changes.js';
import { basicAuthHeader } from '../../src/git/credentials.js';
import { guardRepository, type RepositoryGuard } from '../../src/git/repository-guard.js';
import { GitError, GitRepository } from '../../src/git/repository.js';
import { startAuthenticatedGitServer, type AuthenticatedGitServer } from '../support/git-http-server.js';
import { publishOptions } from '../support/guarded-repo.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { createRepoWithRemote, type RepoWithRemote } from '../support/temp-repo.js';

/**
 * Which credential the push carries. GitHub starts no workflow for a push or pull request made
 * with the workflow's GITHUB_TOKEN, so a team whose CI must run on the agent's pull requests gives
 * `github_token` an App token: the push must then carry that token, not the checkout's.
 * The remote is real git over HTTP that accepts exactly one token, as GitHub would.
 */
describe('the push credential: github_token or the checkout', () => {
  const token = () => `ghs_${randomBytes(18).toString('hex')}`;
  /** What the workflow's GITHUB_TOKEN is here: the token actions/checkout persisted. */
  let workflowToken: string;
  /** An App installation token, given as `github_token`. */
  let appToken: string;
  let repo: RepoWithRemote;
  let server: AuthenticatedGitServer | undefined;

  beforeEach(() => {
    workflowToken = token();
    appToken = token();
    repo = createRepoWithRemote();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    repo.remove();
  });

  /** origin served over HTTP accepting `accepted` only; the checkout's header holds `persisted` (or none). */
  async function checkout(accepted: string, persisted: string | undefined): Promise<void> {
    server = await startAuthenticatedGitServer(path.dirname(repo.remote), accepted);
    repo.git('remote', 'set-url', 'origin', `${server.url}/${path.basename(repo.remote)}`);
    if (persisted !== undefined)
      repo.git('config', `http.${server.url}/.extraheader`, basicAuthHeader(persisted));
  }

  async function guarded(
    pushToken: string | undefined
  ): Promise<{ git: GitRepository; guard: RepositoryGuard; base: string }> {
    const git = new GitRepository(repo.root);
    await git.excludeFromCommits('.transcripts/');
    const base = await git.head();
    return { git, guard: await guardRepository(git, pushToken), base };
  }

  const publish = (guard: RepositoryGuard, base: string, branch = 'agent/1-identity') =>
    publishChanges(
      { kind: 'new-branch', branch, base: 'main', issueNumber: 1 },
      base,
      guard.git,
      new MemoryGitHub(),
      publishOptions(guard, { readOnlyFolders: [] })
    );

  /** The token in every form a file or listing could hold it. */
  const forms = (secret: string) => [secret, basicAuthHeader(secret).split(' ').at(-1)!];
  const holdsAny = (text: string, secrets: string[]) =>
    secrets.flatMap(forms).filter((form) => text.includes(form));
  /** What the agent's shell would read: git's own listing and the config file. */
  const agentView = () =>
    execFileSync('git', ['config', '--list', '--show-origin'], { cwd: repo.root, encoding: 'utf8' }) +
    readFileSync(path.join(repo.root, '.git', 'config'), 'utf8');
  const receivePacks = () => server!.attempts.filter((attempt) => attempt.service === 'git-receive-pack');

  it('an App token as github_token: the push carries it, not the checkout’s, and no file holds either', async () => {
    await checkout(appToken, workflowToken);
    const { guard, base } = await guarded(appToken);
    expect(guard.pushCredential).toBe('github_token');
    // During the agent's turns: neither token in git's config, whatever it lists.
    expect(holdsAny(agentView(), [appToken, workflowToken])).toEqual([]);

    repo.write('README.md', '# changed by the agent\n');
    const outcome = await publish(guard, base);
    expect(outcome).toMatchObject({ kind: 'pushed', branch: 'agent/1-identity' });
    // Every request carried the App token (the server answers 401 to any other), none the checkout's.
    expect(receivePacks().length).toBeGreaterThan(0);
    expect(server!.attempts.every((attempt) => attempt.authorized)).toBe(true);
    expect(repo.remoteGit('show', 'agent/1-identity:README.md')).toBe('# changed by the agent\n');
    // After the push: nothing written back, nothing in the pushed commit.
    expect(holdsAny(agentView(), [appToken, workflowToken])).toEqual([]);
    expect(holdsAny(repo.remoteGit('log', '-p', '--all'), [appToken, workflowToken])).toEqual([]);
  });

  it('with the checkout persisting no credential (persist-credentials: false), the push carries github_token', async () => {
    await checkout(appToken, undefined);
    const { guard, base } = await guarded(appToken);
    expect(guard.pushCredential).toBe('github_token');
    repo.write('README.md', '# changed\n');
    expect(await publish(guard, base)).toMatchObject({ kind: 'pushed' });
    expect(server!.attempts.every((attempt) => attempt.authorized)).toBe(true);
  });

  it('github_token left to its default (the checkout’s own token): the checkout’s credential, as before', async () => {
    await checkout(workflowToken, workflowToken);
    const { guard, base } = await guarded(workflowToken);
    expect(guard.pushCredential).toBe('checkout');
    repo.write('README.md', '# changed\n');
    expect(await publish(guard, base)).toMatchObject({ kind: 'pushed' });
    expect(receivePacks().length).toBeGreaterThan(0);
    expect(server!.attempts.every((attempt) => attempt.authorized)).toBe(true);
    expect(holdsAny(agentView(), [workflowToken])).toEqual([]);
  });

  it('no github_token at all: the checkout’s credential, as before', async () => {
    await checkout(workflowToken, workflowToken);
    const { guard, base } = await guarded(undefined);
    expect(guard.pushCredential).toBe('checkout');
    repo.write('README.md', '# changed\n');
    expect(await publish(guard, base)).toMatchObject({ kind: 'pushed' });
    expect(server!.attempts.every((attempt) => attempt.authorized)).toBe(true);
  });

  it('the App token pushes the target branch only: never the base branch, never the default branch', async () => {
    await checkout(appToken, workflowToken);
    const { guard, base } = await guarded(appToken);
    const mainBefore = repo.remoteGit('rev-parse', 'main').trim();
    repo.write('README.md', '# changed\n');
    const onBase = await publish(guard, base, 'main');
    expect(onBase).toMatchObject({ kind: 'failed' });
    await expect(guard.git.push('main', 'main')).rejects.toThrow(GitError);
    expect(repo.remoteGit('rev-parse', 'main').trim()).toBe(mainBefore);
    expect(repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim()).toBe('main');
    expect(receivePacks()).toEqual([]);
  });

  it('a push github_token may not make fails with the hint the run passes, and never falls back to the checkout’s', async () => {
    // The remote takes the checkout's token only: as GitHub refuses an App without Contents write.
    await checkout(workflowToken, workflowToken);
    const { guard, base } = await guarded(appToken);
    repo.write('README.md', '# changed\n');
    const outcome = await publishChanges(
      { kind: 'new-branch', branch: 'agent/1-identity', base: 'main', issueNumber: 1 },
      base,
      guard.git,
      new MemoryGitHub(),
      publishOptions(guard, { readOnlyFolders: [], pushFailureHint: 'check the App' })
    );
    expect(outcome).toMatchObject({ kind: 'failed' });
    expect(outcome.kind === 'failed' && outcome.error).toMatch(
      /^git push origin .* failed: .*\(check the App\)$/s
    );
    expect(holdsAny(JSON.stringify(outcome), [appToken, workflowToken])).toEqual([]);
    expect(server!.attempts.some((attempt) => attempt.authorized)).toBe(false);
    expect(repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim()).toBe('main');
  });

  it('a remote that is not HTTP gets no header: the checkout’s entries stay as they were', async () => {
    // origin is the bare repository's path: no HTTP, so no header could carry github_token.
    repo.git('config', 'http.https://github.com/.extraheader', basicAuthHeader(workflowToken));
    const { guard, base } = await guarded(appToken);
    expect(guard.pushCredential).toBe('checkout');
    repo.write('README.md', '# changed\n');
    expect(await publish(guard, base)).toMatchObject({ kind: 'pushed' });
    expect(holdsAny(agentView(), [appToken, workflowToken])).toEqual([]);
  });
});
