import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { replaceFile, type FileKey } from '../files/unfollowed-file.js';
import { isStrictlyInside } from '../files/path-inside.js';
import { makeRealFolders } from '../security/safe-file.js';

/** A file the action wrote, as it was when written: the artifact takes it only if it is still so. */
export interface WrittenFile extends FileKey {
  readonly path: string;
  /** Its place in the run folder, fixed at write time (the folder's real path was taken at start). */
  readonly relative: string;
  readonly size: number;
  readonly sha256: string;
}

/**
 * The files of a run the action itself wrote (segments, spilled tool results), with the identity
 * and content hash each had at write time. Each is a new file renamed into place: whatever the
 * agent left at the path (a link, a FIFO, a hard link to a file it keeps) is replaced as a name,
 * never written through, and a write that fails (a full disk) leaves no half-written file behind.
 */
export class WrittenFiles {
  private readonly files = new Map<string, WrittenFile>();
  /** The run folder's real path, taken before the agent runs. */
  readonly root: string;
  /** From where every folder on the way to a file is checked: the repository, when it holds the run folder. */
  private readonly guard: string;

  /**
   * `repository`: the workspace the agent's commands can change. The run folder inside it
   * (`.transcripts/<run>`) is checked from the repository's root down at every write, since the
   * agent can swap `.transcripts` itself for a link mid-run (checkRunFolderPath saw it only at the
   * start). A run folder outside the repository is the caller's own choice and checked from itself.
   */
  constructor(runDir: string, repository?: string) {
    mkdirSync(runDir, { recursive: true });
    this.root = realpathSync(runDir);
    const repositoryRoot = repository === undefined ? undefined : realpathSync(repository);
    this.guard =
      repositoryRoot !== undefined && isStrictlyInside(this.root, repositoryRoot)
        ? repositoryRoot
        : this.root;
  }

  write(file: string, text: string): void {
    // A folder on the way swapped for a link would put the file elsewhere; made one at a time.
    makeRealFolders(file, this.guard);
    const bytes = Buffer.from(text, 'utf8');
    const key = replaceFile(file, bytes, 0o644);
    this.files.set(file, {
      path: file,
      relative: path.relative(this.root, file),
      dev: key.dev,
      ino: key.ino,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex')
    });
  }

  entries(): readonly WrittenFile[] {
    return [...this.files.values()];
  }
}
