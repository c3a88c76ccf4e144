import { stat } from 'node:fs/promises';
import path from 'node:path';
import { GitRepository } from '../git/repository.js';
import { usageError } from './exit-codes.js';

/**
 * `--repo` must name an existing folder (it is never created: a typo must not become an empty
 * workspace the model is paid to explore), and a git repository, because the run's changes are
 * reviewed and undone with git, and the work ledger a compaction keeps lists them from git status.
 */
export async function checkRepoFolder(raw: string, allowNonGit: boolean): Promise<string> {
  const folder = path.resolve(raw);
  const info = await stat(folder).catch(() => undefined);
  if (!info) {
    throw usageError(
      `--repo ${raw}: there is no such folder (${folder}). Give the folder of an existing project; ` +
        'compact-agent does not create it.'
    );
  }
  if (!info.isDirectory()) {
    throw usageError(`--repo ${raw}: this is a file, not a folder. Give the project's folder, e.g. --repo .`);
  }
  if (!allowNonGit && !(await isGitWorkTree(folder))) {
    throw usageError(
      `--repo ${raw}: ${folder} is not a git repository (or git is not installed). The agent edits ` +
        'files in place: git is how you review and undo what it changed, and how its work ledger lists ' +
        'the changed files across compactions. Run git init there (and commit), or pass --allow-non-git ' +
        'to run anyway.'
    );
  }
  return folder;
}

async function isGitWorkTree(folder: string): Promise<boolean> {
  try {
    return (await new GitRepository(folder).run(['rev-parse', '--is-inside-work-tree'])).trim() === 'true';
  } catch {
    return false;
  }
}
