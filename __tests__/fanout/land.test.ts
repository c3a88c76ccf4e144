import { GitRepository } from '../../src/git/repository.js';
import { landShards } from '../../src/fanout/land.js';
import type { ManifestShard } from '../../src/fanout/manifest.js';
import type { ShardResult } from '../../src/fanout/shard-result.js';
import { guardedChanges } from '../../src/fanout/worktree-changes.js';
import { openShardRepository } from '../../src/fanout/shard-repository.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

let repo: TempRepo;
let git: GitRepository;
let base: string;
const identity = { name: 'fanout test', email: 'fanout@example.com' };
const shards: ManifestShard[] = [
  { id: 'shard-01', paths: ['a.txt'], budgetUsd: 1 },
  { id: 'shard-02', paths: ['b'], budgetUsd: 1 },
  { id: 'shard-03', paths: ['c.txt'], budgetUsd: 1 }
];

beforeEach(async () => {
  repo = createTempRepo();
  repo.write('a.txt', 'old a\n');
  repo.write('b/one.txt', 'old b1\n');
  repo.write('c.txt', 'old c\n');
  repo.write('README.md', 'readme\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'seed');
  git = new GitRepository(repo.root);
  base = await git.head();
});
afterEach(() => repo.remove());

/** A shard's guarded change made in its own worktree by `edit`. */
async function shardChange(shard: ManifestShard, edit: (dir: string) => void) {
  const worktree = await openShardRepository(git, base, shard.id);
  try {
    edit(worktree.root);
    return await guardedChanges(worktree.git, base, shard.paths);
  } finally {
    await worktree.close();
  }
}

const result = (shardId: string, patch: string, files: readonly string[]): ShardResult => ({
  shardId,
  planId: 'abcdef12',
  status: 'done',
  base,
  costUsd: 0.1,
  budgetUsd: 1,
  stopReason: 'success',
  files: [...files],
  refusedPaths: [],
  runs: [],
  patch
});

describe('shard repositories', () => {
  it('opens and closes many repositories of their own at once, as parallel shards do', async () => {
    const roots = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const worktree = await openShardRepository(git, base, `shard-${index}`);
        const text = readFileSync(path.join(worktree.root, 'a.txt'), 'utf8');
        // Its own git folder, not a `gitdir:` file naming the person's.
        const ownGitFolder = lstatSync(path.join(worktree.root, '.git')).isDirectory();
        const head = execFileSync('git', ['rev-parse', 'HEAD'], {
          cwd: worktree.root,
          encoding: 'utf8'
        }).trim();
        await worktree.close();
        return { root: worktree.root, text, ownGitFolder, head };
      })
    );
    expect(new Set(roots.map((entry) => entry.root)).size).toBe(12);
    expect(
      roots.every((entry) => entry.text === 'old a\n' && entry.ownGitFolder && entry.head === base)
    ).toBe(true);
    expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(existsSync(path.join(repo.root, '.git', 'worktrees'))).toBe(false);
  });

  it('says when a command planted a redirecting file in the shard’s .git, and lets our git ignore it', async () => {
    const worktree = await openShardRepository(git, base, 'shard-01');
    try {
      expect(worktree.redirection()).toBeUndefined();
      const elsewhere = mkdtempSync(path.join(tmpdir(), 'compact-agent-elsewhere-'));
      const redirect = `[core]\n\tworktree = ${elsewhere}\n[extensions]\n\tworktreeConfig = true\n`;
      writeFileSync(path.join(worktree.root, '.git', 'config.worktree'), redirect);
      expect(worktree.redirection()).toMatch(/config\.worktree/);
      // Even a config the box could not write (it is shown read-only) would not steer our git: it
      // reads a git folder of its own, and the shard's folder is its work tree.
      appendFileSync(path.join(worktree.root, '.git', 'config'), redirect);
      writeFileSync(path.join(worktree.root, 'a.txt'), 'new a\n');
      const changes = await guardedChanges(worktree.git, base, ['a.txt']);
      expect(changes.files).toEqual(['a.txt']);
      expect(changes.refused).toEqual([]);
      expect(readdirSync(elsewhere)).toEqual([]);
      rmSync(elsewhere, { recursive: true });
    } finally {
      await worktree.close();
    }
  });
});

