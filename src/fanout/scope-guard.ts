import { pathWithin } from './unit-path.js';

/**
 * A shard may change only its own paths (a unit file, or anything under a unit folder). The guard
 * judges the shard's resulting changes, not each tool call: the agent's bash can write any file,
 * so only the finished change set sees every edit, whatever made it. What lies outside is put
 * back as the base has it, counted and reported; it never reaches the patch.
 */
export interface ScopeVerdict {
  readonly inScope: readonly string[];
  readonly outOfScope: readonly string[];
}

export function judgeScope(changed: readonly string[], scope: readonly string[]): ScopeVerdict {
  const inScope: string[] = [];
  const outOfScope: string[] = [];
  for (const file of changed)
    (scope.some((unit) => pathWithin(file, unit)) ? inScope : outOfScope).push(file);
  return { inScope, outOfScope };
}
