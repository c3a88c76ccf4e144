import { ownerBranches } from '../../src/fanout/branch-names.js';

describe('ownerBranches', () => {
  it('names one readable branch per owner group, and the unowned apart from every owner', () => {
    const branches = ownerBranches('abc123', ['@octo-org/octocats', 'docs@example.com', '', '@a @b']);
    expect([...branches.entries()]).toEqual([
      ['@octo-org/octocats', 'fanout/abc123/owner-octo-org-octocats'],
      ['docs@example.com', 'fanout/abc123/owner-docs-example-com'],
      ['', 'fanout/abc123/unowned'],
      ['@a @b', 'fanout/abc123/owner-a-b']
    ]);
    // An owner named "unowned" cannot take the unowned files' branch.
    expect(ownerBranches('abc123', ['@unowned', '']).get('@unowned')).toBe('fanout/abc123/owner-unowned');
  });

  it('tells apart two groups whose readable names would be the same, whatever else the plan holds', () => {
    const one = ownerBranches('p', ['@a/b', '@a-b']);
    expect(one.get('@a/b')).toMatch(/^fanout\/p\/owner-a-b-[0-9a-f]{8}$/);
    expect(one.get('@a-b')).toMatch(/^fanout\/p\/owner-a-b-[0-9a-f]{8}$/);
    expect(one.get('@a/b')).not.toBe(one.get('@a-b'));
    expect(ownerBranches('p', ['@a-b', '@a/b', '@c']).get('@a/b')).toBe(one.get('@a/b'));
  });
});