describe('the scope guard on a worktree', () => {
  it('keeps in-scope edits and puts out-of-scope ones back, counting them', async () => {
    const worktree = await openShardRepository(git, base, 'shard-02');
    try {
      const dir = worktree.root;
      writeFileSync(path.join(dir, 'b/one.txt'), 'new b1\n');
      writeFileSync(path.join(dir, 'b/two.txt'), 'new file in scope\n');
      writeFileSync(path.join(dir, 'README.md'), 'vandalised\n');
      writeFileSync(path.join(dir, 'stray.txt'), 'out of scope\n');
      const changes = await guardedChanges(worktree.git, base, ['b']);
      expect(changes.files).toEqual(['b/one.txt', 'b/two.txt']);
      expect([...changes.refused].sort()).toEqual(['README.md', 'stray.txt']);
      expect(changes.patch).toContain('+new b1');
      expect(changes.patch).not.toContain('vandalised');
      // Put back on disk too, so a validation run sees the shard's change alone.
      expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('readme\n');
      expect(existsSync(path.join(dir, 'stray.txt'))).toBe(false);
    } finally {
      await worktree.close();
    }
  });

  it('takes the patch from the files on disk, not from an index the agent staged', async () => {
    const worktree = await openShardRepository(git, base, 'shard-02');
    try {
      const dir = worktree.root;
      const inWorktree = (...args: string[]) =>
        execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
      // The agent plants other content in the index and hides it from `git add` with skip-worktree,
      // while the files on disk (what the validation ran on) say something else.
      writeFileSync(path.join(dir, 'planted.txt'), 'planted content\n');
      const blob = inWorktree('hash-object', '-w', 'planted.txt');
      inWorktree('update-index', '--cacheinfo', `100644,${blob},b/one.txt`);
      inWorktree('update-index', '--skip-worktree', 'b/one.txt');
      writeFileSync(path.join(dir, 'b/one.txt'), 'validated content\n');
      const changes = await guardedChanges(worktree.git, base, ['b']);
      expect(changes.patch).toContain('+validated content');
      expect(changes.patch).not.toContain('planted content');
      expect(changes.refused).toEqual(['planted.txt']);
    } finally {
      await worktree.close();
    }
  });
});

