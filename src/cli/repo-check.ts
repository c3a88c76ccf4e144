import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { describeFileError, fileErrorCode } from '../files/file-problem.js';
import { usageError } from './exit-codes.js';

/**
 * `--repo` must name an existing folder (it is never created: a typo must not become an empty
 * workspace the model is paid to explore), and a git repository, because the run's changes are
 * reviewed and undone with git, and the work ledger a compaction keeps lists them from git status.
 */
export async function checkRepoFolder(raw: string, allowNonGit: boolean): Promise<string> {
  if (raw.trim() === '') throw usageError('--repo is empty. Give the folder of the project, e.g. --repo .');
  const folder = path.resolve(raw);
  const info = await stat(folder).catch((error: unknown) => {
    throw usageError(`--repo ${raw}: ${unreachable(folder, error)}`);
  });
  if (!info.isDirectory()) {
    throw usageError(`--repo ${raw}: this is a file, not a folder. Give the project's folder, e.g. --repo .`);
  }
  // Before git is asked: an unreadable folder is not "not a repository", and git would say so.
  const denied = await access(folder, constants.R_OK | constants.X_OK).then(
    () => undefined,
    (error: unknown) => error
  );
  if (denied !== undefined) {
    throw usageError(
      `--repo ${raw}: ${folder} exists but you cannot read it (${describeFileError(denied, 'folder')}). ` +
        'Run as a user who can read and write the project, or fix its permissions (chmod / chown).'
    );
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

/** Why a --repo path cannot be used, and what to do about it. */
function unreachable(folder: string, error: unknown): string {
  const problem = `${folder} cannot be used (${describeFileError(error, 'folder')}).`;
  switch (fileErrorCode(error)) {
    case 'ENOENT':
    case 'ENOTDIR':
      return `${problem} Give the folder of an existing project; compact-agent does not create it.`;
    case 'EACCES':
    case 'EPERM':
      return `${problem} Run as a user who can read the project, or fix the permissions.`;
    case 'ELOOP':
      return `${problem} Give the project's real folder.`;
    default:
      return problem;
  }
}
