import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { publishChanges, type PublishOptions } from '../../src/action/publish-changes.js';
import { BaseBranchError, prepareWorkTarget } from '../../src/action/work-target.js';
import { guardRepository, type RepositoryGuard } from '../../src/git/repository-guard.js';
import { GitRepository } from '../../src/git/repository.js';
import { parseEvent } from '../../src/github/events/event.js';
import { MemoryGitHub } from '../support/memory-github.js';
import { createRepoWithRemote, createTempDir, type RepoWithRemote } from '../support/temp-repo.js';
import { webhookExample } from '../support/webhook-examples.js';

let repo: RepoWithRemote;
let git: GitRepository;
let api: MemoryGitHub;
let guard: RepositoryGuard;
beforeEach(async () => {
  repo = createRepoWithRemote();
  git = new GitRepository(repo.root);
  await git.excludeFromCommits('.transcripts/');
  guard = await guardRepository(git);
  api = new MemoryGitHub();
});
afterEach(() => repo.remove());

const options = (overrides: Partial<PublishOptions> = {}): PublishOptions => ({
  identity: { name: 'compact-agent[bot]', email: 'bot@example.com' },
  defaultBranch: 'main',
  pullRequestType: 'draft',
  commitTitle: 'agent: fix the README',
  runUrl: 'https://github.com/octo/repo/actions/runs/1',
  runDir: createTempDir(),
  describe: () => 'Fixed the README.',
  readOnlyFolders: ['.github/workflows/'],
  excludedPaths: ['.transcripts/'],
  containsSecret: (text) => text.includes('ghs_planted'),
  reclaimRepository: guard.reclaim,
  ...overrides
});
const newBranch = { kind: 'new-branch', branch: 'agent/1-abc123', base: 'main', issueNumber: 1 } as const;

