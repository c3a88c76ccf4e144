import {
  loadTranscript,
  TranscriptNotFoundError,
  TranscriptPathMissingError,
  type LoadedTranscript
} from '../audit/load-transcript.js';
import { describeFileError } from '../files/file-problem.js';
import { fileError, usageError } from './exit-codes.js';

/** What both transcript commands accept, said after every problem with the PATH given. */
export const WHAT_TO_GIVE =
  'Give a run folder, a transcript.jsonl, a .transcripts folder or the downloaded artifact zip.';

/**
 * The transcript at the PATH given to `transcript` or `transcript verify`, read once through the
 * bounded loader, or the CliError both commands report: exit 2 when nothing is there, exit 3 when
 * something is there but cannot be used (README, "Exit codes").
 */
export async function loadTranscriptTarget(target: string): Promise<LoadedTranscript> {
  try {
    return await loadTranscript(target);
  } catch (error) {
    if (error instanceof TranscriptPathMissingError) throw usageError(`${error.message} ${WHAT_TO_GIVE}`);
    if (error instanceof TranscriptNotFoundError) throw fileError(`${error.message} ${WHAT_TO_GIVE}`);
    throw fileError(`${target} cannot be read (${describeFileError(error)}). ${WHAT_TO_GIVE}`);
  }
}
