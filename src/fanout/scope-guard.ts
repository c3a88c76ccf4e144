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

/**
 * A path with a control character (a TAB, a newline) is never in scope: no unit is named so, and
 * tools that read paths as text (patch headers, logs, the roll-up) would read it as another path.
 */
export function hasControlCharacter(file: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return /[\u0000-\u001f\u007f]/.test(file);
}

export function judgeScope(changed: readonly string[], scope: readonly string[]): ScopeVerdict {
  const inScope: string[] = [];
  const outOfScope: string[] = [];
  for (const file of changed)
    (!hasControlCharacter(file) && scope.some((unit) => pathWithin(file, unit)) ? inScope : outOfScope).push(
      file
    );
  return { inScope, outOfScope };
}
