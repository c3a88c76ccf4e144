import type { GitRepository } from '../git/repository.js';
import { parseCodeowners, type Codeowners } from './codeowners.js';
import { FanoutInputError } from './fanout-error.js';

/**
 * Where GitHub looks for the CODEOWNERS file, in its order: "If CODEOWNERS files exist in more
 * than one of those locations, GitHub will search for them in that order and use the first one it
 * finds" ("About code owners", docs.github.com, read 2026-11-28).
 */
export const CODEOWNERS_LOCATIONS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const;

/** "CODEOWNERS files must be under 3 MB in size. A CODEOWNERS file over this limit will not be loaded" (same page). */
const MAX_CODEOWNERS_BYTES = 3 * 1024 * 1024;

/**
 * The CODEOWNERS file of a commit (the fan-out's base, as GitHub reads it from a pull request's
 * base branch), the first of CODEOWNERS_LOCATIONS that the commit holds as a file. Read from git,
 * not the working tree: what the shards start from decides, and a link or a FIFO there is never
 * followed. Undefined when the commit has none.
 */
export async function readCodeowners(repo: GitRepository, revision: string): Promise<Codeowners | undefined> {
  for (const location of CODEOWNERS_LOCATIONS) {
    const object = `${revision}:${location}`;
    let type: string;
    try {
      type = (await repo.run(['cat-file', '-t', object])).trim();
    } catch {
      continue; // not in this commit
    }
    if (type !== 'blob') continue;
    const size = Number((await repo.run(['cat-file', '-s', object])).trim());
    if (size >= MAX_CODEOWNERS_BYTES)
      throw new FanoutInputError(
        `${location} is ${size} bytes; GitHub does not load a CODEOWNERS file of 3 MB or more, so its owners ` +
          'cannot group a fan-out either. Shorten it (wildcard patterns), or group by count, folder or size.'
      );
    return parseCodeowners(await repo.run(['cat-file', 'blob', object]), location);
  }
  return undefined;
}

/** The error for a fan-out that needs owners in a repository without a CODEOWNERS file. */
export function noCodeownersError(revision: string, need: string): FanoutInputError {
  return new FanoutInputError(
    `${need} needs a CODEOWNERS file, and ${revision.slice(0, 12)} has none in ${CODEOWNERS_LOCATIONS.join(', ')}. ` +
      'Commit one (see "About code owners" in GitHub\'s docs), or group by count, folder or size.'
  );
}
