import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  unlinkSync,
  writeSync
} from 'node:fs';
import path from 'node:path';
import { assertRealFolders } from '../security/safe-file.js';

/** A file the action wrote, as it was when written: the artifact takes it only if it is still so. */
export interface WrittenFile {
  readonly path: string;
  /** Its place in the run folder, fixed at write time (the folder's real path was taken at start). */
  readonly relative: string;
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly sha256: string;
}

const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * The files of a run the action itself wrote (segments, spilled tool results), with the identity
 * and content hash each had at write time. Each is created fresh: whatever the agent left at the
 * path (a link, a FIFO, a hard link to a file it keeps) is removed, never written through.
 */
export class WrittenFiles {
  private readonly files = new Map<string, WrittenFile>();
  /** The run folder's real path, taken before the agent runs. */
  readonly root: string;

  constructor(runDir: string) {
    mkdirSync(runDir, { recursive: true });
    this.root = realpathSync(runDir);
  }

  write(file: string, text: string): void {
    // A folder on the way swapped for a link would put the file elsewhere.
    assertRealFolders(file, this.root);
    const fd = openFresh(file);
    try {
      const bytes = Buffer.from(text, 'utf8');
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
      const info = fstatSync(fd);
      this.files.set(file, {
        path: file,
        relative: path.relative(this.root, file),
        dev: info.dev,
        ino: info.ino,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex')
      });
    } finally {
      closeSync(fd);
    }
  }

  entries(): readonly WrittenFile[] {
    return [...this.files.values()];
  }
}

function openFresh(file: string): number {
  try {
    return openSync(file, CREATE_FLAGS, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    unlinkSync(file);
    return openSync(file, CREATE_FLAGS, 0o644);
  }
}
