import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderHtmlReport } from '../audit/html-report.js';
import { auditSummary, renderTerminalSummary } from '../audit/terminal-summary.js';
import type { CliCommand, CliIo, Invocation } from './command.js';
import { EXIT, fileError, usageError } from './exit-codes.js';
import { loadTranscriptTarget, WHAT_TO_GIVE } from './transcript-target.js';
import { describeFileError } from '../files/file-problem.js';
import { terminalSafe } from '../audit/terminal-text.js';
import { describeVerdict, verifyChain } from '../transcript/verify-chain.js';

const TRANSCRIPT_HELP = `Usage: compact-agent transcript PATH|RUN-URL [--json] [--html FILE]

Reads the transcript of a run and prints the task, stop reason, turns, tokens and cost, the compactions,
the tools used and the files changed. PATH is a run folder, a transcript.jsonl, a .transcripts folder
(its newest run) or the artifact zip downloaded from the workflow run. RUN-URL is the run's page
(https://github.com/OWNER/REPO/actions/runs/ID): its transcript artifact is downloaded with the token in
GITHUB_TOKEN or GH_TOKEN (or gh auth token), which needs "Actions: read". GitHub Enterprise Server:
set GITHUB_SERVER_URL and GITHUB_API_URL.

Flags:
  --json        print the summary as JSON, for scripts
  --html FILE   also write a self-contained HTML report (timeline, context chart, compactions)
  --debug       show the stack trace of an unexpected error
  -h, --help    show this help

Examples:
  compact-agent transcript .transcripts
  compact-agent transcript agent-transcripts-4242-1.zip --html report.html
  compact-agent transcript .transcripts/20260101T120000Z-ab12cd --json | jq .cost_usd
  compact-agent transcript https://github.com/octo-org/octo-repo/actions/runs/4242

Exit codes: 0 printed, 2 no PATH or it does not exist (or a URL of another host, or no token),
3 not a transcript, the report cannot be written, or GitHub refused or has no transcript for the run.`;

export const TRANSCRIPT_COMMAND: CliCommand = {
  name: 'transcript',
  summary: 'summarise a run from its transcript (terminal, JSON or an HTML report)',
  help: TRANSCRIPT_HELP,
  stringFlags: ['html'],
  booleanFlags: ['json'],
  maxPositionals: 1,
  execute: (invocation, io) => transcriptCommand(invocation, io)
};

/** `compact-agent transcript PATH`: what the agent did, what it forgot, what it cost. */
export async function transcriptCommand(invocation: Invocation, io: CliIo): Promise<number> {
  const target = invocation.positionals[0];
  const html = invocation.values.get('html');
  if (!target) throw usageError(`Which transcript? ${WHAT_TO_GIVE}`);
  const loaded = await loadTranscriptTarget(target, { io, withReport: false });
  const { audit } = loaded;
  if (html !== undefined) await checkReportPath(html);
  // The reader shows what it can of a tampered transcript, but says so first.
  const chain = verifyChain(loaded.text);
  const remoteRun = loaded.remote?.run.runId;
  if (remoteRun !== undefined && audit.runId?.split('-')[0] !== String(remoteRun))
    io.stderr(
      terminalSafe(
        `⚠️ ${loaded.source} holds the transcript of run ${audit.runId ?? '(none)'}, not of run ${remoteRun} the URL names: it is not this run's record.`
      )
    );
  if (chain.status === 'broken') io.stderr(terminalSafe(`⚠️ ${describeVerdict(chain, loaded.source)}`));
  if (html !== undefined) {
    await writeFile(html, renderHtmlReport(audit)).catch((error: unknown) => {
      throw fileError(`--html ${html}: the report cannot be written (${describeFileError(error)}).`);
    });
    io.stderr(`Wrote ${html}`);
  }
  io.stdout(
    invocation.switches.has('json')
      ? JSON.stringify(auditSummary(audit), null, 2)
      : // The source names a zip entry, and the summary quotes the transcript: neither may drive the terminal.
        terminalSafe(renderTerminalSummary(audit, loaded.source))
  );
  return EXIT.success;
}

/** Checked before the report is built, so a typo in --html is said before anything is written. */
export async function checkReportPath(file: string, flag = '--html'): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  const example = flag === '--csv' ? 'ledger.csv' : 'report.html';
  if (info?.isDirectory())
    throw fileError(`${flag} ${file}: this is a folder; give a file name, e.g. ${example}.`);
  const folder = path.dirname(path.resolve(file));
  const parent = await stat(folder).catch(() => undefined);
  if (!parent?.isDirectory()) {
    throw fileError(
      `${flag} ${file}: the folder ${folder} does not exist. Create it or choose another path.`
    );
  }
}
