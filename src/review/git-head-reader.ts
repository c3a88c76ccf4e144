import type { GitRepository } from '../git/repository.js';
import { GitCommitSource } from '../instructions/git-source.js';
import { MAX_INSTRUCTION_FILE_READ_BYTES } from '../instructions/source.js';
import type { ReadHead } from './placement.js';

/** The bytes looked at for a NUL, as the findings tool does: a binary file takes no suggestion. */
const BINARY_SNIFF_BYTES = 8000;

/**
 * The head's text of the files the findings stand on, read from the commit (not the working tree,
 * which may hold edits the review does not cover) through the action's own git. Placement reads
 * synchronously, so the texts are read first; a link, a submodule, a binary file or one past the
 * size limit reads as undefined, and its suggestions are shown as plain text.
 */
export async function gitHeadReader(
  git: GitRepository,
  commit: string,
  paths: readonly string[]
): Promise<ReadHead> {
  const source = new GitCommitSource(git, commit, `HEAD at ${commit.slice(0, 7)}`);
  const texts = new Map<string, string>();
  for (const path of new Set(paths)) {
    const text = await readText(source, path);
    if (text !== undefined) texts.set(path, text);
  }
  return (path) => texts.get(path);
}

async function readText(source: GitCommitSource, path: string): Promise<string | undefined> {
  try {
    const entry = await source.entry(path, MAX_INSTRUCTION_FILE_READ_BYTES);
    if (entry.kind !== 'file' || entry.bytes.length < entry.size) return undefined;
    return entry.bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0) ? undefined : entry.bytes.toString('utf8');
  } catch {
    return undefined;
  }
}
