import {
  loadTranscript,
  TranscriptNotFoundError,
  TranscriptPathMissingError,
  type LoadedTranscript
} from '../audit/load-transcript.js';
import { parseTranscript } from '../audit/parse-transcript.js';
import type { RunAudit } from '../audit/run-audit.js';
import { describeFileError } from '../files/file-problem.js';
import { looksLikeUrl } from '../github/api/github-location.js';
import type { CliIo } from './command.js';
import { fileError, usageError } from './exit-codes.js';
import { DEFAULT_BOT_LOGIN, loadRunTranscript, type RunTranscript } from './run-url-target.js';

/** What both transcript commands accept, said after every problem with the PATH given. */
export const WHAT_TO_GIVE =
  "Give a run folder, a transcript.jsonl, a .transcripts folder, the downloaded artifact zip, or the run's URL (https://github.com/OWNER/REPO/actions/runs/ID).";

/** A transcript found at a PATH and recognised as one: its text, where it was read, and what it says. */
export interface TargetTranscript extends LoadedTranscript {
  readonly audit: RunAudit;
  /** For a run's URL: the run and the report comment that published its head (when asked for and found). */
  readonly remote?: RunTranscript;
}

/** How a run's URL is read: the environment (token, GitHub host), where progress goes, and the report's bot. */
export interface RemoteTarget {
  readonly io: Pick<CliIo, 'stderr' | 'env'>;
  readonly withReport: boolean;
  readonly botLogin?: string | undefined;
}

/**
 * The transcript at the PATH given to `transcript` or `transcript verify`, read once through the
 * bounded loader and recognised as a transcript, or the CliError both commands report in the same
 * words: exit 2 when nothing is there, exit 3 when something is there but cannot be used, including
 * a file that is no transcript (docs/cli.md, "Exit codes").
 */
export async function loadTranscriptTarget(target: string, remote?: RemoteTarget): Promise<TargetTranscript> {
  if (remote && looksLikeUrl(target)) {
    const run = await loadRunTranscript(target, remote.io, {
      withReport: remote.withReport,
      botLogin: remote.botLogin ?? DEFAULT_BOT_LOGIN
    });
    const audit = parseTranscript(run.text);
    refuseNonTranscript(audit, run);
    return { text: run.text, source: run.source, audit, remote: run };
  }
  const loaded = await load(target);
  const audit = parseTranscript(loaded.text);
  refuseNonTranscript(audit, loaded);
  return { ...loaded, audit };
}

async function load(target: string): Promise<LoadedTranscript> {
  try {
    return await loadTranscript(target);
  } catch (error) {
    if (error instanceof TranscriptPathMissingError) throw usageError(`${error.message} ${WHAT_TO_GIVE}`);
    if (error instanceof TranscriptNotFoundError) throw fileError(`${error.message} ${WHAT_TO_GIVE}`);
    throw fileError(`${target} cannot be read (${describeFileError(error)}). ${WHAT_TO_GIVE}`);
  }
}

/**
 * A transcript has events (lines that match the events' schema) and says which run it is or what the
 * turns were. Anything else (a package.json, a log, an empty file) is refused rather than summarised
 * as an empty run or verified as a chain of nothing.
 */
function refuseNonTranscript(audit: RunAudit, loaded: LoadedTranscript): void {
  const events = audit.lineCount - audit.skippedLines.length;
  if (events > 0 && (audit.runId !== undefined || audit.timeline.length > 0)) return;
  const first = audit.skippedLines[0];
  const detail =
    audit.lineCount === 0
      ? 'the file is empty'
      : events === 0
        ? `none of its ${audit.lineCount} lines is a transcript event${first ? ` (line ${first.line}: ${first.reason})` : ''}`
        : 'it has no run_start event and no turns';
  throw fileError(`${loaded.source} is not a compact-agent transcript: ${detail}. ${WHAT_TO_GIVE}`);
}
