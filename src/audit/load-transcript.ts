import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { TRANSCRIPT_FILE } from '../transcript/writer.js';
import { DEFAULT_ZIP_LIMITS, unzip } from './zip-reader.js';

export interface LoadedTranscript {
  readonly text: string;
  /** Where it was read from, for the reader: a file, or an entry of an artifact zip. */
  readonly source: string;
}

export class TranscriptNotFoundError extends Error {}

/**
 * Finds a transcript where a reviewer would point: a run folder, a `.transcripts` folder (its newest
 * run), a transcript.jsonl, or the downloaded artifact zip.
 */
export async function loadTranscript(target: string): Promise<LoadedTranscript> {
  const info = await stat(target).catch(() => {
    throw new TranscriptNotFoundError(`${target} does not exist.`);
  });
  if (info.isDirectory()) return fromFolder(target);
  // Read at once, so bounded first: an archive larger than everything it may expand to is refused.
  if (info.size > DEFAULT_ZIP_LIMITS.maxTotalBytes) {
    throw new TranscriptNotFoundError(
      `${target} is ${Math.round(info.size / 2 ** 20)} MiB; a transcript or artifact is read only up to ` +
        `${DEFAULT_ZIP_LIMITS.maxTotalBytes / 2 ** 20} MiB. Unzip it and give the run folder instead.`
    );
  }
  const bytes = await readFile(target);
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return fromZip(target, bytes);
  return { text: bytes.toString('utf8'), source: target };
}

async function fromFolder(folder: string): Promise<LoadedTranscript> {
  const direct = path.join(folder, TRANSCRIPT_FILE);
  const text = await readFile(direct, 'utf8').catch(() => undefined);
  if (text !== undefined) return { text, source: direct };
  const runs = (await readdir(folder, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  for (const run of runs.sort().reverse()) {
    const candidate = path.join(folder, run, TRANSCRIPT_FILE);
    const found = await readFile(candidate, 'utf8').catch(() => undefined);
    if (found !== undefined) return { text: found, source: candidate };
  }
  throw new TranscriptNotFoundError(`No ${TRANSCRIPT_FILE} in ${folder} or in a run folder inside it.`);
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
