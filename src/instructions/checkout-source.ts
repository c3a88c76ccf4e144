import { lstat, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import {
  describeEntryKind,
  describeFileError,
  describeTooBig,
  isMissingPath
} from '../files/file-problem.js';
import { readAll } from '../files/bounded-file.js';
import { openFailure, openFlags } from '../files/unfollowed-file.js';
import { MAX_INSTRUCTION_FILE_READ_BYTES, type InstructionSource, type SourceEntry } from './source.js';

/**
 * The working tree as it is before the agent's first turn (no process of the agent's runs yet, so
 * nothing swaps a path between the look and the open). Every folder on the way must be a real
 * folder, not a link, and the file is opened without following a link (O_NOFOLLOW) and without
 * waiting on a FIFO (O_NONBLOCK), then judged by fstat on the open descriptor: a link in the
 * repository to /etc/passwd, a FIFO or a device is refused, never read.
 */
export class CheckoutSource implements InstructionSource {
  readonly description = 'the checkout';

  constructor(private readonly root: string) {}

  async entry(relative: string, maxBytes: number): Promise<SourceEntry> {
    const parts = relative.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const folder = await this.folderProblem(parts.slice(0, depth).join('/'));
      if (folder !== undefined) return folder;
    }
    const absolute = path.join(this.root, ...parts);
    let handle: FileHandle;
    try {
      handle = await open(absolute, openFlags('read'));
    } catch (error) {
      if (isMissingPath(error)) return { kind: 'absent' };
      return { kind: 'refused', reason: openFailure(error) };
    }
    try {
      const info = await handle.stat();
      if (info.isDirectory()) return { kind: 'folder' };
      if (!info.isFile()) return { kind: 'refused', reason: describeEntryKind(info) };
      if (info.size > MAX_INSTRUCTION_FILE_READ_BYTES)
        return { kind: 'refused', reason: describeTooBig(info.size, MAX_INSTRUCTION_FILE_READ_BYTES) };
      return { kind: 'file', size: info.size, bytes: await readAll(handle, Math.min(info.size, maxBytes)) };
    } finally {
      await handle.close();
    }
  }

  /** Undefined when `relative` is a real folder; else what the caller's file is (absent, refused). */
  private async folderProblem(relative: string): Promise<SourceEntry | undefined> {
    try {
      const info = await lstat(path.join(this.root, ...relative.split('/')));
      if (info.isDirectory()) return undefined;
      if (info.isSymbolicLink())
        return {
          kind: 'refused',
          reason: `the folder ${relative} is a symbolic link, which is not followed`
        };
      return { kind: 'absent' };
    } catch (error) {
      if (isMissingPath(error)) return { kind: 'absent' };
      return { kind: 'refused', reason: describeFileError(error, 'folder') };
    }
  }
}
