import path from 'node:path';
import { newRunId } from '../agent/run-id.js';
import { runSession, type SessionOutcome } from '../agent/session.js';
import type { AgentConfig } from '../config/inputs.js';
import { GitRepository } from '../git/repository.js';
import { readInstructionsForRun } from '../instructions/for-run.js';
import { describeInstructions } from '../instructions/instruction-files.js';
import { FindingsCollector } from '../review/findings-collector.js';
import { reviewJson, reviewText, type LocalReviewReport } from '../review/findings-output.js';
import { gitHeadReader } from '../review/git-head-reader.js';
import {
  readLocalReviewContext,
  resolveReviewRange,
  ReviewRangeError,
  type LocalReviewRange
} from '../review/local-context.js';
import { localReviewTask } from '../review/local-task.js';
import { placeFindings } from '../review/placement.js';
import type { ReviewContext } from '../review/review-context.js';
import { reviewMode } from '../review/review-mode.js';
import { isSecretName, knownSecrets, Redactor } from '../security/redactor.js';
import { mcpServerSecrets } from '../tools/mcp/config.js';
import { McpStartError } from '../tools/mcp/index.js';
import { RunFolderPathError } from '../transcript/run-folder-path.js';
import type { CliCommand, CliIo, Invocation } from './command.js';
import { EXIT, usageError } from './exit-codes.js';
import { progressPrinter } from './progress.js';
import { agentConfigOfFlags } from './agent-config.js';
import { checkRepoFolder } from './repo-check.js';
import { RUN_COMMAND } from './run-command.js';

/**
 * `run`'s flags that are about its task and its output, not the model, limits or tools: a review's
 * task is the diff, its transcripts go to <repo>/.transcripts, and its answer is the findings.
 */
const RUN_ONLY_FLAGS: ReadonlySet<string> = new Set([
  'repo',
  'prompt',
  'prompt-file',
  'transcripts',
  'resume',
  'json-schema',
  'allow-non-git'
]);

/** The model, provider, limit and tool flags, taken from `run` so both commands read them alike. */
const SHARED_FLAGS = RUN_COMMAND.stringFlags.filter((flag) => !RUN_ONLY_FLAGS.has(flag));
const SHARED_SWITCHES = RUN_COMMAND.booleanFlags.filter((flag) => !RUN_ONLY_FLAGS.has(flag));

const FORMATS = ['text', 'json'] as const;
type Format = (typeof FORMATS)[number];

const REVIEW_HELP = `Usage: compact-agent review --repo DIR --base REF [--focus "TEXT"] [--format text|json] [flags]

Reviews the commits of HEAD since it left REF, as /agent review reviews a pull request, without
GitHub: read-only (write_file and edit_file are not offered; nothing is committed or pushed), and the
agent records its findings. No task is needed: the diff is the task. Each finding is printed with where
a pull request review would put it: inline on the diff, or in the review's body and why. Findings go to
stdout; progress to stderr; the transcript to <repo>/.transcripts/<run>/transcript.jsonl.

Flags:
  --repo DIR                 the git repository to review (default: the current folder)
  --base REF                 the branch, tag or commit the changes go into, e.g. main or origin/main;
                             the diff runs from HEAD's merge base with it to HEAD (committed work only)
  --focus TEXT               what the review should look at most, e.g. "error handling"
  --format text|json         text for a person (default), or JSON for a script: {findings: [{path, line,
                             start_line, side, body, suggestion, placement: {where, reason, ...}}],
                             summary, cost_usd, stop_reason, ...}
  --model, --effort, --max-turns, --timeout-minutes, --max-budget-usd, --max-output-tokens,
  --use-bedrock, --use-vertex, --mcp-config, --allowed-tools, --allowed-bash-commands,
  --instruction-files and the other model, limit and tool flags of run (compact-agent run --help)
  --debug                    show the stack trace of an unexpected error
  -h, --help                 show this help

Examples:
  compact-agent review --repo . --base main
  compact-agent review --base origin/main --focus "the new retry logic" --max-budget-usd 1
  compact-agent review --base v1.2.0 --format json | jq '.findings[] | select(.placement.where == "inline")'

Exit codes: 0 the review finished (findings are not an error), 1 the run ended without success (a limit,
a model error, Ctrl-C; the findings recorded until then are printed), 2 a flag is wrong or --base does
not resolve (nothing was started).`;

export const REVIEW_COMMAND: CliCommand = {
  name: 'review',
  summary: 'review the commits of a local branch against a base, read-only',
  help: REVIEW_HELP,
  stringFlags: ['repo', 'base', 'focus', 'format', ...SHARED_FLAGS],
  booleanFlags: [...SHARED_SWITCHES],
  maxPositionals: 0,
  execute: (invocation, io) => reviewCommand(invocation, io)
};

interface ValidatedReview {
  readonly repoDir: string;
  readonly git: GitRepository;
  readonly config: AgentConfig;
  readonly format: Format;
  readonly focus: string | undefined;
  readonly baseRef: string;
  readonly range: LocalReviewRange;
}

