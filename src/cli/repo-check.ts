import { execFile } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
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
  if (allowNonGit) return folder;
  const top = await gitTopLevel(folder);
  if (top === undefined) {
    throw usageError(
      `--repo ${raw}: ${folder} is not a git repository (or git is not installed). The agent edits ` +
        'files in place: git is how you review and undo what it changed, and how its work ledger lists ' +
        'the changed files across compactions. Run git init there (and commit), or pass --allow-non-git ' +
        'to run anyway.'
    );
  }
  if (path.resolve(top) !== (await realpath(folder))) {
    throw usageError(
      `--repo ${raw}: ${folder} is inside the git repository ${top}. Give its top folder ` +
        `(--repo ${top}): the agent works on the whole repository, and git runs there.`
    );
  }
  return folder;
}

/**
 * The repository's top folder, asked of git before any agent runs (so the user's own git and
 * configuration are fine here); undefined when the folder is not in a repository.
 */
function gitTopLevel(folder: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['-C', folder, 'rev-parse', '--show-toplevel'], { timeout: 30_000 }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim())
    );
  });
}
