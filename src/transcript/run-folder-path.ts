import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** The run folder's path inside the repository passes through a link or a file: nothing was written. */
export class RunFolderPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunFolderPathError';
  }
}

/**
 * Checked before anything is written: every folder from the repository root down to the run folder
 * (`.transcripts` included) must be a real folder or not exist yet. A committed `.transcripts` link
 * would otherwise put the transcript, and every file of the run, wherever the link points, outside
 * the repository. lstat, so a link is seen as a link; a run folder outside the repository (the CLI's
 * --transcripts) is the caller's own choice and not checked.
 */
export function checkRunFolderPath(repoRoot: string, runDir: string): void {
  const root = path.resolve(repoRoot);
  const relative = path.relative(root, path.resolve(runDir));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return;
  let folder = root;
  for (const part of relative.split(path.sep)) {
    folder = path.join(folder, part);
    let info;
    try {
      info = lstatSync(folder);
    } catch {
      return; // not there yet: made as a real folder when the run starts
    }
    const shown = path.relative(root, folder);
    if (info.isSymbolicLink()) {
      throw new RunFolderPathError(
        `the run folder goes to ${shown}/ in the repository, but ${shown} is a symbolic link ` +
          `(to ${linkTarget(folder)}): the transcript would be written outside the repository. ` +
          `Remove the link from the repository (git rm ${shown}, then commit) and run again; nothing was written.`
      );
    }
    if (!info.isDirectory()) {
      throw new RunFolderPathError(
        `the run folder goes to ${shown}/ in the repository, but ${shown} is not a folder. ` +
          `Remove or rename it and run again; nothing was written.`
      );
    }
  }
}

function linkTarget(link: string): string {
  try {
    return readlinkSync(link);
  } catch {
    return 'somewhere unreadable';
  }
}
