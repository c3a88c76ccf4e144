import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { TRANSCRIPT_FILE } from '../transcript/writer.js';
import { DEFAULT_ZIP_LIMITS, unzip } from './zip-reader.js';

export interface LoadedTranscript {
  readonly text: string;
  /** Where it was read from, for the reader: a file, or an entry of an artifact zip. */
  readonly source: string;
}

export class TranscriptNotFoundError extends Error {}

/** The most that is read from one file: an archive larger than everything it may expand to is refused. */
const MAX_FILE_BYTES = DEFAULT_ZIP_LIMITS.maxTotalBytes;

/**
 * Finds a transcript where a reviewer would point: a run folder, a `.transcripts` folder (its newest
 * run), a transcript.jsonl, or the downloaded artifact zip. Only regular files are read, and never
 * more than MAX_FILE_BYTES of them: a device, a pipe or a FIFO reports no size and would never end.
 */
export async function loadTranscript(target: string): Promise<LoadedTranscript> {
  const info = await stat(target).catch((error: NodeJS.ErrnoException) => {
    throw new TranscriptNotFoundError(`${target} ${reachProblem(error)}.`);
  });
  if (info.isDirectory()) return fromFolder(target);
  const bytes = await readBounded(target);
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return fromZip(target, bytes);
  return { text: bytes.toString('utf8'), source: target };
}

/** Why a path cannot be used, in words: missing, not permitted, or a loop of links. */
function reachProblem(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read: permission denied (check the file and the folders above it)';
    case 'ELOOP':
      return 'is a loop of symbolic links';
    default:
      return `cannot be read (${error.code ?? error.message})`;
  }
}

/**
 * The whole file, if it is a regular file of at most `maxBytes` (also what `--resume` reads). Opened without blocking, so a
 * FIFO with no writer cannot hang the reader, and checked on the open descriptor.
 */
export async function readBounded(file: string, maxBytes = MAX_FILE_BYTES): Promise<Buffer> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      throw new TranscriptNotFoundError(`${file} ${reachProblem(error)}.`);
    }
  );
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new TranscriptNotFoundError(
        `${file} is not a regular file (a device, a pipe or a socket). Give a transcript.jsonl, a run folder or the artifact zip.`
      );
    }
    if (info.size > maxBytes) {
      throw new TranscriptNotFoundError(
        `${file} is ${Math.round(info.size / 2 ** 20)} MiB; it is read only up to ` +
          `${Math.round(maxBytes / 2 ** 20)} MiB. Unzip it and give the run folder instead.`
      );
    }
    // Never more than the size checked above, even if the file grows while it is read.
    const buffer = Buffer.alloc(info.size);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** The transcript in a folder; a run folder's file that exists but cannot be read says why. */
async function fromFolder(folder: string): Promise<LoadedTranscript> {
  const direct = await readIfPresent(path.join(folder, TRANSCRIPT_FILE));
  if (direct) return direct;
  const runs = (await readdir(folder, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  for (const run of runs.sort().reverse()) {
    const found = await readIfPresent(path.join(folder, run, TRANSCRIPT_FILE));
    if (found) return found;
  }
  throw new TranscriptNotFoundError(`No ${TRANSCRIPT_FILE} in ${folder} or in a run folder inside it.`);
}

/** Undefined only when the file is not there; too big, unreadable or not a file is an error. */
async function readIfPresent(file: string): Promise<LoadedTranscript | undefined> {
  try {
    await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TranscriptNotFoundError(`${file} ${reachProblem(error as NodeJS.ErrnoException)}.`);
  }
  return { text: (await readBounded(file)).toString('utf8'), source: file };
}

function fromZip(file: string, bytes: Buffer): LoadedTranscript {
  let entries: Map<string, Buffer>;
  try {
    entries = unzip(bytes);
  } catch (error) {
    throw new TranscriptNotFoundError(`${file} is not a readable zip: ${(error as Error).message}`);
  }
  const names = [...entries.keys()].filter((name) => name.endsWith(TRANSCRIPT_FILE)).sort();
  const newest = names.at(-1);
  if (!newest) throw new TranscriptNotFoundError(`${file} holds no ${TRANSCRIPT_FILE}.`);
  return { text: entries.get(newest)!.toString('utf8'), source: `${file}:${newest}` };
}
