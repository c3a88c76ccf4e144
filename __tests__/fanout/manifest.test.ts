import { parseManifest, type FanoutManifest } from '../../src/fanout/manifest.js';
import { judgeScope } from '../../src/fanout/scope-guard.js';
import { resultProblem, type ShardResult } from '../../src/fanout/shard-result.js';

const origin = { repository: 'octo/app', workflow: '.github/workflows/fanout.yml' };

const manifest = (overrides: Partial<FanoutManifest> = {}): FanoutManifest => ({
  version: 1,
  planId: 'abcdef12',
  origin,
  prompt: 'Replace oldApi with newApi.',
  unitSource: { kind: 'command', command: 'git grep -l oldApi' },
  unitsBefore: 3,
  totalCapUsd: 3,
  validationRetries: 1,
  shards: [
    { id: 'shard-01', paths: ['src/a.ts', 'src/b.ts'], budgetUsd: 1 },
    { id: 'shard-02', paths: ['lib'], budgetUsd: 1 }
  ],
  ...overrides
});

const text = (value: unknown) => JSON.stringify(value);

describe('parseManifest', () => {
  it('reads a manifest written for this repository and workflow', () => {
    expect(parseManifest(text(manifest()), 'manifest.json', origin).shards).toHaveLength(2);
  });

  it('refuses a manifest from another repository or workflow, naming both', () => {
    expect(() =>
      parseManifest(
        text(manifest({ origin: { ...origin, repository: 'evil/fork' } })),
        'the artifact',
        origin
      )
    ).toThrow(
      /the artifact was written for evil\/fork \(\.github\/workflows\/fanout\.yml\), not for octo\/app/
    );
    expect(() =>
      parseManifest(text(manifest({ origin: { ...origin, workflow: 'other.yml' } })), 'the artifact', origin)
    ).toThrow(/written for octo\/app \(other\.yml\)/);
  });

  it('refuses shards that overlap, paths that leave the repository, and budgets over the cap', () => {
    const overlapping = manifest({
      shards: [
        { id: 'shard-01', paths: ['lib/x.ts'], budgetUsd: 1 },
        { id: 'shard-02', paths: ['lib'], budgetUsd: 1 }
      ]
    });
    expect(() => parseManifest(text(overlapping), 'm', origin)).toThrow(/lib holds lib\/x\.ts/);
    const escaping = manifest({ shards: [{ id: 'shard-01', paths: ['../etc/passwd'], budgetUsd: 1 }] });
    expect(() => parseManifest(text(escaping), 'm', origin)).toThrow(/not a path inside the repository/);
    expect(() => parseManifest(text(manifest({ totalCapUsd: 1.5 })), 'm', origin)).toThrow(
      /add up to \$2\.00, more than the cap of \$1\.50/
    );
  });

  it('refuses what is not JSON or not a manifest', () => {
    expect(() => parseManifest('{', 'm', origin)).toThrow(/m is not JSON/);
    expect(() => parseManifest(text({ version: 2 }), 'm', origin)).toThrow(/not a fan-out manifest/);
  });
});

describe('the scope guard and shard results', () => {
  it('splits changed paths into in-scope (a unit file or under a unit folder) and refused', () => {
    expect(
      judgeScope(['src/a.ts', 'lib/deep/x.ts', 'lib-other/y.ts', 'README.md'], ['src/a.ts', 'lib'])
    ).toEqual({
      inScope: ['src/a.ts', 'lib/deep/x.ts'],
      outOfScope: ['lib-other/y.ts', 'README.md']
    });
  });

  const result = (overrides: Partial<ShardResult> = {}): ShardResult => ({
    shardId: 'shard-01',
    planId: 'abcdef12',
    status: 'done',
    base: 'a'.repeat(40),
    costUsd: 0.4,
    budgetUsd: 1,
    stopReason: 'success',
    files: ['src/a.ts'],
    refusedPaths: [],
    runs: [],
    patch: '',
    ...overrides
  });
  const shard = manifest().shards[0]!;

  it('trusts a result that fits its shard', () => {
    expect(resultProblem(result(), shard, 'abcdef12', 1)).toBeUndefined();
  });

  it('refuses a result for another shard, with files outside the scope, or a forged budget or cost', () => {
    expect(resultProblem(result({ shardId: 'shard-02' }), shard, 'abcdef12', 1)).toMatch(/not shard-01/);
    expect(resultProblem(result({ files: ['src/a.ts', 'package.json'] }), shard, 'abcdef12', 1)).toMatch(
      /outside the shard's scope: package\.json/
    );
    expect(resultProblem(result({ budgetUsd: 5 }), shard, 'abcdef12', 1)).toMatch(
      /more than the \$1 it can have been given/
    );
    expect(resultProblem(result({ costUsd: 1.5 }), shard, 'abcdef12', 1)).toMatch(
      /over its budget.*yet says done/
    );
    expect(
      resultProblem(result({ costUsd: 1.5, status: 'over-budget' }), shard, 'abcdef12', 1)
    ).toBeUndefined();
  });
});
