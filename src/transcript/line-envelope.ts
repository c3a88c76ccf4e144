import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * The one definition of a transcript line's envelope, shared by the writer and every reader.
 *
 * Each line is a JSON object whose last two fields chain it to the line before:
 * `prev` (the previous line's hash, or GENESIS_HASH on the first line) and
 * `hash` = sha256(prev + body), where body is the line exactly as written, minus its `,"hash":"…"`.
 * Hashing the text as written, not a re-serialization, means no canonical-JSON rules to agree on.
 */
export const GENESIS_HASH = '0'.repeat(64);

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lowercase hex');

/** What every line carries besides its event's own fields. */
export const lineEnvelope = z.looseObject({
  seq: z.number().int().nonnegative(),
  time: z.string().min(1),
  type: z.string().min(1),
  prev: sha256Hex.optional(),
  hash: sha256Hex.optional()
});

export type LineEnvelope = z.infer<typeof lineEnvelope>;

/** A line the current writer produced: the chain fields are there. */
export const chainedLineEnvelope = lineEnvelope.extend({ prev: sha256Hex, hash: sha256Hex });

const HASH_SUFFIX = /,"hash":"([0-9a-f]{64})"\}$/;

export function chainHash(prev: string, body: string): string {
  return createHash('sha256').update(prev).update(body).digest('hex');
}

/**
 * Seals a serialized (and already redacted) line: `body` must be a JSON object whose last field is
 * `prev`. Returns the line to write and its hash, the next line's `prev`.
 */
export function sealLine(body: string, prev: string): { line: string; hash: string } {
  if (!body.endsWith('}')) throw new Error('A transcript line must be a JSON object.');
  const hash = chainHash(prev, body);
  return { line: `${body.slice(0, -1)},"hash":"${hash}"}`, hash };
}

/** Splits a written line into the body that was hashed and the hash it claims; undefined when it has none. */
export function unsealLine(line: string): { body: string; hash: string } | undefined {
  const match = HASH_SUFFIX.exec(line);
  if (!match) return undefined;
  return { body: `${line.slice(0, match.index)}}`, hash: match[1]! };
}
