import { closeSync, mkdirSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEvent } from './events.js';
import { openRegularFileForAppend } from '../security/safe-file.js';

export const TRANSCRIPT_FILE = 'transcript.jsonl';

/** Where transcript events go. The loop depends on this, so tests can collect events in memory. */
export interface TranscriptSink {
  append(event: TranscriptEvent): void;
}

export interface TranscriptWriterOptions {
  /** Applied to each serialized line before it reaches the disk (secret redaction plugs in here). */
  readonly redact?: (line: string) => string;
  readonly now?: () => Date;
}

/**
 * Appends one JSON line per event with a synchronous write, so a crash or a kill loses nothing that
 * was already said: each line is in the kernel before the loop moves on.
 */
export class TranscriptWriter implements TranscriptSink {
  readonly dir: string;
  readonly path: string;
  private readonly fd: number;
  private seq = 0;
  private closed = false;
  private readonly redact: (line: string) => string;
  private readonly now: () => Date;

  constructor(runDir: string, options: TranscriptWriterOptions = {}) {
    this.dir = runDir;
    this.path = path.join(runDir, TRANSCRIPT_FILE);
    mkdirSync(runDir, { recursive: true });
    this.fd = openRegularFileForAppend(this.path);
    this.redact = options.redact ?? ((line) => line);
    this.now = options.now ?? (() => new Date());
  }

  append(event: TranscriptEvent): void {
    if (this.closed) throw new Error(`Transcript ${this.path} is closed; cannot record ${event.type}.`);
    const line = JSON.stringify({ seq: this.seq++, time: this.now().toISOString(), ...event });
    writeSync(this.fd, `${this.redact(line)}\n`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
