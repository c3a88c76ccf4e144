import type { InstructionSource } from './source.js';
import type { InstructionsRecord } from '../transcript/events.js';

/** The most of one file that goes into the system prompt; the rest is cut and the report says so. */
export const MAX_INSTRUCTION_FILE_BYTES = 16 * 1024;
/** The most of all files together: Codex's own default (project_doc_max_bytes, 32 KiB), about 8k tokens. */
export const MAX_INSTRUCTION_TOTAL_BYTES = 32 * 1024;
/** Paths named in the task that are looked at: more is a paste of paths, not a place to work. */
export const MAX_TASK_PATHS = 8;
/** Folders deeper than this in a named path are not looked at (a file path rarely needs more). */
const MAX_FOLDER_DEPTH = 8;

/** One file whose text goes into the system prompt. */
export interface UsedInstructionFile {
  /** From the repository root, with forward slashes: `AGENTS.md`, `packages/api/AGENTS.md`. */
  readonly path: string;
  /** The folder it applies to ('' for the whole repository). */
  readonly folder: string;
  readonly text: string;
  /** The file's size, and how much of it was used (less when a cap cut it). */
  readonly bytes: number;
  readonly usedBytes: number;
}

/** A file that was there but is not (or not wholly) in the prompt, and why. */
export interface SkippedInstructionFile {
  readonly path: string;
  readonly reason: string;
}

/** What a run takes from the repository's instruction files, read once before its first request. */
export interface RepositoryInstructions {
  /** Where they were read: "the checkout", or "the base branch main at abc1234" for a pull request's base. */
  readonly source: string;
  /** In prompt order: the root first, then each folder after the folder above it (nearer files later). */
  readonly files: readonly UsedInstructionFile[];
  /** Files refused (a link, a FIFO, too big), left out when the total was reached, or duplicates. */
  readonly skipped: readonly SkippedInstructionFile[];
  /** Files cut to a cap: they are in `files` with usedBytes < bytes. Listed here for the report. */
  readonly cut: readonly SkippedInstructionFile[];
  /** Set when none could be read at all (the base could not be fetched): the run goes on without them. */
  readonly problem?: string;
}

/**
 * Reads the instruction files named in `names` in the root and in each folder the run works in.
 *
 * "The folders the run works in", for a headless run whose working folder is the repository root:
 * the root, and the folders of the paths the person's request names (`fix src/api/handler.ts`
 * adds `src` and `src/api`), each with the folders above it. They are known before the first
 * request, so the system prompt never changes during the run (the folders of files the agent reads
 * later would change it, and with it the whole prompt cache).
 *
 * The order is Codex's (https://developers.openai.com/codex/guides/agents-md, "How Codex discovers
 * guidance", read 2026-11-25): from the project root down to the working folder, files concatenated
 * root first, so "files closer to your current directory override earlier guidance because they
 * appear later in the combined prompt"; empty files are skipped, and files stop being added once
 * the combined size reaches project_doc_max_bytes (32 KiB by default). Nearest wins, as there: the
 * prompt says so. Unlike Codex, every name on the list is read in a folder (the list is the order
 * within it), since the three files are usually written for different tools; a file with the same
 * text as one already used is skipped.
 */
export async function readRepositoryInstructions(
  source: InstructionSource,
  names: readonly string[],
  request: string
): Promise<RepositoryInstructions> {
  const files: UsedInstructionFile[] = [];
  const skipped: SkippedInstructionFile[] = [];
  const cut: SkippedInstructionFile[] = [];
  if (names.length === 0) return { source: source.description, files, skipped, cut };
  let room = MAX_INSTRUCTION_TOTAL_BYTES;
  const seen = new Map<string, string>();
  for (const folder of await foldersToRead(source, request)) {
    for (const name of names) {
      const file = folder === '' ? name : `${folder}/${name}`;
      // Three bytes past the cap: a cut can then see whether it falls inside a UTF-8 character.
      const entry = await source.entry(file, MAX_INSTRUCTION_FILE_BYTES + 3);
      if (entry.kind === 'absent' || entry.kind === 'folder') continue;
      if (entry.kind === 'refused') {
        skipped.push({ path: file, reason: `not read: ${entry.reason}` });
        continue;
      }
      const whole = entry.bytes.toString('utf8');
      if (whole.trim() === '') continue;
      const twin = seen.get(whole);
      if (twin !== undefined) {
        skipped.push({ path: file, reason: `the same text as ${twin}, used once` });
        continue;
      }
      seen.set(whole, file);
      if (room === 0) {
        skipped.push({
          path: file,
          reason: `left out: the files before it filled the ${kib(MAX_INSTRUCTION_TOTAL_BYTES)} for all files`
        });
        continue;
      }
      const byTotal = room < Math.min(entry.size, MAX_INSTRUCTION_FILE_BYTES);
      const used = startOfText(entry.bytes, Math.min(room, MAX_INSTRUCTION_FILE_BYTES));
      room -= used.length;
      files.push({
        path: file,
        folder,
        text: used.toString('utf8'),
        bytes: entry.size,
        usedBytes: used.length
      });
      if (used.length < entry.size) {
        const limit = byTotal
          ? `${kib(MAX_INSTRUCTION_TOTAL_BYTES)} for all files`
          : `${kib(MAX_INSTRUCTION_FILE_BYTES)} per file`;
        cut.push({
          path: file,
          reason: `cut to its first ${n(used.length)} of ${n(entry.size)} bytes (at most ${limit})`
        });
      }
    }
  }
  return { source: source.description, files, skipped, cut };
}

