import { writeFile } from 'node:fs/promises';
import { workflowPath, WorkflowChoiceError } from '../audit/ledger/agent-workflow.js';
import { buildLedger } from '../audit/ledger/build-ledger.js';
import { renderLedgerHtml } from '../audit/ledger/ledger-html.js';
import { ledgerCsv, ledgerJson, type Ledger } from '../audit/ledger/ledger-records.js';
import { renderLedgerTerminal } from '../audit/ledger/ledger-terminal.js';
import { describeFileError } from '../files/file-problem.js';
import { parseRepositoryName } from '../github/api/github-location.js';
import type { CliCommand, CliIo, Invocation } from './command.js';
import { EXIT, fileError, usageError } from './exit-codes.js';
import { asUsage, cliAuditReads, cliEndpoint, githubFailure } from './github-access.js';
import { DEFAULT_BOT_LOGIN } from './run-url-target.js';
import { checkReportPath } from './transcript-command.js';

const AUDIT_HELP = `Usage: compact-agent audit --repo OWNER/REPO [--since DATE] [--until DATE] [--limit N]
                           [--html FILE] [--csv FILE] [--json] [--bot LOGIN] [--workflow FILE[,FILE]]

Finds every run of the agent in a repository (the bot's report comments, and the transcript artifacts
of its workflow runs), downloads each run's transcript artifact, checks its hash chain against the head
its report published, and prints one ledger row per run: the run, thread, requester, kind, outcome,
pull request, turns, tokens, cost, tools, refused commands and hosts, files changed, and whether its
record is intact, unverified, tampered, expired, missing or unreadable (with why). Then the totals:
cost per month, per requester and per kind. Progress goes to stderr.

Every report and artifact is checked against the agent's workflow (any workflow can comment as the
same bot or upload an artifact of any name): a report counts only when the run it names is a run of
that workflow that uploaded the artifact it names, an artifact only when a run of that workflow, of
this repository's code, uploaded it under its own run's name. The others are listed as left out.

The token comes from GITHUB_TOKEN or GH_TOKEN (or gh auth token); it needs read access with
"Actions: read", "Issues: read" and "Pull requests: read". GitHub Enterprise Server: set
GITHUB_SERVER_URL and GITHUB_API_URL. Rate limits are waited out (said on stderr), never skipped.

Flags:
  --repo OWNER/REPO  the repository (required)
  --since DATE       runs reported on or after DATE (YYYY-MM-DD or an ISO 8601 time)
  --until DATE       runs reported on or before DATE (a day counts whole)
  --limit N          audit only the newest N runs (a repository with thousands)
  --html FILE        also write the ledger as one self-contained HTML page
  --csv FILE         also write the rows as CSV
  --json             print the ledger as JSON instead of the table
  --bot LOGIN        the account that writes the reports (the action's bot_name; default github-actions[bot])
  --workflow FILE    the workflow that runs compact-agent (.github/workflows/agent.yml, or agent.yml), and
                     any its config file's thread.workflows names, comma-separated (agent.yml,fix-ci.yml);
                     default: the workflow of the runs the reports name, and you are asked when they name several
  -h, --help         show this help

Examples:
  compact-agent audit --repo octo-org/octo-repo --since 2026-07-01 --until 2026-09-30 --html q3.html
  compact-agent audit --repo octo-org/octo-repo --json | jq '.rows[] | select(.verdict != "intact")'

Exit codes: 0 every record that exists is intact or unverified (unverified, expired and missing ones
are listed), 1 a record was tampered with, 2 bad use (a flag, a date, no token, or the records name
runs of several workflows and --workflow is not given), 3 nothing to audit or a record could not be
read (GitHub refused, or a row says why).`;

export const AUDIT_COMMAND: CliCommand = {
  name: 'audit',
  summary: 'ledger of every agent run of a repository, each record verified (terminal, JSON, CSV, HTML)',
  help: AUDIT_HELP,
  stringFlags: ['repo', 'since', 'until', 'limit', 'html', 'csv', 'bot', 'workflow'],
  booleanFlags: ['json'],
  maxPositionals: 0,
  execute: (invocation, io) => auditCommand(invocation, io)
};

