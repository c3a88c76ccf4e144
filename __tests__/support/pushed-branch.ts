import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RepoWithRemote } from './temp-repo.js';

/**
 * A branch on origin with one file more than main, as someone pushed it for a pull request; the
 * checkout is back on main after. Returns the branch's commit.
 */
export function pushBranchWithFile(
  repo: RepoWithRemote,
  branch: string,
  file: string,
  content: string
): string {
  repo.git('checkout', '--quiet', '-b', branch);
  writeFileSync(path.join(repo.root, file), content);
  repo.git('add', file);
  repo.git('commit', '--quiet', '-m', `add ${file}`);
  repo.git('push', '--quiet', 'origin', branch);
  repo.git('checkout', '--quiet', 'main');
  return repo.git('rev-parse', branch).trim();
}
