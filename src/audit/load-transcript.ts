import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readRegularFile, UnreadableFileError } from '../files/bounded-file.js';
import { describeFileError, isMissingPath } from '../files/file-problem.js';
import { TRANSCRIPT_FILE } from '../transcript/writer.js';
import { DEFAULT_ZIP_LIMITS, unzip } from './zip-reader.js';

export interface LoadedTranscript {
  readonly text: string;
  /** Where it was read from, for the reader: a file, or an entry of an artifact zip. */
  readonly source: string;
}

export class TranscriptNotFoundError extends Error {}

/** Nothing is at the path given: for the CLI a usage error (exit 2), not a file it cannot use. */
export class TranscriptPathMissingError extends TranscriptNotFoundError {}

/** The most that is read from one file: an archive larger than everything it may expand to is refused. */
const MAX_FILE_BYTES = DEFAULT_ZIP_LIMITS.maxTotalBytes;

/**
 * Finds a transcript where a reviewer would point: a run folder, a `.transcripts` folder (its newest
 * run), a transcript.jsonl, or the downloaded artifact zip. Only regular files are read, and never
 * more than MAX_FILE_BYTES of them: a device, a pipe or a FIFO reports no size and would never end.
 * Each path is looked at once, on its open descriptor.
 */
export async function loadTranscript(target: string): Promise<LoadedTranscript> {
  const entry = await openEntry(target, MAX_FILE_BYTES);
  if (entry.kind === 'folder') return fromFolder(target);
  const { bytes } = entry;
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])))
    return transcriptFromZip(target, bytes);
  return { text: bytes.toString('utf8'), source: target };
}

/**
 * The whole file, if it is a regular file of at most `maxBytes` (also what `--resume` reads). Opened without blocking, so a
 * FIFO with no writer cannot hang the reader, and checked on the open descriptor.
 */
export async function readBounded(file: string, maxBytes = MAX_FILE_BYTES): Promise<Buffer> {
  const entry = await openEntry(file, maxBytes);
  if (entry.kind === 'folder')
    throw new TranscriptNotFoundError(`${file} is not a regular file: it is a folder.`);
  return entry.bytes;
}

type Entry = { readonly kind: 'folder' } | { readonly kind: 'file'; readonly bytes: Buffer };

/** A folder, or the bytes of a bounded regular file; anything else is refused, saying why. */
async function openEntry(file: string, maxBytes: number): Promise<Entry> {
  try {
    return { kind: 'file', bytes: await readRegularFile(file, maxBytes) };
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    switch (error.kind) {
      case 'folder':
        return { kind: 'folder' };
      case 'missing':
        throw new TranscriptPathMissingError(`${file} does not exist.`);
      case 'not-regular':
        throw new TranscriptNotFoundError(`${file} is not a regular file: ${error.reason}.`);
      case 'too-big':
        throw new TranscriptNotFoundError(
          `${file} cannot be read: ${error.reason}. ` +
            'If it is an artifact zip, unzip it and give the run folder instead.'
        );
      case 'unreadable':
        throw new TranscriptNotFoundError(`${file} cannot be read: ${error.reason}.`);
    }
  }
}

/** Why a path cannot be opened or listed: missing, not permitted, a loop of links, ... */
function unreachable(file: string, error: unknown): TranscriptNotFoundError {
  if (isMissingPath(error)) return new TranscriptPathMissingError(`${file} does not exist.`);
  return new TranscriptNotFoundError(`${file} cannot be read: ${describeFileError(error)}.`);
}

/** The transcript in a folder; a run folder's file that exists but cannot be read says why. */
async function fromFolder(folder: string): Promise<LoadedTranscript> {
  const direct = await readIfPresent(path.join(folder, TRANSCRIPT_FILE));
  if (direct) return direct;
  const runs = (
    await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
      throw unreachable(folder, error);
    })
  )
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
    return { text: (await readBounded(file)).toString('utf8'), source: file };
  } catch (error) {
    if (error instanceof TranscriptPathMissingError) return undefined;
    throw error;
  }
}

/** The newest transcript in an artifact zip (the bounded unzip of zip-reader.ts); `file` names it in messages. */
export function transcriptFromZip(file: string, bytes: Buffer): LoadedTranscript {
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
