/**
 * Where a plan's work lands. Deterministic, so landing again moves the same branches and never
 * makes new ones. Both live under `fanout/<plan>/`, so a combined and a per-shard landing of the
 * same plan can coexist (a ref cannot be both a branch and a folder of branches).
 */
export const combinedBranch = (planId: string): string => `fanout/${planId}/combined`;
export const shardBranch = (planId: string, shardId: string): string => `fanout/${planId}/${shardId}`;
