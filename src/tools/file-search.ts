import { stat } from 'node:fs/promises';
import path from 'node:path';
import { globby } from 'globby';
import type { Workspace } from './workspace.js';
import { ToolError } from './tool-error.js';

/** Never searched: version-control internals and installed dependencies would drown every result. */
const ALWAYS_IGNORED = ['**/.git/**', '**/node_modules/**', '**/.transcripts/**'];

/**
 * Lists files under a folder of the workspace that match a glob, honouring .gitignore.
 * Paths come back relative to the repository root, sorted, so the same search gives the same text.
 */
export async function findFiles(
  workspace: Workspace,
  pattern: string,
  under: string | undefined
): Promise<string[]> {
  const base = workspace.resolveForRead(under ?? '.');
  const info = await stat(base).catch(() => {
    throw new ToolError(`Folder not found: ${under}`);
  });
  if (info.isFile()) return [workspace.display(base)];
  const matches = await globby(pattern, {
    cwd: base,
    dot: true,
    gitignore: true,
    ignore: ALWAYS_IGNORED,
    onlyFiles: true,
    followSymbolicLinks: false
  });
  return matches
    .map((relative) => workspace.display(path.join(base, relative)))
    .filter((shown) => !shown.startsWith('..'))
    .sort();
}
