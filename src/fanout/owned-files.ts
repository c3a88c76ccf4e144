import { GitRepository } from '../git/repository.js';
import { noCodeownersError, readCodeowners } from './codeowners-file.js';
import { ownersOf } from './codeowners.js';

/**
 * The units of an `owners` source: the files git tracks at HEAD whose CODEOWNERS owners (the HEAD
 * commit's file, as grouping by owner reads it) include one of `owners`, compared case-blind as
 * GitHub compares logins and team names. A file several teams own counts for each of them.
 */
export async function ownedFiles(repoDir: string, owners: readonly string[]): Promise<string[]> {
  const repo = new GitRepository(repoDir);
  const codeowners = await readCodeowners(repo, 'HEAD');
  if (!codeowners) throw noCodeownersError(await repo.head(), `Listing the files of ${owners.join(', ')}`);
  const wanted = new Set(owners.map((owner) => owner.toLowerCase()));
  const tracked = (await repo.run(['ls-tree', '-r', '-z', '--name-only', '--full-tree', 'HEAD']))
    .split('\0')
    .filter(Boolean);
  return tracked.filter((file) =>
    ownersOf(codeowners, file, false).some((owner) => wanted.has(owner.toLowerCase()))
  );
}
