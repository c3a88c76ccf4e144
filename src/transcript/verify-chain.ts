import { chainedLineEnvelope, chainHash, GENESIS_HASH, unsealLine } from './line-envelope.js';

/** What a check of a transcript's hash chain found. Line numbers count from 1, as an editor shows them. */
export type ChainVerdict =
  | { readonly status: 'intact'; readonly lines: number; readonly head: string; readonly ended: boolean }
  /** Written before transcripts were chained: nothing to check. */
  | { readonly status: 'unchained'; readonly lines: number }
  | { readonly status: 'broken'; readonly line: number; readonly reason: string; readonly lines: number }
  /** Empty, or lines that are not transcript events at all. */
  | { readonly status: 'not_transcript'; readonly reason: string };

/**
 * Walks the chain line by line: each line must name the previous line's hash as `prev`, and its own
 * `hash` must be the hash of what it says. With `expectedHead` (from the report or the action's
 * output), the last line must be that head, which also catches lines removed from the end.
 */
export function verifyChain(text: string, expectedHead?: string): ChainVerdict {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) {
    return expectedHead === undefined
      ? { status: 'not_transcript', reason: 'the file is empty' }
      : { status: 'broken', line: 1, reason: 'every line was removed', lines: 0 };
  }
  if (lines.every((line) => unsealLine(line) === undefined) && expectedHead === undefined) {
    // Old transcripts had no chain, but were still transcript events; anything else is not one.
    const foreign = lines.findIndex((line) => !isTranscriptEvent(line));
    return foreign === -1
      ? { status: 'unchained', lines: lines.length }
      : { status: 'not_transcript', reason: `line ${foreign + 1} is not a transcript event` };
  }
  const broken = (index: number, reason: string): ChainVerdict => ({
    status: 'broken',
    line: index + 1,
    reason,
    lines: lines.length
  });
  const hashes: string[] = [];
  let prev = GENESIS_HASH;
  let ended = false;
  for (const [index, line] of lines.entries()) {
    const sealed = unsealLine(line);
    if (!sealed) return broken(index, 'it has no hash: it was rewritten, inserted or cut off');
    let envelope;
    try {
      envelope = chainedLineEnvelope.omit({ hash: true }).safeParse(JSON.parse(sealed.body));
    } catch {
      return broken(index, 'it is not valid JSON');
    }
    if (!envelope.success)
      return broken(index, 'it is not a transcript line (seq, time, type or prev is missing)');
    if (envelope.data.prev !== prev) {
      return broken(
        index,
        index === 0
          ? 'it is not the first line of a transcript: lines were removed from the start'
          : `it does not follow line ${index}: a line was removed, inserted or moved before it`
      );
    }
    if (chainHash(prev, sealed.body) !== sealed.hash) {
      return broken(index, 'its content was changed after it was written (its hash does not match)');
    }
    if (envelope.data.seq !== index) return broken(index, `its seq is ${envelope.data.seq}, not ${index}`);
    ended = envelope.data.type === 'run_end';
    prev = sealed.hash;
    hashes.push(prev);
  }
  if (expectedHead !== undefined && prev !== expectedHead) {
    const at = hashes.indexOf(expectedHead);
    if (at >= 0)
      return broken(at + 1, `the run ended at line ${at + 1} (the head given); lines were added after it`);
    return broken(
      lines.length,
      `it is missing: the chain ends at line ${lines.length}, not at the head given; lines were removed from the end, or this is another run's transcript`
    );
  }
  return { status: 'intact', lines: lines.length, head: prev, ended };
}

/** One paragraph for a person: what the check found and what it means. */
export function describeVerdict(verdict: ChainVerdict, source: string): string {
  switch (verdict.status) {
    case 'intact':
      return `${source}: the hash chain is intact (${verdict.lines} lines, head ${verdict.head}).${
        verdict.ended
          ? ''
          : ' It has no run_end line: the run did not finish, or lines were removed from the end; pass --head from the report to tell.'
      }`;
    case 'unchained':
      return `${source}: this transcript has no hash chain (it was written by an older compact-agent), so it cannot be verified.`;
    case 'not_transcript':
      return `${source} is not a compact-agent transcript: ${verdict.reason}. Give a run folder, a transcript.jsonl, a .transcripts folder or the downloaded artifact zip.`;
    case 'broken':
      return `${source}: the transcript was tampered with or truncated. Line ${verdict.line} is the first bad line (the file has ${verdict.lines}): ${verdict.reason}.`;
  }
}

/** A JSON object with a string `type`: what every transcript line is, chained or not. */
function isTranscriptEvent(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return (
      typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
    );
  } catch {
    return false;
  }
}
