import { GitRepository } from './repository.js';

/**
 * `git status --porcelain` of the repository, without the transcripts folder: what the agent changed.
 * Undefined when git cannot answer (not a repository, git missing), so callers fall back. It runs
 * while the agent's files are in place, so it goes through GitRepository: no planted hook or
 * fsmonitor runs, and git gets none of the action's secrets.
 */
export async function changedFiles(repoRoot: string): Promise<string[] | undefined> {
  try {
    const status = await new GitRepository(repoRoot).run([
      'status',
      '--porcelain',
      '--untracked-files=all',
      '--',
      '.',
      ':(exclude).transcripts'
    ]);
    return status.split('\n').filter((line) => line.trim() !== '');
  } catch {
    return undefined;
  }
}
