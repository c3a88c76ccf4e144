import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { convertPathToPattern, globby } from 'globby';

/**
 * Each unit's size in bytes as the repository has it now: a file's own, a folder's the sum of its
 * files (ignored ones left out), a missing unit 0. Links are not followed: a unit is measured, not
 * what it points at.
 */
export async function unitBytes(repoDir: string, units: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const unit of units) {
    const info = await lstat(path.join(repoDir, unit)).catch(() => undefined);
    if (!info) sizes.set(unit, 0);
    else if (!info.isDirectory()) sizes.set(unit, info.size);
    else {
      const files = await globby(`${convertPathToPattern(unit)}/**`, {
        cwd: repoDir,
        gitignore: true,
        dot: true,
        stats: true,
        followSymbolicLinks: false
      });
      sizes.set(
        unit,
        files.reduce((sum, file) => sum + (file.stats?.size ?? 0), 0)
      );
    }
  }
  return sizes;
}
