import { closeSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CompactionEvent } from '../compaction/compactor.js';
import { writeAll } from '../files/unfollowed-file.js';
import { openRegularFileForAppend } from '../security/safe-file.js';
import { errorMessage } from '../errors/error-message.js';

export const COMPACTION_LOG_FILE = 'compaction-log.jsonl';

export interface CompactionLogWriter {
  readonly path: string;
  append(event: CompactionEvent): void;
  /** Every line written, kept by the action: the artifact's copy comes from here. */
  lines(): readonly string[];
  /** Why the workspace copy stopped being written (a full disk, say), if it did. */
  readonly diskError: string | undefined;
  close(): void;
}

/**
 * Appends each compaction event to `<run>/compaction-log.jsonl`, one JSON object per line. The file
 * is opened once, before the agent runs, so a link planted at that path later is never followed.
 */
export function compactionLogWriter(
  runDir: string,
  redact: (line: string) => string = (line) => line
): CompactionLogWriter {
  const file = path.join(runDir, COMPACTION_LOG_FILE);
  mkdirSync(runDir, { recursive: true });
  // A FIFO, link or hard link already at the path is refused instead of written through.
  const fd = openRegularFileForAppend(file);
  const written: string[] = [];
  let diskError: string | undefined;
  let closed = false;
  return {
    path: file,
    append(event: CompactionEvent): void {
      const line = redact(JSON.stringify(event));
      written.push(line);
      if (closed || diskError !== undefined) return;
      try {
        writeAll(fd, `${line}\n`);
      } catch (error) {
        // A full disk: the lines in memory still reach the artifact.
        diskError = errorMessage(error);
      }
    },
    lines: () => written,
    get diskError() {
      return diskError;
    },
    close(): void {
      if (closed) return;
      closed = true;
      closeSync(fd);
    }
  };
}
