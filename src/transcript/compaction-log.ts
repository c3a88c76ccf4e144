import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CompactionEvent } from '../compaction/compactor.js';
import { appendToRegularFile } from '../security/safe-file.js';

export const COMPACTION_LOG_FILE = 'compaction-log.jsonl';

/** Appends each compaction event to `<run>/compaction-log.jsonl`, one JSON object per line. */
export function compactionLogWriter(runDir: string, redact: (line: string) => string = (line) => line) {
  const file = path.join(runDir, COMPACTION_LOG_FILE);
  mkdirSync(runDir, { recursive: true });
  return {
    path: file,
    append(event: CompactionEvent): void {
      appendToRegularFile(file, `${redact(JSON.stringify(event))}\n`);
    }
  };
}
