import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ToolError } from './tool-error.js';

/**
 * The file-system boundary: every path a tool touches is resolved here and must stay inside the
 * repository root. Real paths are compared, so a symlink cannot lead a read or a write outside.
 */
export interface WorkspaceOptions {
  /** Folders (relative, with a trailing slash) no tool may write, e.g. `.github/workflows/`. */
  readonly readOnlyFolders?: readonly string[];
}

export class Workspace {
  readonly root: string;
  private readonly readOnlyFolders: readonly string[];

  constructor(root: string, options: WorkspaceOptions = {}) {
    this.root = realpathSync(path.resolve(root));
    this.readOnlyFolders = options.readOnlyFolders ?? [];
  }

  /** Resolves a path for reading: it must exist (or its nearest ancestor must) inside the root. */
  resolveForRead(requested: string): string {
    return this.resolve(requested);
  }

  /** Resolves a path for writing: inside the root and never under `.git/`. */
  resolveForWrite(requested: string): string {
    const resolved = this.resolve(requested);
    const relative = path.relative(this.root, resolved);
    if (relative === '.git' || relative.startsWith(`.git${path.sep}`)) {
      throw new ToolError(`Refused: ${requested} is inside .git/, which tools may not write.`);
    }
    const shown = relative.split(path.sep).join('/');
    const folder = this.readOnlyFolders.find((prefix) => `${shown}/`.startsWith(prefix));
    if (folder) {
      throw new ToolError(
        `Refused: ${requested} is in ${folder}, which this run may not change (allow_workflow_changes is off).`
      );
    }
    return resolved;
  }

  /** The path as the model should see it: relative to the root, with forward slashes. */
  display(absolute: string): string {
    const relative = path.relative(this.root, absolute);
    return relative === '' ? '.' : relative.split(path.sep).join('/');
  }

  private resolve(requested: string): string {
    if (requested.trim() === '') throw new ToolError('The path is empty.');
    const lexical = path.resolve(this.root, requested);
    if (!this.contains(lexical)) throw outside(requested);
    const real = realPathOfNearestExisting(lexical);
    if (!this.contains(real)) throw outside(requested);
    return real;
  }

  private contains(candidate: string): boolean {
    const relative = path.relative(this.root, candidate);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  }
}

function outside(requested: string): ToolError {
  return new ToolError(
    `Refused: ${requested} is outside the repository. Tools only work inside the repository root.`
  );
}

/**
 * Follows symlinks on the part of the path that exists, then appends the part that does not yet.
 * A dangling symlink is followed to where it points, or a write through it could land outside.
 */
function realPathOfNearestExisting(target: string, hops = 0): string {
  if (hops > 40) throw new ToolError('Refused: too many levels of symbolic links.');
  let existing = target;
  const missing: string[] = [];
  while (!isPresent(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    missing.unshift(path.basename(existing));
    existing = parent;
  }
  if (!existsSync(existing) && lstatSync(existing).isSymbolicLink()) {
    const pointedTo = path.resolve(path.dirname(existing), readlinkSync(existing));
    return realPathOfNearestExisting(path.join(pointedTo, ...missing), hops + 1);
  }
  return path.join(realpathSync(existing), ...missing);
}

/** True for anything at the path, dangling symlinks included (existsSync says false for those). */
function isPresent(candidate: string): boolean {
  try {
    lstatSync(candidate);
    return true;
  } catch {
    return false;
  }
}
