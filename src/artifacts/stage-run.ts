import { createHash } from 'node:crypto';
import { closeSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileErrorCode } from '../files/file-problem.js';
import {
  describeDescriptor,
  openUnfollowed,
  plainFileProblem,
  readAtMost
} from '../files/unfollowed-file.js';
import { COMPACTION_LOG_FILE } from '../transcript/compaction-log.js';
import type { WrittenFile } from '../transcript/written-files.js';
import { TRANSCRIPT_FILE, type TranscriptRecord } from '../transcript/writer.js';

/** What the action itself recorded of a run: the only source of the artifact. */
export interface RunRecords {
  /** The run folder in the workspace; its name is the artifact's top folder. */
  readonly runDir: string;
  readonly transcript: TranscriptRecord;
  readonly compactionLog: {
    readonly path: string;
    lines(): readonly string[];
    readonly diskError?: string | undefined;
  };
  /** Segments and spilled tool results, as written. */
  readonly files: readonly WrittenFile[];
}

export interface StageOptions {
  readonly redact: (text: string) => string;
  /** Files the action holds in memory, such as a fork's changes.patch, by name in the run folder. */
  readonly extraFiles?: ReadonlyArray<{ readonly name: string; readonly text: string }>;
  /** Where the private staging folder is made: RUNNER_TEMP on a runner, else the system's temp folder. */
  readonly parentDir?: string;
}

export interface StagedArtifact {
  /** The private folder to upload (mode 0700, made fresh for this upload). */
  readonly dir: string;
  /** The files staged, absolute; the upload takes exactly these. */
  readonly files: readonly string[];
  /** What the agent changed in the workspace copy of the run's files, one sentence each. */
  readonly findings: readonly string[];
  /** Workspace copies the action itself could not finish writing (a full disk): not tampering. */
  readonly incomplete: readonly string[];
  remove(): Promise<void>;
}

/**
 * Builds the artifact from the action's own records, in a fresh private folder: the transcript and
 * compaction log from memory, and each segment or spill only if the file at its path is still the
 * one the action wrote (same inode, one link, same size and sha256), opened without following links.
 * Everything is redacted on the way in. Whatever the agent did to `.transcripts/` (a link to $HOME,
 * a planted credentials file, a hard link, a rewritten or deleted transcript) changes nothing here,
 * and each difference it finds in the workspace is reported.
 */
export async function stageRunArtifact(records: RunRecords, options: StageOptions): Promise<StagedArtifact> {
  const dir = await mkdtemp(path.join(options.parentDir ?? tmpdir(), 'compact-agent-artifact-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    return await stageInto(dir, records, options, remove);
  } catch (error) {
    await remove().catch(() => undefined);
    throw error;
  }
}

async function stageInto(
  dir: string,
  records: RunRecords,
  options: StageOptions,
  remove: () => Promise<void>
): Promise<StagedArtifact> {
  const runName = safeName(path.basename(records.runDir));
  const staged: string[] = [];
  const findings: string[] = [];
  const incomplete: string[] = [];
  // A copy the action stopped writing (its disk failed) is short for that reason, not tampered with.
  const compare = (record: RunRecords['compactionLog'], text: string, name: string) => {
    if (record.diskError === undefined)
      return findings.push(...compareWorkspaceCopy(record.path, text, name));
    return incomplete.push(
      `${name} in the workspace is incomplete because the action could not write to the disk (${record.diskError}); the artifact holds the action's full copy.`
    );
  };
  // JSON lines are redacted line by line, so a pattern can never join two lines (or touch the chain).
  const redactText = (text: string, jsonLines: boolean) =>
    jsonLines ? text.split('\n').map(options.redact).join('\n') : options.redact(text);
  const stage = async (relative: string, text: string, jsonLines = false) => {
    const target = path.join(dir, runName, relative);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(target, redactText(text, jsonLines), { flag: 'wx', mode: 0o600 });
    staged.push(target);
  };

  const transcript = joinLines(records.transcript.lines());
  await stage(TRANSCRIPT_FILE, transcript, true);
  compare(records.transcript, transcript, TRANSCRIPT_FILE);
  const log = joinLines(records.compactionLog.lines());
  if (log !== '') await stage(COMPACTION_LOG_FILE, log, true);
  compare(records.compactionLog, log, COMPACTION_LOG_FILE);

  for (const file of records.files) {
    if (file.relative.startsWith('..') || path.isAbsolute(file.relative)) continue;
    const read = readAsWritten(file);
    if (typeof read === 'string') {
      findings.push(`${file.relative} ${read}; it is left out of the artifact.`);
      continue;
    }
    await stage(file.relative, read.toString('utf8'));
  }
  for (const extra of options.extraFiles ?? []) await stage(safeName(extra.name), extra.text);
  return { dir, files: staged, findings, incomplete, remove };
}

function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** A name that stays one path segment inside the staging folder. */
function safeName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'run' : cleaned;
}

/** Reads a recorded file only if it is still the regular, single-link file the action wrote. */
function readAsWritten(file: WrittenFile): Buffer | string {
  let fd: number;
  try {
    fd = openUnfollowed(file.path, 'read');
  } catch (error) {
    const code = fileErrorCode(error);
    if (code === 'ENOENT') return 'was removed from the workspace after the action wrote it';
    if (code === 'ELOOP') return 'was replaced by a symbolic link';
    return `could not be opened (${code ?? String(error)})`;
  }
  try {
    const info = describeDescriptor(fd);
    const problem = plainFileProblem(info, { key: file });
    if (problem === 'not-regular') return 'was replaced by something that is not a regular file';
    if (problem === 'links') return `has ${info.nlink} hard links (another name could change it)`;
    if (problem === 'other-file') return 'was replaced by another file';
    if (info.size !== BigInt(file.size)) return 'changed size after the action wrote it';
    const bytes = readAtMost(fd, file.size);
    if (createHash('sha256').update(bytes).digest('hex') !== file.sha256)
      return 'was rewritten after the action wrote it';
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * Compares the workspace copy of a log with the action's own. Only for the report: the artifact
 * never takes the workspace copy. Reads at most one byte more than expected, whatever is there.
 */
function compareWorkspaceCopy(file: string, expected: string, name: string): string[] {
  const expectedBytes = Buffer.from(expected, 'utf8');
  let fd: number;
  try {
    fd = openUnfollowed(file, 'read');
  } catch (error) {
    const code = fileErrorCode(error);
    if (code === 'ENOENT' && expected === '') return [];
    const what =
      code === 'ENOENT'
        ? 'was removed'
        : code === 'ELOOP'
          ? 'was replaced by a symbolic link'
          : `could not be read (${code})`;
    return [`${name} in the workspace ${what}; the artifact holds the action's own copy.`];
  }
  try {
    const info = describeDescriptor(fd);
    if (!info.isFile())
      return [
        `${name} in the workspace was replaced by something that is not a file; the artifact holds the action's own copy.`
      ];
    const actual = readAtMost(fd, Math.min(Number(info.size), expectedBytes.length + 1));
    if (actual.equals(expectedBytes) && info.size === BigInt(expectedBytes.length)) return [];
    const line = firstDifferentLine(actual.toString('utf8'), expected);
    return [
      `${name} in the workspace differs from what the action wrote, from line ${line} on (rewritten, removed or added lines); the artifact holds the action's own copy.`
    ];
  } finally {
    closeSync(fd);
  }
}

function firstDifferentLine(actual: string, expected: string): number {
  const a = actual.split('\n');
  const b = expected.split('\n');
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index + 1;
}
