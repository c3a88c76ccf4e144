import { groupIntoShards } from '../../src/fanout/shards.js';
import { FanoutInputError } from '../../src/fanout/fanout-error.js';

describe('groupIntoShards', () => {
  const units = ['a/1.ts', 'a/2.ts', 'a/3.ts', 'b/1.ts', 'b/2.ts', 'c/1.ts'];

  it('groups by count in the units order, with ids shard-01, shard-02, ...', () => {
    expect(groupIntoShards(units, { by: 'count', size: 4 })).toEqual([
      { id: 'shard-01', paths: ['a/1.ts', 'a/2.ts', 'a/3.ts', 'b/1.ts'] },
      { id: 'shard-02', paths: ['b/2.ts', 'c/1.ts'] }
    ]);
  });

  it('groups by folder, splitting a folder larger than the size', () => {
    expect(groupIntoShards(units, { by: 'folder', size: 2 }).map((shard) => shard.paths)).toEqual([
      ['a/1.ts', 'a/2.ts'],
      ['a/3.ts'],
      ['b/1.ts', 'b/2.ts'],
      ['c/1.ts']
    ]);
  });

  it('groups by size: as many shards as count would make, with about even bytes, none empty', () => {
    const bytes = new Map([
      ['a', 100],
      ['b', 1],
      ['c', 1],
      ['d', 1],
      ['e', 1],
      ['f', 100]
    ]);
    expect(
      groupIntoShards([...bytes.keys()], { by: 'size', size: 2, bytes }).map((shard) => shard.paths)
    ).toEqual([['a'], ['b', 'c', 'd', 'e'], ['f']]);
    const even = new Map(Array.from({ length: 9 }, (_, index) => [`u${index}`, 10] as const));
    expect(
      groupIntoShards([...even.keys()], { by: 'size', size: 3, bytes: even }).map(
        (shard) => shard.paths.length
      )
    ).toEqual([3, 3, 3]);
  });

  it('merges shards that would touch the same file: a folder unit and a file inside it', () => {
    // `pkg` (a package folder) and `pkg/x.ts` land in different count groups; `pkg-b` sorts between them.
    const shards = groupIntoShards(['pkg', 'pkg-b/y.ts', 'pkg/x.ts', 'z.ts'], { by: 'count', size: 1 });
    expect(shards).toEqual([
      { id: 'shard-01', paths: ['pkg', 'pkg/x.ts'] },
      { id: 'shard-02', paths: ['pkg-b/y.ts'] },
      { id: 'shard-03', paths: ['z.ts'] }
    ]);
  });

  it('merges chains of overlaps into one shard', () => {
    const shards = groupIntoShards(['a', 'a/b', 'a/b/c.ts', 'd.ts'], { by: 'count', size: 1 });
    expect(shards.map((shard) => shard.paths)).toEqual([['a', 'a/b', 'a/b/c.ts'], ['d.ts']]);
  });

  it('widens the ids past 99 shards and refuses a size that is not a positive whole number', () => {
    const many = Array.from({ length: 120 }, (_, index) => `f${String(index).padStart(3, '0')}.ts`);
    const shards = groupIntoShards(many, { by: 'count', size: 1 });
    expect(shards[0]!.id).toBe('shard-001');
    expect(shards[119]!.id).toBe('shard-120');
    expect(() => groupIntoShards(units, { by: 'count', size: 0 })).toThrow(FanoutInputError);
    expect(() => groupIntoShards(units, { by: 'count', size: 1.5 })).toThrow(/positive shard size/);
  });
});

describe('groupIntoShards by owner', () => {
  it('keeps each owner group together in its sorted order, the unowned last, and records the owner', () => {
    const owners = new Map([
      ['a.ts', '@web'],
      ['b.ts', ''],
      ['c.ts', '@api'],
      ['d.ts', '@web'],
      ['e.ts', '@web'],
      ['f.ts', '']
    ]);
    expect(groupIntoShards([...owners.keys()], { by: 'owner', size: 2, owners })).toEqual([
      { id: 'shard-01', paths: ['c.ts'], owner: '@api' },
      { id: 'shard-02', paths: ['a.ts', 'd.ts'], owner: '@web' },
      { id: 'shard-03', paths: ['e.ts'], owner: '@web' },
      { id: 'shard-04', paths: ['b.ts', 'f.ts'], owner: '' }
    ]);
  });
});
