import { createHash } from 'node:crypto';

/**
 * Where a plan's work lands. Deterministic, so landing again moves the same branches and never
 * makes new ones. All live under `fanout/<plan>/`, so a combined, a per-shard and a per-owner
 * landing of the same plan can coexist (a ref cannot be both a branch and a folder of branches).
 */
export const combinedBranch = (planId: string): string => `fanout/${planId}/combined`;
export const shardBranch = (planId: string, shardId: string): string => `fanout/${planId}/${shardId}`;

/**
 * The per-owner branch of each owner group of a plan (`''`, the unowned, included):
 * `fanout/<plan>/owner-<slug>`, the slug the owners in lower case with every run of other
 * characters a `-` (`@octo-org/octocats` gives `owner-octo-org-octocats`), and `fanout/<plan>/unowned`
 * for the files no rule owns (no owner's slug can be that: owner branches start with `owner-`).
 * Two groups whose slugs would be equal (`@a/b` and `@a-b`) each get 8 hex digits of their group
 * appended. Computed from all the plan's groups, so a branch's name does not depend on which
 * shards landed this time.
 */
export function ownerBranches(planId: string, groups: Iterable<string>): Map<string, string> {
  const unique = [...new Set(groups)];
  const slugOf = (group: string) =>
    group
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'x';
  const slugs = unique.filter((group) => group !== '').map(slugOf);
  const branches = new Map<string, string>();
  for (const group of unique) {
    if (group === '') {
      branches.set(group, `fanout/${planId}/unowned`);
      continue;
    }
    const slug = slugOf(group);
    const clash = slugs.filter((other) => other === slug).length > 1;
    const suffix = clash ? `-${createHash('sha256').update(group).digest('hex').slice(0, 8)}` : '';
    branches.set(group, `fanout/${planId}/owner-${slug}${suffix}`);
  }
  return branches;
}
