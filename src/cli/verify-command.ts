import { loadTranscript, TranscriptNotFoundError } from '../audit/load-transcript.js';
import { describeVerdict, verifyChain } from '../transcript/verify-chain.js';
import type { CliIo } from './run-command.js';

export interface VerifyOptions {
  readonly target: string | undefined;
  /** The head hash from the report or the `transcript_head` output; without it, truncation at the end goes unseen. */
  readonly head: string | undefined;
}

const HEAD = /^[0-9a-f]{64}$/;

/**
 * `compact-agent transcript verify PATH [--head HASH]`: checks the transcript's hash chain.
 * 0 when intact (and ending at the head given), 1 when tampered, truncated or unchained, 2 on bad use.
 */
export async function verifyCommand(
  options: VerifyOptions,
  io: Pick<CliIo, 'stdout' | 'stderr'>
): Promise<number> {
  if (!options.target) {
    io.stderr(
      'Which transcript? Give a run folder, a .transcripts folder, a transcript.jsonl or the downloaded artifact zip, e.g. compact-agent transcript verify agent-transcripts.zip --head <hash>.'
    );
    return 2;
  }
  if (options.head !== undefined && !HEAD.test(options.head)) {
    io.stderr(
      `--head must be the 64-character lowercase hex hash from the run's report or its transcript_head output; "${options.head}" is not.`
    );
    return 2;
  }
  let loaded;
  try {
    loaded = await loadTranscript(options.target);
  } catch (error) {
    if (error instanceof TranscriptNotFoundError) {
      io.stderr(error.message);
      return 2;
    }
    throw error;
  }
  const verdict = verifyChain(loaded.text, options.head);
  const message = describeVerdict(verdict, loaded.source);
  if (verdict.status === 'intact') {
    io.stdout(options.head ? `${message} It ends at the head given.` : message);
    return 0;
  }
  io.stderr(message);
  return 1;
}