/** `compact-agent review`: every flag and the base are checked first; then the read-only run. */
export async function reviewCommand(invocation: Invocation, io: CliIo): Promise<number> {
  const review = await validateReview(invocation, io.env);
  const { config, git, range } = review;
  const redact = new Redactor(
    knownSecrets(io.env, [config.apiKey, ...mcpServerSecrets(config.mcpServers, isSecretName)])
  ).redact;
  const context = await readLocalReviewContext(git, range);
  const print = (report: LocalReviewReport) =>
    io.stdout(review.format === 'json' ? reviewJson(report, redact) : reviewText(report, redact));
  if (context.files.reviewed.length === 0) {
    // No model call for nothing to read: a review of main on main is a quiet success.
    io.stderr('Nothing to review: HEAD changes no file with a text diff since its merge base.');
    print(emptyReport(review, context));
    return EXIT.success;
  }
  await warnOfUncommittedChanges(git, io);
  io.stderr(
    `Reviewing ${context.files.reviewed.length} changed file(s): ${range.mergeBase.slice(0, 7)}..` +
      `${range.headSha.slice(0, 7)} (HEAD against ${review.baseRef}).`
  );
  const collector = new FindingsCollector();
  const outcome = await runReview(review, context, collector, redact, io);
  const readHead = await gitHeadReader(
    git,
    range.headSha,
    collector.findings.map((finding) => finding.path)
  );
  print({
    ...rangeOf(review),
    placed: placeFindings(collector.findings, context.files.diffs, readHead),
    skippedFiles: context.files.skipped,
    summary: outcome.result.summary,
    stopReason: outcome.result.stopReason,
    error: outcome.result.error,
    costUsd: outcome.result.costUsd,
    transcriptPath: outcome.transcriptPath
  });
  return outcome.result.stopReason === 'success' ? EXIT.success : EXIT.runFailed;
}

/** The session in review mode: read-only, record_finding, the diff as the first message. */
async function runReview(
  review: ValidatedReview,
  context: ReviewContext,
  collector: FindingsCollector,
  redact: (text: string) => string,
  io: CliIo
): Promise<SessionOutcome> {
  const { config, repoDir } = review;
  const instructions = await readInstructionsForRun(
    { kind: 'checkout', root: repoDir },
    config.instructionFiles,
    review.focus ?? ''
  );
  if (instructions) io.stderr(redact(describeInstructions(instructions)));
  return runSession({
    ...(instructions ? { instructions } : {}),
    config,
    task: localReviewTask(context, review.range, review.baseRef, review.focus),
    redact,
    repoDir,
    transcriptsDir: path.join(repoDir, '.transcripts'),
    runId: newRunId(),
    env: io.env,
    mode: reviewMode(context, collector),
    onProgress: progressPrinter(io.stderr),
    onNotice: (line) => io.stderr(redact(line)),
    ...(io.signal ? { signal: io.signal } : {})
  }).catch((error: unknown) => {
    if (error instanceof McpStartError) throw usageError(`--mcp-config: ${redact(error.message)}`);
    if (error instanceof RunFolderPathError) throw usageError(error.message);
    throw error;
  });
}

/** Everything a review needs, or a usage error naming the flag. No model is called. */
async function validateReview(invocation: Invocation, env: NodeJS.ProcessEnv): Promise<ValidatedReview> {
  const { values } = invocation;
  const repoDir = await checkRepoFolder(values.get('repo') ?? '.', false);
  const format = parseFormat(values.get('format'));
  const config = agentConfigOfFlags(invocation, env, repoDir);
  const baseRef = values.get('base')?.trim() ?? '';
  if (baseRef === '') {
    throw usageError(
      'No base: pass --base REF, the branch the changes go into (e.g. --base main); ' +
        'the review covers HEAD since its merge base with it.'
    );
  }
  const git = new GitRepository(repoDir, { sourceEnv: env });
  const range = await resolveReviewRange(git, baseRef).catch((error: unknown) => {
    if (error instanceof ReviewRangeError) throw usageError(`--base ${baseRef}: ${error.message}`);
    throw error;
  });
  const focus = values.get('focus')?.trim() || undefined;
  return { repoDir, git, config, format, focus, baseRef, range };
}

function parseFormat(raw: string | undefined): Format {
  if (raw === undefined) return 'text';
  const format = FORMATS.find((name) => name === raw.trim().toLowerCase());
  if (format === undefined) {
    throw usageError(`--format is "${raw}"; it takes ${FORMATS.join(' or ')} (default text).`);
  }
  return format;
}

/**
 * The agent reads the working tree, but the diff and the suggestions' check are of HEAD: an edit
 * not committed can shift the lines it reads from the lines the findings are placed on.
 */
async function warnOfUncommittedChanges(git: GitRepository, io: CliIo): Promise<void> {
  const status = await git.run(['status', '--porcelain', '--untracked-files=no']).catch(() => '');
  if (status.trim() === '') return;
  io.stderr(
    'The working tree has uncommitted changes: they are not reviewed (the diff is of commits only), and ' +
      'the agent reads the files as they are now. Commit or stash them for an exact review.'
  );
}

function rangeOf(review: ValidatedReview) {
  const { baseRef, range } = review;
  return { baseRef, baseCommit: range.baseCommit, mergeBase: range.mergeBase, headSha: range.headSha };
}

function emptyReport(review: ValidatedReview, context: ReviewContext): LocalReviewReport {
  return {
    ...rangeOf(review),
    placed: [],
    skippedFiles: context.files.skipped,
    summary: 'Nothing to review: no changed file has a text diff.',
    stopReason: 'success',
    error: undefined,
    costUsd: 0,
    transcriptPath: undefined
  };
}