/** `compact-agent audit --repo OWNER/REPO`: the ledger, verified, with its totals. */
export async function auditCommand(invocation: Invocation, io: CliIo): Promise<number> {
  const repoFlag = invocation.values.get('repo');
  if (!repoFlag)
    throw usageError('Which repository? Give --repo OWNER/REPO, e.g. --repo octo-org/octo-repo.');
  const repository = asUsage(() => parseRepositoryName(repoFlag));
  const since = dateFlag(invocation.values.get('since'), '--since', 'start');
  const until = dateFlag(invocation.values.get('until'), '--until', 'end');
  if (since && until && since > until) throw usageError(`--since ${since} is after --until ${until}.`);
  const limit = limitFlag(invocation.values.get('limit'));
  const workflows = workflowFlag(invocation.values.get('workflow'));
  const html = invocation.values.get('html');
  const csv = invocation.values.get('csv');
  if (html !== undefined) await checkReportPath(html, '--html');
  if (csv !== undefined) await checkReportPath(csv, '--csv');
  const endpoint = cliEndpoint(io.env);
  const reads = cliAuditReads(repository, endpoint, io);
  const full = `${repository.owner}/${repository.name}`;
  let ledger: Ledger;
  try {
    ledger = await buildLedger(reads, {
      repository: full,
      botLogin: invocation.values.get('bot') ?? DEFAULT_BOT_LOGIN,
      since,
      until,
      limit,
      workflows,
      runUrlOf: (run) => `https://${endpoint.webHost}/${full}/actions/runs/${run}`,
      progress: (line) => io.stderr(line),
      now: () => new Date()
    });
  } catch (error) {
    if (error instanceof WorkflowChoiceError) throw usageError(error.message);
    throw githubFailure(error);
  }
  if (html !== undefined) await writeOutput(html, '--html', renderLedgerHtml(ledger), io);
  if (csv !== undefined) await writeOutput(csv, '--csv', ledgerCsv(ledger), io);
  io.stdout(invocation.switches.has('json') ? ledgerJson(ledger) : renderLedgerTerminal(ledger));
  return exitCodeOf(ledger, io);
}

/** 1 when a record was tampered with; 3 when nothing was found or a record could not be read; else 0. */
function exitCodeOf(ledger: Ledger, io: Pick<CliIo, 'stderr'>): number {
  const { verdicts } = ledger.totals;
  if (verdicts.tampered > 0) return EXIT.runFailed;
  if (ledger.rows.length === 0) {
    io.stderr(
      `No run of the agent was found in ${ledger.repository}${ledger.since || ledger.until ? ' in that window' : ''}: ` +
        'no report comment by the bot and no agent-transcripts artifact. If the action posts as another account, give --bot LOGIN.'
    );
    return EXIT.fileProblem;
  }
  if (verdicts.unreadable > 0) {
    io.stderr(`${verdicts.unreadable} records could not be read; their rows say why.`);
    return EXIT.fileProblem;
  }
  if (verdicts.unverified > 0)
    io.stderr(
      `${verdicts.unverified} records are unverified (not counted as intact): their chain holds, but no checked report says where it ends; their rows say why.`
    );
  return EXIT.success;
}

async function writeOutput(
  file: string,
  flag: string,
  text: string,
  io: Pick<CliIo, 'stderr'>
): Promise<void> {
  await writeFile(file, text).catch((error: unknown) => {
    throw fileError(`${flag} ${file}: the file cannot be written (${describeFileError(error)}).`);
  });
  io.stderr(`Wrote ${file}`);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day (its start for --since, its end for --until) or a full ISO 8601 time, as UTC ISO text. */
function dateFlag(value: string | undefined, flag: string, edge: 'start' | 'end'): string | undefined {
  if (value === undefined) return undefined;
  const text = DAY.test(value) ? `${value}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z` : value;
  const time = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time))
    throw usageError(
      `${flag} "${value}" is not a date: give YYYY-MM-DD (e.g. 2026-07-01) or an ISO 8601 time.`
    );
  return new Date(time).toISOString();
}

/** `agent.yml` or `agent.yml,fix-ci.yml` (the config file's thread.workflows): the files, as paths. */
function workflowFlag(value: string | undefined): readonly string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((given) => {
    const file = workflowPath(given.trim());
    if (file === undefined)
      throw usageError(
        `--workflow "${given.trim()}" is not a workflow file: give its path, e.g. --workflow .github/workflows/agent.yml, or its name, agent.yml (several: agent.yml,fix-ci.yml).`
      );
    return file;
  });
}

function limitFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(limit) || limit < 1)
    throw usageError(`--limit "${value}" is not a whole number of runs of at least 1, e.g. --limit 500.`);
  return limit;
}
