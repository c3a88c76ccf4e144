import { terminalSafe } from '../audit/terminal-text.js';
import { describeVerdict, verifyChain } from '../transcript/verify-chain.js';
import type { CliCommand, CliIo } from './command.js';
import { CliError, EXIT } from './exit-codes.js';
import { loadTranscriptTarget, WHAT_TO_GIVE, type TargetTranscript } from './transcript-target.js';

export interface VerifyOptions {
  readonly target: string | undefined;
  /** The head hash from the report or the `transcript_head` output; without it, truncation at the end goes unseen. */
  readonly head: string | undefined;
  /** For a run's URL: the token and GitHub host (default process.env), and the bot whose report publishes the head. */
  readonly env?: NodeJS.ProcessEnv;
  readonly bot?: string | undefined;
}

const HEAD = /^[0-9a-f]{64}$/;

/**
 * `compact-agent transcript verify PATH [--head HASH]`: checks the transcript's hash chain.
 * The exit codes of docs/cli.md: 0 when intact (and ending at the head given), 1 when tampered, truncated or
 * unchained, 2 on bad use, 3 when the file is not a transcript (empty, or lines that are no events).
 */
export async function verifyCommand(
  options: VerifyOptions,
  io: Pick<CliIo, 'stdout' | 'stderr'>
): Promise<number> {
  if (!options.target) {
    io.stderr(
      `Which transcript? ${WHAT_TO_GIVE} For example: compact-agent transcript verify agent-transcripts.zip --head <hash>.`
    );
    return EXIT.usage;
  }
  if (options.head !== undefined && !HEAD.test(options.head)) {
    io.stderr(
      `--head must be the 64-character lowercase hex hash from the run's report or its transcript_head output; "${options.head}" is not.`
    );
    return EXIT.usage;
  }
  let loaded: TargetTranscript;
  try {
    loaded = await loadTranscriptTarget(options.target, {
      io: { stderr: io.stderr, env: options.env ?? process.env },
      withReport: options.head === undefined,
      botLogin: options.bot
    });
  } catch (error) {
    // The same loading and refusing as `compact-agent transcript`: 2 nothing there, 3 a file that
    // cannot be used or is no transcript (empty too, even with --head).
    if (!(error instanceof CliError)) throw error;
    io.stderr(terminalSafe(error.message));
    return error.exitCode;
  }
  const remote = loaded.remote;
  if (remote && options.head === undefined && remote.otherReports.length > 0) {
    const urls = [remote.report!, ...remote.otherReports].map((report) => report.reportUrl);
    io.stderr(
      `${urls.length} report comments carry run ${remote.run.runId}'s state (${urls.join(', ')}); a run writes one, so the others are forged. ` +
        'Find the report the run wrote (its workflow run log prints the transcript head) and give its head with --head.'
    );
    return EXIT.runFailed;
  }
  // The artifact is the run's own (run-url-target.ts), but its content is whatever was zipped: it must be this run's transcript.
  const transcriptRun = loaded.audit.runId?.split('-')[0];
  if (remote && transcriptRun !== String(remote.run.runId)) {
    io.stderr(
      terminalSafe(
        `${loaded.source} holds the transcript of run ${loaded.audit.runId ?? '(none)'}, not of run ${remote.run.runId} the URL names: it is not this run's record.`
      )
    );
    return EXIT.runFailed;
  }
  const published = loaded.remote?.report?.transcriptHead;
  const head = options.head ?? published;
  if (loaded.remote && options.head === undefined && published === undefined)
    io.stderr(
      `No report comment of run ${loaded.remote.run.runId} publishes its transcript head (none found by ${options.bot ?? 'github-actions[bot]'}, ` +
        'or a later run replaced it; --bot names another bot): only the chain is checked, not that nothing was cut from its end.'
    );
  const verdict = verifyChain(loaded.text, head);
  // The source names a zip entry: no control character of it reaches the terminal.
  const message = terminalSafe(describeVerdict(verdict, loaded.source));
  if (verdict.status === 'intact') {
    io.stdout(
      options.head
        ? `${message} It ends at the head given.`
        : published
          ? `${message} It ends at the head the run's report published (${loaded.remote?.report?.reportUrl ?? 'report'}).`
          : message
    );
    return EXIT.success;
  }
  io.stderr(message);
  // The chain check's own "not a transcript" (an unchained file with a line that is no event at all)
  // is a file that cannot be used, as for `compact-agent transcript`.
  return verdict.status === 'not_transcript' ? EXIT.fileProblem : EXIT.runFailed;
}

const VERIFY_HELP = `Usage: compact-agent transcript verify PATH|RUN-URL [--head HASH] [--bot LOGIN]

Checks the hash chain of a run's transcript: every line carries the hash of the line before it, so a
line rewritten, removed, moved or inserted breaks the chain there. With --head (the transcript head in
the run's report, or its transcript_head output) it also checks that nothing was cut from the end.
PATH is a run folder, a transcript.jsonl, a .transcripts folder (its newest run) or the artifact zip.
RUN-URL is the run's page: its artifact is downloaded (token in GITHUB_TOKEN or GH_TOKEN, or gh auth
token; it needs "Actions: read" and "Issues: read") and its chain checked against the head its report
comment published.

Flags:
  --head HASH   the 64-character head hash from the report
  --bot LOGIN   the account that writes the reports (the action's bot_name; default github-actions[bot])
  -h, --help    show this help

Examples:
  compact-agent transcript verify .transcripts
  compact-agent transcript verify agent-transcripts-4242-1.zip --head 3f5c…(64 hex characters)
  compact-agent transcript verify https://github.com/octo-org/octo-repo/actions/runs/4242

Exit codes: 0 intact, 1 tampered, truncated or without a hash chain (the first bad line is named),
2 bad use (no PATH or it does not exist, a URL of another host, no token),
3 the file cannot be used (empty, not a transcript, or unreadable; GitHub refused, or the run has
no transcript artifact).`;

export const VERIFY_COMMAND: CliCommand = {
  name: 'transcript verify',
  summary: "check a transcript's hash chain (and its head, from the report)",
  help: VERIFY_HELP,
  stringFlags: ['head', 'bot'],
  booleanFlags: [],
  maxPositionals: 1,
  execute: (invocation, io) =>
    verifyCommand(
      {
        target: invocation.positionals[0],
        head: invocation.values.get('head'),
        env: io.env,
        bot: invocation.values.get('bot')
      },
      io
    )
};