describe("publishing the agent's changes", () => {
  it('commits as the bot on a new branch, pushes it, and opens a draft PR that links the issue', async () => {
    const base = await git.head();
    repo.write('README.md', '# demo, fixed\n');
    repo.write('.transcripts/run/transcript.jsonl', '{}\n');
    const outcome = await publishChanges(newBranch, base, git, api, options());
    expect(outcome).toMatchObject({
      kind: 'pushed',
      branch: 'agent/1-abc123',
      pullRequestUrl: 'https://github.com/octo/repo/pull/7'
    });
    expect(repo.remoteGit('log', '--format=%an <%ae>|%cn <%ce>|%s', 'agent/1-abc123', '-1').trim()).toBe(
      'compact-agent[bot] <bot@example.com>|compact-agent[bot] <bot@example.com>|agent: fix the README'
    );
    expect(repo.remoteGit('show', 'agent/1-abc123:README.md')).toBe('# demo, fixed\n');
    // Transcripts never enter a commit; main is untouched.
    expect(repo.remoteGit('ls-tree', '-r', '--name-only', 'agent/1-abc123')).not.toContain('.transcripts');
    expect(repo.remoteGit('rev-parse', 'main').trim()).toBe(base);
    expect(api.pulls).toEqual([
      expect.objectContaining({
        head: 'agent/1-abc123',
        base: 'main',
        draft: true,
        body: expect.stringContaining('For #1')
      })
    ]);
  });

  it('pushes nothing when the changes hold a secret', async () => {
    const base = await git.head();
    repo.write('loot.txt', 'token=ghs_planted\n');
    const outcome = await publishChanges(newBranch, base, git, api, options());
    expect(outcome).toMatchObject({ kind: 'failed', error: expect.stringContaining('looks like a secret') });
    expect(repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim()).toBe('main');
    expect(api.pulls).toEqual([]);
  });

  it("withholds workflow changes made behind the tools' back, and names them", async () => {
    const base = await git.head();
    repo.write('.github/workflows/evil.yml', 'on: push\n');
    repo.write('README.md', '# changed\n');
    const outcome = await publishChanges(newBranch, base, git, api, options());
    expect(outcome).toMatchObject({ kind: 'pushed', withheld: ['.github/workflows/evil.yml'] });
    expect(repo.remoteGit('ls-tree', '-r', '--name-only', 'agent/1-abc123')).not.toContain('.github');
  });

  it('makes no branch and no PR when nothing changed', async () => {
    const outcome = await publishChanges(newBranch, await git.head(), git, api, options());
    expect(outcome).toEqual({ kind: 'none' });
    expect(repo.remoteGit('branch', '--list', 'agent/*').trim()).toBe('');
    expect(api.pulls).toEqual([]);
  });

  it('keeps the pushed branch and says so when the PR cannot be opened', async () => {
    const base = await git.head();
    repo.write('a.txt', 'a\n');
    api.failing.add('createPullRequest');
    const outcome = await publishChanges(newBranch, base, git, api, options());
    expect(outcome).toMatchObject({
      kind: 'pushed',
      pullRequestUrl: undefined,
      pullRequestError: expect.stringContaining('422')
    });
    expect(repo.remoteGit('rev-parse', '--verify', 'agent/1-abc123').trim()).toMatch(/^[0-9a-f]{40}$/);
  });

  it('pushes only the branch with pr_type branch, and refuses to push the default branch', async () => {
    const base = await git.head();
    repo.write('a.txt', 'a\n');
    expect(
      await publishChanges(newBranch, base, git, api, options({ pullRequestType: 'branch' }))
    ).toMatchObject({
      kind: 'pushed',
      pullRequestUrl: undefined
    });
    expect(api.pulls).toEqual([]);
    await expect(git.push('main', 'main')).rejects.toThrow(/refusing to push the default branch/);
  });

  it('pushes to the PR branch for a same-repository PR comment (fast-forward only)', async () => {
    repo.git('checkout', '-q', '-b', 'changes');
    repo.write('b.txt', 'b\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'pr work');
    repo.git('push', '-q', 'origin', 'changes');
    repo.git('checkout', '-q', 'main');
    const payload = webhookExample('issue_comment', 'created');
    (payload.issue as Record<string, unknown>).pull_request = { url: 'x' };
    api.pullRequest = {
      number: 1,
      title: 't',
      body: '',
      headRef: 'changes',
      headRepoFullName: 'Codertocat/Hello-World',
      baseRef: 'master'
    };
    const target = await prepareWorkTarget(parseEvent('issue_comment', payload), api, git, {
      branchPrefix: 'agent/',
      shortId: 'x',
      defaultBranch: 'main',
      repositoryFullName: 'Codertocat/Hello-World'
    });
    expect(target).toEqual({ kind: 'pull-request-branch', branch: 'changes', pullNumber: 1 });
    expect(existsSync(path.join(repo.root, 'b.txt'))).toBe(true);
    const base = await git.head();
    repo.write('b.txt', 'b, reviewed\n');
    const outcome = await publishChanges(target, base, git, api, options());
    expect(outcome).toMatchObject({ kind: 'pushed', branch: 'changes', pullRequestUrl: undefined });
    expect(repo.remoteGit('show', 'changes:b.txt')).toBe('b, reviewed\n');
    expect(repo.remoteGit('rev-list', '--count', 'changes').trim()).toBe('3');
  });

  it("takes a pull request whose fork was deleted for a fork's, even when its branch is named like ours", async () => {
    // The fork's branch was `main`; GitHub keeps its head as refs/pull/1/head and answers head.repo null.
    repo.write('FORK.md', 'from the fork\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'fork work');
    repo.git('push', '-q', 'origin', 'HEAD:refs/pull/1/head');
    repo.git('reset', '-q', '--hard', 'HEAD~1');
    const mainBefore = repo.remoteGit('rev-parse', 'main').trim();
    const payload = webhookExample('issue_comment', 'created');
    (payload.issue as Record<string, unknown>).pull_request = { url: 'x' };
    api.pullRequest = {
      number: 1,
      title: 't',
      body: '',
      headRef: 'main',
      headRepoFullName: undefined,
      baseRef: 'main'
    };
    const target = await prepareWorkTarget(parseEvent('issue_comment', payload), api, git, {
      branchPrefix: 'agent/',
      shortId: 'x',
      defaultBranch: 'main',
      repositoryFullName: 'Codertocat/Hello-World'
    });
    expect(target).toEqual({ kind: 'fork', pullNumber: 1, headRepo: '(a deleted fork)' });
    expect(existsSync(path.join(repo.root, 'FORK.md'))).toBe(true);
    const base = await git.head();
    repo.write('README.md', '# changed on the deleted fork\n');
    const outcome = await publishChanges(target, base, git, api, options({ runDir: createTempDir() }));
    expect(outcome.kind).toBe('patch');
    expect(repo.remoteGit('rev-parse', 'main').trim()).toBe(mainBefore);
  });

  it('for a fork, pushes nothing and keeps the patch in the outcome (the report and the artifact take it from there)', async () => {
    const runDir = createTempDir();
    const base = await git.head();
    repo.write('README.md', '# demo, from a fork PR\n');
    const outcome = await publishChanges(
      { kind: 'fork', pullNumber: 3, headRepo: 'someone/fork' },
      base,
      git,
      api,
      options({ runDir })
    );
    expect(outcome).toMatchObject({
      kind: 'patch',
      reason: 'the pull request comes from the fork someone/fork'
    });
    expect(outcome.kind === 'patch' && outcome.patch).toContain('+# demo, from a fork PR');
    // Nothing is written into the run folder, which the agent could have broken or replaced.
    expect(existsSync(path.join(runDir, 'changes.patch'))).toBe(false);
    expect(repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim()).toBe('main');
  });

  it("never writes a fork's patch through a symlink the agent left at its name", async () => {
    const runDir = createTempDir();
    // The agent points changes.patch at a runner file: the patch would become later steps' env.
    const runnerEnvFile = path.join(createTempDir(), 'GITHUB_ENV');
    writeFileSync(runnerEnvFile, '');
    symlinkSync(runnerEnvFile, path.join(runDir, 'changes.patch'));
    const base = await git.head();
    repo.write('README.md', 'NODE_OPTIONS=--require /tmp/evil.js\n');
    const outcome = await publishChanges(
      { kind: 'fork', pullNumber: 3, headRepo: 'someone/fork' },
      base,
      git,
      api,
      options({ runDir })
    );
    expect(outcome).toMatchObject({ kind: 'patch' });
    expect(readFileSync(runnerEnvFile, 'utf8')).toBe('');
    expect(outcome.kind === 'patch' && outcome.patch).toContain('+NODE_OPTIONS');
  });
});

describe('base_branch', () => {
  /** `develop` on origin, one commit ahead of main; the checkout stays on main, as actions/checkout leaves it. */
  function developOnOrigin(): string {
    repo.git('checkout', '-q', '-b', 'develop');
    repo.write('DEVELOP.md', 'only on develop\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'develop work');
    repo.git('push', '-q', 'origin', 'develop');
    const tip = repo.git('rev-parse', 'HEAD').trim();
    repo.git('checkout', '-q', 'main');
    repo.git('branch', '-q', '-D', 'develop');
    return tip;
  }
  const issueComment = () => parseEvent('issue_comment', webhookExample('issue_comment', 'created'));
  const targetOptions = (baseBranch: string | undefined) => ({
    branchPrefix: 'agent/',
    shortId: 'abc123',
    defaultBranch: 'main',
    repositoryFullName: 'Codertocat/Hello-World',
    baseBranch
  });

  it("starts the agent's branch from base_branch's tip on origin and opens the PR into it", async () => {
    const developTip = developOnOrigin();
    const target = await prepareWorkTarget(issueComment(), api, git, targetOptions('develop'));
    expect(target).toMatchObject({ kind: 'new-branch', base: 'develop' });
    // The agent works on develop's tree.
    expect(await git.head()).toBe(developTip);
    expect(existsSync(path.join(repo.root, 'DEVELOP.md'))).toBe(true);
    const base = await git.head();
    repo.write('README.md', '# demo, fixed on develop\n');
    const outcome = await publishChanges(target, base, git, api, options());
    expect(outcome).toMatchObject({ kind: 'pushed' });
    const branch = outcome.kind === 'pushed' ? outcome.branch : '';
    expect(repo.remoteGit('rev-parse', `${branch}^`).trim()).toBe(developTip);
    expect(api.pulls).toEqual([expect.objectContaining({ head: branch, base: 'develop' })]);
    expect(repo.remoteGit('rev-parse', 'develop').trim()).toBe(developTip);
  });

  it('without base_branch, works on the checkout as it is and targets the default branch', async () => {
    developOnOrigin();
    const before = await git.head();
    const target = await prepareWorkTarget(issueComment(), api, git, targetOptions(undefined));
    expect(target).toMatchObject({ kind: 'new-branch', base: 'main' });
    expect(await git.head()).toBe(before);
  });

  it('stops before the agent when origin has no such branch, naming the input and the branch', async () => {
    const before = await git.head();
    const attempt = prepareWorkTarget(issueComment(), api, git, targetOptions('release/9'));
    await expect(attempt).rejects.toThrow(BaseBranchError);
    await expect(attempt).rejects.toThrow(
      /base_branch is "release\/9", but origin has no branch of that name/
    );
    await expect(attempt).rejects.toThrow(/nothing was pushed/);
    expect(await git.head()).toBe(before);
    expect(repo.remoteGit('branch', '--list', '--format=%(refname:short)').trim()).toBe('main');
  });

  it('does not take a branch whose name only ends like base_branch', async () => {
    // ls-remote matches by tail: `refs/heads/develop` lists this one, which is not develop.
    repo.git('push', '-q', 'origin', 'main:refs/heads/foo/refs/heads/develop');
    await expect(prepareWorkTarget(issueComment(), api, git, targetOptions('develop'))).rejects.toThrow(
      BaseBranchError
    );
  });

  it('never pushes to the base branch, whatever name the target carries', async () => {
    developOnOrigin();
    const developTip = repo.remoteGit('rev-parse', 'develop').trim();
    const base = await git.head();
    repo.write('README.md', '# changed\n');
    const outcome = await publishChanges(
      { kind: 'continued-branch', branch: 'develop', base: 'develop', issueNumber: 1, pullNumber: undefined },
      base,
      git,
      api,
      options()
    );
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('the base branch itself')
    });
    expect(repo.remoteGit('rev-parse', 'develop').trim()).toBe(developTip);
    expect(api.pulls).toEqual([]);
  });
});