function kib(bytes: number): string {
  return `${bytes / 1024} KiB`;
}

function n(bytes: number): string {
  return bytes.toLocaleString('en-US');
}

/** At most `maxBytes` of `bytes`, never ending inside a UTF-8 character. */
function startOfText(bytes: Buffer, maxBytes: number): Buffer {
  if (bytes.length <= maxBytes) return bytes;
  let end = maxBytes;
  // A continuation byte (10xxxxxx) at the cut means it fell inside a character: back up to its start.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/**
 * The root, then the folders of the paths the request names, each after the folder above it
 * (sorted by their path's parts, so `a` < `a/b` < `a/c`). Only folders that are there, as real
 * folders, in the source.
 */
async function foldersToRead(source: InstructionSource, request: string): Promise<string[]> {
  const folders = new Set<string>(['']);
  for (const named of pathsNamedIn(request)) {
    const parts = named.split('/').slice(0, MAX_FOLDER_DEPTH);
    for (let depth = 1; depth <= parts.length; depth++) {
      const folder = parts.slice(0, depth).join('/');
      if (folders.has(folder)) continue;
      const entry = await source.entry(folder, 0);
      if (entry.kind !== 'folder') break;
      folders.add(folder);
    }
  }
  return [...folders].sort(byPathParts);
}

function byPathParts(a: string, b: string): number {
  const left = a === '' ? [] : a.split('/');
  const right = b === '' ? [] : b.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    if (left[index] !== right[index]) return left[index]! < right[index]! ? -1 : 1;
  }
  return left.length - right.length;
}

/**
 * Relative paths in the request's words with at least one `/` (`src/api/`, `./lib/x.ts`), the way
 * people name where to work. Absolute paths, `..`, `.git` and URLs' hosts are dropped (a URL's path
 * names no folder here, and is not found). At most MAX_TASK_PATHS, in order of appearance.
 */
export function pathsNamedIn(request: string): string[] {
  const found: string[] = [];
  for (const match of request.matchAll(/(?<![\w./:@-])(?:\.\/)?([\w@.-]+(?:\/[\w@.-]+)+)\/?/g)) {
    const candidate = match[1]!;
    const parts = candidate.split('/');
    if (parts.some((part) => part === '..' || part === '.' || part === '.git')) continue;
    if (!found.includes(candidate)) found.push(candidate);
    if (found.length === MAX_TASK_PATHS) break;
  }
  return found;
}

/** What run_start records of them (the transcript's snake_case; the texts are in system_prompt). */
export function instructionsRecordOf(instructions: RepositoryInstructions): InstructionsRecord {
  return {
    source: instructions.source,
    files: instructions.files.map((file) => ({
      path: file.path,
      bytes: file.bytes,
      used_bytes: file.usedBytes
    })),
    skipped: instructions.skipped
  };
}

/** One line for the log: which files the system prompt holds, from where, and what was cut or left out. */
export function describeInstructions(instructions: RepositoryInstructions): string {
  if (instructions.problem !== undefined)
    return `Repository instructions: none used, because ${instructions.problem}.`;
  const used =
    instructions.files.length === 0 ? 'none found' : instructions.files.map((file) => file.path).join(', ');
  const notes = [...instructions.cut, ...instructions.skipped].map((note) => `${note.path}: ${note.reason}`);
  return `Repository instructions from ${instructions.source}: ${used}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}.`;
}
