import type { MovedGitEntry } from './nested-repositories.js';

/** The CLI's account of the `.git` folders and files the run's commands made: each, and where it went. */
export function movedGitLines(moved: readonly MovedGitEntry[] | undefined): string[] {
  if (!moved || moved.length === 0) return [];
  return [
    'moved out of the repository (a command made them; git would run their settings, such as core.fsmonitor, the next time you use git here):',
    ...moved.map((entry) => `  ${entry.path} -> ${entry.movedTo ?? '(deleted: it could not be moved)'}`)
  ];
}
