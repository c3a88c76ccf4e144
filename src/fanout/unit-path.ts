import path from 'node:path';
import { FanoutInputError } from './fanout-error.js';

/**
 * A unit's path as the repository names it: relative, `/`-separated, no `.` or `..` segment, no
 * trailing slash. A path that leaves the repository is an error naming where it came from.
 */
export function normalizeUnitPath(raw: string, origin: string): string {
  const trimmed = raw.trim().replace(/\\/g, '/');
  if (trimmed === '') throw new FanoutInputError(`${origin}: an empty path is not a unit.`);
  if (trimmed.startsWith('/'))
    throw new FanoutInputError(
      `${origin}: "${trimmed}" is an absolute path. Units are paths relative to the repository's root ` +
        '(for example what `git grep -l` or `git ls-files` prints).'
    );
  const normal = path.posix.normalize(trimmed).replace(/\/+$/, '');
  if (normal === '.' || normal === '' || normal === '..' || normal.startsWith('../'))
    throw new FanoutInputError(
      `${origin}: "${trimmed}" is not a path inside the repository. List files or folders below its root.`
    );
  return normal;
}

/** Whether `file` is `scope` itself or lies under the folder `scope` (both normalized). */
export function pathWithin(file: string, scope: string): boolean {
  return file === scope || file.startsWith(`${scope}/`);
}

/** The folders above a normalized path, nearest first (`a/b/c` gives `a/b`, `a`). */
export function ancestors(file: string): string[] {
  const out: string[] = [];
  for (let folder = path.posix.dirname(file); folder !== '.'; folder = path.posix.dirname(folder))
    out.push(folder);
  return out;
}