describe('landShards', () => {
  it('lands each shard on its own deterministic branch, and re-landing moves the same branches', async () => {
    const a = await shardChange(shards[0]!, (dir) => writeFileSync(path.join(dir, 'a.txt'), 'new a\n'));
    const b = await shardChange(shards[1]!, (dir) => writeFileSync(path.join(dir, 'b/one.txt'), 'new b1\n'));
    const results = [result('shard-01', a.patch, a.files), result('shard-02', b.patch, b.files)];
    const options = { repo: git, base, planId: 'abcdef12', identity, shards, results, title: 'Rename' };
    const first = await landShards({ ...options, policy: 'per-shard' });
    expect(first.shards.map((landing) => landing.status)).toEqual(['landed', 'landed']);
    expect(repo.git('show', 'fanout/abcdef12/shard-01:a.txt')).toBe('new a\n');
    expect(repo.git('show', 'fanout/abcdef12/shard-01:b/one.txt')).toBe('old b1\n');
    expect(repo.git('show', 'fanout/abcdef12/shard-02:b/one.txt')).toBe('new b1\n');
    // The working tree and the current branch are untouched.
    expect(readFileSync(path.join(repo.root, 'a.txt'), 'utf8')).toBe('old a\n');
    expect(repo.git('rev-parse', 'HEAD').trim()).toBe(base);

    await landShards({ ...options, policy: 'per-shard' });
    await landShards({ ...options, policy: 'combined' });
    await landShards({ ...options, policy: 'combined' });
    expect(
      repo
        .git('branch', '--list', 'fanout/*')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.trim())
    ).toEqual(['fanout/abcdef12/combined', 'fanout/abcdef12/shard-01', 'fanout/abcdef12/shard-02']);
    expect(repo.git('show', 'fanout/abcdef12/combined:a.txt')).toBe('new a\n');
    expect(repo.git('show', 'fanout/abcdef12/combined:b/one.txt')).toBe('new b1\n');
    expect(repo.git('rev-parse', 'fanout/abcdef12/combined^').trim()).toBe(base);
  });

  it('marks a patch that no longer applies on the base a conflict, and lands the rest', async () => {
    const a = await shardChange(shards[0]!, (dir) => writeFileSync(path.join(dir, 'a.txt'), 'new a\n'));
    const c = await shardChange(shards[2]!, (dir) => writeFileSync(path.join(dir, 'c.txt'), 'new c\n'));
    // The base moved on under shard-01: its patch's context is gone.
    repo.write('a.txt', 'someone else changed a\n');
    repo.git('commit', '-qam', 'moved');
    const newBase = await git.head();
    const landing = await landShards({
      repo: git,
      base: newBase,
      planId: 'abcdef12',
      identity,
      shards,
      results: [result('shard-01', a.patch, a.files), result('shard-03', c.patch, c.files)],
      policy: 'combined',
      title: 'Rename'
    });
    expect(landing.shards[0]).toMatchObject({
      status: 'conflict',
      reason: expect.stringMatching(/no longer applies/)
    });
    expect(landing.shards[1]).toMatchObject({ status: 'landed' });
    expect(repo.git('show', 'fanout/abcdef12/combined:a.txt')).toBe('someone else changed a\n');
    expect(repo.git('show', 'fanout/abcdef12/combined:c.txt')).toBe('new c\n');
  });

  it('marks a patch touching a file an earlier shard changed a conflict, and rejects one outside its scope', async () => {
    const a = await shardChange(shards[0]!, (dir) => writeFileSync(path.join(dir, 'a.txt'), 'new a\n'));
    // Two forged results: shard-03 claims a patch that edits a.txt (outside its scope), and a
    // shard whose scope holds a.txt too (a forged manifest would be refused; this checks the landing alone).
    const overlapping: ManifestShard[] = [...shards, { id: 'shard-04', paths: ['a.txt'], budgetUsd: 1 }];
    const landing = await landShards({
      repo: git,
      base,
      planId: 'abcdef12',
      identity,
      shards: overlapping,
      results: [
        result('shard-01', a.patch, a.files),
        result('shard-03', a.patch, ['c.txt']),
        result('shard-04', a.patch, a.files)
      ],
      policy: 'per-shard',
      title: 'Rename'
    });
    expect(landing.shards.map((entry) => entry.status)).toEqual(['landed', 'rejected', 'conflict']);
    expect(landing.shards[1]).toMatchObject({ reason: expect.stringMatching(/outside its scope: a\.txt/) });
    expect(landing.shards[2]).toMatchObject({
      reason: expect.stringMatching(/a\.txt, which shard-01's patch/)
    });
    expect(repo.git('branch', '--list', 'fanout/*').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it("lands per owner group: one branch with each group's shards, and refuses a plan not grouped by owner", async () => {
    const owned: ManifestShard[] = [
      { id: 'shard-01', paths: ['a.txt'], owner: '@web', budgetUsd: 1 },
      { id: 'shard-02', paths: ['b'], owner: '', budgetUsd: 1 },
      { id: 'shard-03', paths: ['c.txt'], owner: '@web', budgetUsd: 1 }
    ];
    const a = await shardChange(owned[0]!, (dir) => writeFileSync(path.join(dir, 'a.txt'), 'new a\n'));
    const b = await shardChange(owned[1]!, (dir) => writeFileSync(path.join(dir, 'b/one.txt'), 'new b1\n'));
    const c = await shardChange(owned[2]!, (dir) => writeFileSync(path.join(dir, 'c.txt'), 'new c\n'));
    const results = [
      result('shard-01', a.patch, a.files),
      result('shard-02', b.patch, b.files),
      result('shard-03', c.patch, c.files)
    ];
    const options = { repo: git, base, planId: 'abcdef12', identity, results, title: 'Rename' };
    const landing = await landShards({ ...options, shards: owned, policy: 'per-owner' });
    expect(landing.shards.map((entry) => (entry.status === 'landed' ? entry.branch : entry.status))).toEqual([
      'fanout/abcdef12/owner-web',
      'fanout/abcdef12/unowned',
      'fanout/abcdef12/owner-web'
    ]);
    expect(repo.git('show', 'fanout/abcdef12/owner-web:a.txt')).toBe('new a\n');
    expect(repo.git('show', 'fanout/abcdef12/owner-web:c.txt')).toBe('new c\n');
    expect(repo.git('show', 'fanout/abcdef12/owner-web:b/one.txt')).toBe('old b1\n');
    expect(repo.git('show', 'fanout/abcdef12/unowned:b/one.txt')).toBe('new b1\n');
    expect(repo.git('show', 'fanout/abcdef12/unowned:a.txt')).toBe('old a\n');
    const first = repo.git('rev-parse', 'fanout/abcdef12/owner-web');
    await landShards({ ...options, shards: owned, policy: 'per-owner' });
    expect(repo.git('branch', '--list', 'fanout/*').split('\n').filter(Boolean)).toHaveLength(2);
    expect(repo.git('rev-parse', 'fanout/abcdef12/owner-web^{tree}')).toBe(
      repo.git('rev-parse', `${first.trim()}^{tree}`)
    );
    await expect(landShards({ ...options, shards, policy: 'per-owner' })).rejects.toThrow(
      /needs a plan grouped by CODEOWNERS owner, and 3 of its shards \(shard-01, shard-02, shard-03\) have no owner/
    );
  });

  // Review E, findings 4 and 7a: a path holding a TAB (anywhere, or at its end) in a forged patch.
  it.each([
    ['a TAB before an in-scope name', 'evil\ta.txt'],
    ['a TAB at the end', 'a.txt\t'],
    ['a newline', 'a.txt\nb/one.txt']
  ])('rejects a patch adding a path with %s, and lands the other shards', async (_, forged) => {
    const scratch = createTempRepo();
    try {
      scratch.write('a.txt', 'old a\n');
      scratch.git('add', '-A');
      scratch.git('commit', '-qm', 'seed');
      scratch.write(forged, 'on: push\n');
      scratch.git('add', '-A');
      const patch = scratch.git('diff', '--cached', '--binary', '--full-index', 'HEAD');
      const b = await shardChange(shards[1]!, (dir) =>
        writeFileSync(path.join(dir, 'b/one.txt'), 'new b1\n')
      );
      const landing = await landShards({
        repo: git,
        base,
        planId: 'abcdef12',
        policy: 'per-shard',
        identity,
        shards,
        results: [result('shard-01', patch, ['a.txt']), result('shard-02', b.patch, b.files)],
        title: 'Rename'
      });
      expect(landing.shards[0]).toMatchObject({ status: 'rejected', shardId: 'shard-01' });
      expect(landing.shards[0]!.status === 'rejected' && landing.shards[0]!.reason).toContain(
        `outside its scope: ${JSON.stringify(forged)}`
      );
      expect(landing.shards[1]).toMatchObject({ status: 'landed', shardId: 'shard-02' });
      expect(repo.git('branch', '--list', 'fanout/abcdef12/shard-01')).toBe('');
      expect(
        repo.git('ls-tree', '-r', '--name-only', '-z', landing.combinedCommit).split('\0')
      ).not.toContain(forged);
    } finally {
      scratch.remove();
    }
  });
});
