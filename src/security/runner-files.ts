import { randomUUID } from 'node:crypto';
import { closeSync, ftruncateSync, lstatSync, readFileSync, rmSync } from 'node:fs';
import {
  describeDescriptor,
  openUnfollowed,
  plainFileProblem,
  readAtMost,
  replaceFile,
  writeAll,
  type FileKey
} from '../files/unfollowed-file.js';

/** The runner's file commands: what a step writes there changes outputs, env and PATH of later steps. */
const FILE_COMMANDS = [
  'GITHUB_OUTPUT',
  'GITHUB_ENV',
  'GITHUB_PATH',
  'GITHUB_STATE',
  'GITHUB_STEP_SUMMARY'
] as const;
export type FileCommand = (typeof FILE_COMMANDS)[number];

/** Which file a path named when the guard was set: a regular file, known by device, inode and links. */
interface FileIdentity extends FileKey {
  readonly nlink: bigint;
}

interface GuardedFile {
  readonly name: FileCommand;
  readonly path: string;
  identity: FileIdentity | undefined;
  readonly content: Buffer;
}

export interface RestoredFile {
  readonly name: FileCommand;
  readonly path: string;
  /** True when the path no longer named the runner's file (a link, another file, a FIFO, gone). */
  readonly replaced: boolean;
}

export interface RunnerFilesGuard {
  /** Whether the runner gave this file command at all. */
  has(name: FileCommand): boolean;
  /**
   * Puts every file command back as it was before the agent ran. A file whose contents changed is
   * rewritten in place; a path that now names something else is never written through: the entry is
   * removed and a new regular file holds the old contents.
   */
  restore(): RestoredFile[];
  /**
   * Appends to a file command, only if its path still names the regular file it named at start;
   * otherwise nothing is written and the reason is returned.
   */
  append(
    name: FileCommand,
    text: string
  ): { readonly written: true } | { readonly written: false; readonly reason: string };
  /** Sets a step output in GITHUB_OUTPUT the way @actions/core does, through `append`. */
  setOutput(
    name: string,
    value: string | number
  ): { readonly written: true } | { readonly written: false; readonly reason: string };
}

/**
 * The agent's shell can reach the runner's file commands: write them (NODE_OPTIONS into GITHUB_ENV
 * runs code in every later step), or swap one for a link to another (the report would land in
 * GITHUB_PATH), a hard link, or a FIFO that blocks a write forever. Before the agent runs, each
 * file's contents and identity (lstat: regular file, device, inode, link count) are recorded; every
 * later write checks, on the open descriptor, that it is still that file.
 */
export function guardRunnerFiles(env: NodeJS.ProcessEnv): RunnerFilesGuard {
  const files = new Map<FileCommand, GuardedFile>();
  for (const name of FILE_COMMANDS) {
    const path = env[name];
    if (!path) continue;
    const identity = identityOf(path);
    files.set(name, { name, path, identity, content: identity ? readFileSync(path) : Buffer.alloc(0) });
  }
  const appendTo = (name: FileCommand, text: string) => {
    const file = files.get(name);
    if (!file) return { written: false as const, reason: `${name} is not set` };
    if (!file.identity) return { written: false as const, reason: `${name} was not a regular file at start` };
    const fd = openChecked(file.path, file.identity, 'append');
    if (typeof fd === 'string') return { written: false as const, reason: `${name} ${fd}` };
    try {
      writeAll(fd, text);
    } finally {
      closeSync(fd);
    }
    return { written: true as const };
  };
  return {
    has: (name) => files.has(name),
    restore: () => {
      const restored: RestoredFile[] = [];
      for (const file of files.values()) {
        if (!file.identity) continue;
        const fd = openChecked(file.path, file.identity, 'rewrite');
        if (typeof fd === 'number') {
          try {
            // One byte past the old contents is enough to see a change (and no more is read).
            if (readAtMost(fd, file.content.length + 1).equals(file.content)) continue;
            ftruncateSync(fd, 0);
            writeAll(fd, file.content);
          } finally {
            closeSync(fd);
          }
          restored.push({ name: file.name, path: file.path, replaced: false });
          continue;
        }
        file.identity = recreate(file.path, file.content);
        restored.push({ name: file.name, path: file.path, replaced: true });
      }
      return restored;
    },
    append: appendTo,
    setOutput: (name, value) => {
      const delimiter = `ghadelimiter_${randomUUID()}`;
      return appendTo('GITHUB_OUTPUT', `${name}<<${delimiter}\n${String(value)}\n${delimiter}\n`);
    }
  };
}

function identityOf(path: string): FileIdentity | undefined {
  try {
    const stat = lstatSync(path, { bigint: true });
    return stat.isFile() ? { dev: stat.dev, ino: stat.ino, nlink: stat.nlink } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A descriptor on the very file `identity` names, or why there is none. The check is made on the
 * open descriptor, so a swap between the check and the write cannot redirect it.
 */
function openChecked(path: string, identity: FileIdentity, mode: 'append' | 'rewrite'): number | string {
  let fd: number;
  try {
    fd = openUnfollowed(path, mode === 'append' ? 'append' : 'read-write');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return `could not be opened as a plain file (${code}): it is a link, a FIFO or gone`;
  }
  const info = describeDescriptor(fd);
  const problem = plainFileProblem(info, { links: identity.nlink, key: identity });
  if (!problem) return fd;
  closeSync(fd);
  return problem === 'links' && info.ino === identity.ino
    ? 'has another link to it now'
    : 'is another file now';
}

/**
 * A new regular file with the old contents where the swapped entry was, renamed into place in one
 * step: no moment with nothing there, and a crash leaves the old entry or the whole new file.
 */
function recreate(path: string, content: Buffer): FileIdentity | undefined {
  const replace = () => ({ ...replaceFile(path, content, 0o644), nlink: 1n });
  try {
    return replace();
  } catch {
    // A folder cannot be renamed over: it goes first. Whatever else failed, the swapped entry goes too.
    rmSync(path, { recursive: true, force: true });
  }
  try {
    return replace();
  } catch {
    return undefined; // no write goes to this path from now on
  }
}
