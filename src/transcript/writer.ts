import { closeSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { TranscriptEvent, UnrecordedEvent } from './events.js';
import { writeAll } from '../files/unfollowed-file.js';
import { openRegularFileForAppend } from '../security/safe-file.js';
import { GENESIS_HASH, sealLine } from './line-envelope.js';
import { errorMessage } from '../errors/error-message.js';

export const TRANSCRIPT_FILE = 'transcript.jsonl';

/** Where transcript events go. The loop depends on this, so tests can collect events in memory. */
export interface TranscriptSink {
  append(event: TranscriptEvent): void;
}

/** The writer's own record of what it wrote: the artifact is built from it, not from the workspace. */
export interface TranscriptRecord {
  /** The file in the workspace (which the agent can reach). */
  readonly path: string;
  /** The last line's hash: it vouches for every line before it. */
  readonly head: string;
  /** Every line written, exactly, without its newline. */
  lines(): readonly string[];
  /** Why the workspace copy stopped being written (a full disk, say), if it did. */
  readonly diskError?: string | undefined;
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
export class TranscriptWriter implements TranscriptSink, TranscriptRecord {
  readonly dir: string;
  readonly path: string;
  private readonly fd: number;
  private seq = 0;
  private closed = false;
  private readonly redact: (line: string) => string;
  private readonly now: () => Date;
  private readonly written: string[] = [];
  private lastHash = GENESIS_HASH;
  private diskFailure: string | undefined;

  constructor(runDir: string, options: TranscriptWriterOptions = {}) {
    this.dir = runDir;
    this.path = path.join(runDir, TRANSCRIPT_FILE);
    mkdirSync(runDir, { recursive: true });
    this.fd = openRegularFileForAppend(this.path);
    this.redact = options.redact ?? ((line) => line);
    this.now = options.now ?? (() => new Date());
  }

  get head(): string {
    return this.lastHash;
  }

  lines(): readonly string[] {
    return this.written;
  }

  /** Why the workspace copy stopped being written (a full disk, say); the record in memory goes on. */
  get diskError(): string | undefined {
    return this.diskFailure;
  }

  append(event: TranscriptEvent): void {
    if (this.closed) throw new Error(`Transcript ${this.path} is closed; cannot record ${event.type}.`);
    const line = this.seal(event);
    // Memory first: whatever happens to the disk or the file, the action keeps the line.
    this.written.push(line);
    if (this.diskFailure === undefined) {
      try {
        // A write cut short is a disk error too (the disk filled up half-way through the line).
        writeAll(this.fd, `${line}\n`);
      } catch (error) {
        this.diskFailure = errorMessage(error);
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** Serializes, redacts, then chains: the chain fields are added after redaction, so it never touches them. */
  private seal(event: TranscriptEvent): string {
    const seq = this.seq++;
    const time = this.now().toISOString();
    let body = this.redact(JSON.stringify({ seq, time, ...event }));
    if (!body.endsWith('}')) {
      // Redaction ate the object's end; keep the chain whole with a line that says so.
      const unrecorded: UnrecordedEvent = { type: event.type, unreadable: 'redaction broke this line' };
      body = JSON.stringify({ seq, time, ...unrecorded });
    }
    const sealed = sealLine(`${body.slice(0, -1)},"prev":"${this.lastHash}"}`, this.lastHash);
    this.lastHash = sealed.hash;
    return sealed.line;
  }
}
