import { writeFile } from 'node:fs/promises';
import { loadTranscript, TranscriptNotFoundError } from '../audit/load-transcript.js';
import { renderHtmlReport } from '../audit/html-report.js';
import { parseTranscript } from '../audit/parse-transcript.js';
import { auditSummary, renderTerminalSummary } from '../audit/terminal-summary.js';
import { describeVerdict, verifyChain } from '../transcript/verify-chain.js';
import type { CliIo } from './run-command.js';

export interface TranscriptOptions {
  readonly target: string | undefined;
  readonly json: boolean;
  readonly html: string | undefined;
}

/** `compact-agent transcript PATH`: what the agent did, what it forgot, what it cost. */
export async function transcriptCommand(options: TranscriptOptions, io: CliIo): Promise<number> {
  if (!options.target) {
    io.stderr('Which transcript? Give a run folder, a transcript.jsonl, or the downloaded artifact zip.');
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
  const audit = parseTranscript(loaded.text);
  // The reader shows what it can of a tampered transcript, but says so first.
  const chain = verifyChain(loaded.text);
  if (chain.status === 'broken') io.stderr(`⚠️ ${describeVerdict(chain, loaded.source)}`);
  if (options.html) {
    await writeFile(options.html, renderHtmlReport(audit));
    io.stderr(`Wrote ${options.html}`);
  }
  io.stdout(
    options.json ? JSON.stringify(auditSummary(audit), null, 2) : renderTerminalSummary(audit, loaded.source)
  );
  return 0;
}
