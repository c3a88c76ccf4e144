import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_ZIP_LIMITS, unzip } from '../audit/zip-reader.js';
import { readRegularFile, UnreadableFileError } from '../files/bounded-file.js';
import { describeFileError } from '../files/file-problem.js';
import { boundedState, carriedStateSchema, type CarriedState } from './carried-state.js';

/** The carried state's file in a run folder and in the transcript artifact. */
export const STATE_FILE = 'carried-state.json';
/** Far above any bounded state: a larger file is not one this action wrote. */
const MAX_STATE_BYTES = 256 * 1024;
/** An artifact zip is refused when larger than everything it may expand to. */
const MAX_TARGET_BYTES = DEFAULT_ZIP_LIMITS.maxTotalBytes;
/** What to do about any path that cannot be used. */
const WHAT_TO_GIVE =
  'Point --resume at a run folder, a .transcripts folder or an artifact zip of a finished run.';

export class StateNotFoundError extends Error {}

/** The state as the file a run leaves: bounded, then redacted. */
export function stateFileText(state: CarriedState, redact: (text: string) => string): string {
  return `${redact(JSON.stringify(boundedState(state), null, 2))}\n`;
}

/**
 * The state of an earlier run, where a person would point: its run folder, a `.transcripts` folder
 * (its newest run that left one), or the downloaded transcript artifact zip. It is validated and
 * bounded like the state in a report comment; it is data for the next run, never instructions.
 */
export async function loadCarriedState(target: string): Promise<{ state: CarriedState; source: string }> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(target, MAX_TARGET_BYTES);
  } catch (error) {
    if (error instanceof UnreadableFileError && error.kind === 'folder') return fromFolder(target);
    throw stateProblem(target, error);
  }
  if (!bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])))
    return { state: parse(bytes, target), source: target };
  let entries: Map<string, Buffer>;
  try {
    entries = unzip(bytes);
  } catch (error) {
    throw new StateNotFoundError(`${target} is not a readable zip: ${(error as Error).message}`);
  }
  const newest = [...entries.keys()]
    .filter((name) => path.posix.basename(name) === STATE_FILE)
    .sort()
    .at(-1);
  if (!newest)
    throw new StateNotFoundError(
      `${target} holds no ${STATE_FILE}: it is not the artifact of a run that can be continued.`
    );
  return { state: parse(entries.get(newest)!, `${target}:${newest}`), source: `${target}:${newest}` };
}

async function fromFolder(folder: string): Promise<{ state: CarriedState; source: string }> {
  const direct = path.join(folder, STATE_FILE);
  const own = await readSmall(direct);
  if (own !== undefined) return { state: parse(own, direct), source: direct };
  const listing = await readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
    throw new StateNotFoundError(
      `${folder} cannot be listed: ${describeFileError(error, 'folder')}. ${WHAT_TO_GIVE}`
    );
  });
  const runs = listing
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .reverse();
  for (const run of runs) {
    const candidate = path.join(folder, run, STATE_FILE);
    const found = await readSmall(candidate);
    if (found !== undefined) return { state: parse(found, candidate), source: candidate };
  }
  throw new StateNotFoundError(`No ${STATE_FILE} in ${folder} or in a run folder inside it. ${WHAT_TO_GIVE}`);
}

/** Undefined only when the file is not there; a folder, a FIFO, a too-big or unreadable file says why. */
async function readSmall(file: string): Promise<Buffer | undefined> {
  try {
    return await readRegularFile(file, MAX_STATE_BYTES);
  } catch (error) {
    if (error instanceof UnreadableFileError && error.kind === 'missing') return undefined;
    throw stateProblem(file, error);
  }
}

/** One wording for every path that cannot be used (file-problem.ts), and what to do about it. */
function stateProblem(file: string, error: unknown): StateNotFoundError {
  if (!(error instanceof UnreadableFileError))
    return new StateNotFoundError(`${file} cannot be read: ${describeFileError(error)}. ${WHAT_TO_GIVE}`);
  switch (error.kind) {
    case 'missing':
      return new StateNotFoundError(`${file} does not exist (${error.reason}). ${WHAT_TO_GIVE}`);
    case 'folder':
    case 'not-regular':
      return new StateNotFoundError(`${file} is not a regular file: ${error.reason}. ${WHAT_TO_GIVE}`);
    case 'too-big':
    case 'unreadable':
      return new StateNotFoundError(`${file} cannot be read: ${error.reason}. ${WHAT_TO_GIVE}`);
  }
}

function parse(bytes: Buffer, source: string): CarriedState {
  if (bytes.length > MAX_STATE_BYTES)
    throw new StateNotFoundError(`${source} is too large to be a carried state.`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new StateNotFoundError(`${source} is not valid JSON.`);
  }
  const parsed = carriedStateSchema.safeParse(value);
  if (!parsed.success)
    throw new StateNotFoundError(
      `${source} does not match the carried state's schema (${parsed.error.issues[0]?.message ?? 'invalid'}).`
    );
  return parsed.data;
}
