import type { GitRepository } from '../git/repository.js';

/**
 * Every path a patch changed, read from the index it was applied to (`git diff --cached
 * --name-only -z` against the base, renames split into both sides): what git actually did, not how
 * a text parser reads the patch's headers (a path may hold a TAB or a newline). A result's own list
 * of files is a claim; this is the fact.
 */
export async function appliedPaths(
  repo: GitRepository,
  base: string,
  index: Readonly<Record<string, string>>
): Promise<string[]> {
  const raw = await repo.run(
    ['diff', '--cached', '--no-ext-diff', '--no-textconv', '--no-renames', '--name-only', '-z', base],
    index
  );
  return [...new Set(raw.split('\0').filter((file) => file !== ''))];
}
