import { execFile } from 'node:child_process';

/**
 * `git status --porcelain` of the repository, without the transcripts folder: what the agent changed.
 * Undefined when git cannot answer (not a repository, git missing), so callers fall back.
 */
export function changedFiles(repoRoot: string): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['status', '--porcelain', '--untracked-files=all', '--', '.', ':(exclude).transcripts'],
      { cwd: repoRoot, timeout: 30_000, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return resolve(undefined);
        resolve(stdout.split('\n').filter((line) => line.trim() !== ''));
      }
    );
  });
}
