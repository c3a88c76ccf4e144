import type { RunResult } from '../../agent/run-result.js';
import type { CompactionEvent } from '../../compaction/compactor.js';
import { countCompactions, describeCompactionCount } from '../../compaction/compaction-count.js';
import type { CommandOutcome } from '../../compaction/work-ledger.js';
import { renderChart } from './context-chart.js';
import { fitSections, MAX_BODY_CHARS } from '../markdown/outbound-fit-body.js';
import type { RepositoryInstructions } from '../../instructions/instruction-files.js';
import { codeSpan, fence, inlineText, quoteBlock } from '../markdown/outbound-neutralize.js';
import type { WithheldVariables } from '../../tools/environment.js';
import type { DeniedCall } from '../../tools/limits/denied.js';
import { compareUrl, renderRequest, renderTests, renderWhere } from './report-top.js';
import { renderMovedGitSection } from './moved-git-section.js';
import { renderSandboxSection } from './sandbox-section.js';
import type { SessionOutcome } from '../../agent/session.js';

export { MAX_BODY_CHARS, renderChart };

export type ChangesOutcome = (
  | { readonly kind: 'none' }
  /** A plan or a review: the action publishes nothing, whatever the working tree holds. */
  | { readonly kind: 'read-only'; readonly mode: 'plan' | 'review' }
  | {
      readonly kind: 'pushed';
      readonly branch: string;
      /** The branch the pull request targets (its compare link's base), when known. */
      readonly base?: string;
      readonly diffStat: string;
      readonly pullRequestUrl: string | undefined;
      /** The pull request opened or updated, when its number is known (carried to a follow-up). */
      readonly pullRequestNumber?: number;
      /** Set when the push worked but the pull request could not be opened. */
      readonly pullRequestError: string | undefined;
    }
  | { readonly kind: 'patch'; readonly reason: string; readonly diffStat: string; readonly patch: string }
  | { readonly kind: 'failed'; readonly error: string; readonly diffStat: string }
) & {
  /** Changes that were not published because the run may not make them (workflow files). */
  readonly withheld?: readonly string[];
  /** Gitlinks and `.gitmodules` not published because allow_submodule_changes is off. */
  readonly withheldSubmodules?: readonly string[];
  /** Why some of the agent's work is not in the commit (e.g. the disk filled up while committing). */
  readonly leftOut?: string;
};

export type ArtifactOutcome =
  | {
      readonly kind: 'uploaded';
      readonly id: number;
      readonly url: string;
      /** The artifact's name (`agent-transcripts-<run>-<attempt>`), the link's text when known. */
      readonly name?: string;
    }
  | { readonly kind: 'failed'; readonly error: string };

export interface ReportInput {
  readonly result: RunResult;
  readonly runUrl: string;
  readonly changes: ChangesOutcome;
  readonly artifact: ArtifactOutcome;
  readonly transcriptDir: string;
  /** The transcript's last hash: `compact-agent transcript verify --head` checks a copy against it. */
  readonly transcriptHead?: string;
  /** The follow-up section (previous runs, costs), rendered by the action from its own state. */
  readonly followUp?: string;
  /** The repository's instruction files the run's system prompt held, and what was cut or left out. */
  readonly instructions?: RepositoryInstructions;
  /** Room to leave under GitHub's limit for what the tracking comment appends (the hidden carried state). */
  readonly reserveChars?: number;
  /** Tool calls the tool limits refused (allowed_tools, allowed_bash_commands, ...), grouped. */
  readonly deniedCalls?: readonly DeniedCall[];
  /** The job's variables the agent's shell did not get, by name. */
  readonly withheldEnv?: WithheldVariables;
  /** Whether the commands ran in the box, and what it refused (src/sandbox/). */
  readonly sandbox?: SessionOutcome['sandbox'];
  /** The `.git` folders and files the agent's commands made, moved out of the workspace (src/git/nested-repositories.ts). */
  readonly movedGitEntries?: SessionOutcome['movedGitEntries'];
  /** What the model's answer is: a `Summary` of the work by default, a `Plan` for a plan run. */
  readonly answerHeading?: string;
  /** The answer as it is to be shown, when the kind of run shows it otherwise (a plan, made visible). */
  readonly answerText?: string;
  /** The run kind's own section after the answer (how to approve a plan; a review's findings), Markdown the action wrote. */
  readonly kindSection?: string;
  /** Who asked, by login: mentioned once, at the top, so that GitHub tells them the run ended. */
  readonly requester?: string;
  /** What the person asked in this run (never the prompt the action built around it): one line at the top. */
  readonly request?: string;
  /** `GITHUB_SERVER_URL/owner/repo`: the compare link of a branch whose pull request GitHub refused is built on it. */
  readonly repositoryUrl?: string;
  /** Bash commands that looked like test runs, in order, with their exit codes (from the transcript). */
  readonly testRuns?: readonly CommandOutcome[];
}

/** One part of the report, '' when it has nothing to say. */
type ReportSection = (input: ReportInput) => string;

/**
 * The report's sections in order. First what a developer reads (status, who asked and what, the pull
 * request, the tests, the cost, the answer, the changes and what the run was refused), then, folded,
 * what explains the run (compactions, the chart, usage, the transcript's head), and last the link to
 * the transcript artifact. A new section goes where it belongs in this list.
 */
const SECTIONS: readonly ReportSection[] = [
  statusLine,
  (input) => renderRequest(input.requester, input.request),
  (input) => (input.result.error ? quoteBlock(input.result.error, '**What failed:** ') : ''),
  where,
  tests,
  costLine,
  (input) => input.followUp ?? '',
  answer,
  (input) => input.kindSection ?? '',
  structuredOutput,
  (input) => `### Changes\n\n${renderChanges(input.changes)}`,
  (input) => renderDeniedCalls(input.deniedCalls ?? []),
  (input) => renderSandboxSection(input.sandbox),
  (input) => renderMovedGitSection(input.movedGitEntries),
  (input) => (input.withheldEnv ? renderWithheldEnv(input.withheldEnv) : ''),
  (input) => (input.instructions ? renderInstructions(input.instructions) : ''),
  (input) => renderCompactions(input.result.compactionLog),
  (input) =>
    renderChart(
      input.result.contextTokensPerTurn,
      input.result.compactionLog,
      input.result.compactionThresholdTokens
    ),
  (input) => renderUsage(input.result),
  transcriptHead,
  (input) => renderArtifact(input.artifact, input.transcriptDir, input.runUrl)
];

const STATUS: Readonly<Record<RunResult['stopReason'], string>> = {
  success: '✅ Done',
  error_max_turns: '⏹️ Stopped at the turn limit',
  error_timeout: '⏹️ Stopped at the time limit',
  error_max_budget_usd: '⏹️ Stopped at the budget limit',
  error_during_execution: '❌ Failed'
};

/**
 * The final report: the tracking comment's last text and the job summary. What the model wrote (its
 * summary, file names, errors that quote them) and what the person asked are neutralized: they close
 * no issue, ping nobody and render no HTML. The one mention is the requester's, written by the action.
 */
export function renderReport(input: ReportInput): string {
  const sections = SECTIONS.map((section) => section(input)).filter((section) => section !== '');
  return fitBody(sections, input.artifact, MAX_BODY_CHARS - (input.reserveChars ?? 0));
}

function statusLine({ result, runUrl }: ReportInput): string {
  return `${result.cancelled ? '🛑 Cancelled' : STATUS[result.stopReason]} · \`${result.stopReason}\` · ${formatDuration(result.durationMs)} · [workflow run](${runUrl})`;
}

/**
 * The pull request, or the compare link and the setting when GitHub would not open it; for work that
 * was not pushed, a pointer to the Changes section that says why (and holds a fork's patch).
 */
function where({ changes, repositoryUrl }: ReportInput): string {
  if (changes.kind === 'patch')
    return `📎 Not pushed: ${inlineText(changes.reason)}. The patch is under Changes.`;
  if (changes.kind === 'failed') return '⚠️ The changes could not be pushed: Changes below says why.';
  if (changes.kind !== 'pushed') return '';
  return renderWhere({
    branch: changes.branch,
    pullRequestUrl: changes.pullRequestUrl,
    pullRequestError: changes.pullRequestError,
    compareUrl:
      repositoryUrl && changes.base ? compareUrl(repositoryUrl, changes.base, changes.branch) : undefined
  });
}

/** A read-only run (a plan, a review) tests nothing of its own: its line shows only when it ran tests. */
function tests({ testRuns, changes }: ReportInput): string {
  if (testRuns === undefined) return '';
  return changes.kind === 'read-only' && testRuns.length === 0 ? '' : renderTests(testRuns);
}

function costLine({ result }: ReportInput): string {
  return `💰 Cost: $${result.costUsd.toFixed(4)} over ${result.turns} turn${result.turns === 1 ? '' : 's'} (usage below).`;
}

function answer(input: ReportInput): string {
  const text = input.answerText ?? input.result.summary;
  return `### ${input.answerHeading ?? 'Summary'}\n\n${text ? quoteBlock(text) : '_The model gave no summary._'}`;
}

function structuredOutput({ result }: ReportInput): string {
  return result.structuredOutput !== undefined
    ? `<details><summary>Structured output (json_schema)</summary>\n\n${fence(result.structuredOutput, 'json')}\n\n</details>`
    : '';
}

function transcriptHead({ transcriptHead: head }: ReportInput): string {
  return head
    ? `<details><summary>Transcript head</summary>\n\n🔗 Transcript head: \`${head}\` (\`compact-agent transcript verify <artifact.zip> --head <this>\` checks a copy of the transcript against it)\n\n</details>`
    : '';
}

/** The report of a run that failed before its agent's turns ended: what failed, and the run to look at. */
export function renderFaultReport(fault: {
  step: string;
  error: string | undefined;
  runUrl: string;
  requester?: string;
}): string {
  return [
    `❌ Failed while ${fault.step} · [workflow run](${fault.runUrl})`,
    ...(fault.requester !== undefined ? [renderRequest(fault.requester, undefined)] : []),
    quoteBlock(fault.error ?? 'the run ended without a report', '**What failed:** '),
    "The agent's work, if any, was not published. The workflow run's log has the details."
  ].join('\n\n');
}

function renderChanges(changes: ChangesOutcome): string {
  const withheld = changes.withheld?.length
    ? `\n\n⚠️ Not published, because this run may not change workflows (allow_workflow_changes is off): ${changes.withheld.map(codeSpan).join(', ')}`
    : '';
  const submodules = changes.withheldSubmodules?.length
    ? `\n\n⚠️ Not published, because this run may not add or change submodules (allow_submodule_changes is off): ${changes.withheldSubmodules.map(codeSpan).join(', ')}`
    : '';
  const leftOut = changes.leftOut ? `\n\n⚠️ Not everything was committed: ${changes.leftOut}.` : '';
  return renderPublished(changes) + withheld + submodules + leftOut;
}

function renderPublished(changes: ChangesOutcome): string {
  switch (changes.kind) {
    case 'none':
      return 'No files changed, so no branch was pushed.';
    case 'read-only':
      return `None: a ${changes.mode} run is read-only, and nothing is pushed.`;
    case 'pushed':
      return [
        `Pushed to ${codeSpan(changes.branch)}${changes.pullRequestUrl ? '' : changes.pullRequestError ? ', without a pull request (see the top)' : ''}.`,
        fence(changes.diffStat)
      ]
        .filter((line) => line !== '')
        .join('\n\n');
    case 'patch':
      return [
        `Not pushed: ${inlineText(changes.reason)}. The patch is below and in the transcript artifact.`,
        fence(changes.diffStat),
        `<details><summary>Patch</summary>\n\n${fence(changes.patch, 'diff')}\n\n</details>`
      ].join('\n\n');
    case 'failed':
      return [
        `⚠️ The changes could not be pushed: ${inlineText(changes.error)}`,
        changes.diffStat.trim() === '' ? '' : fence(changes.diffStat)
      ]
        .filter((part) => part !== '')
        .join('\n\n');
  }
}

/**
 * Which instruction files the agent was given, from where, and what it was not given (cut to a
 * cap, refused, left out): the paths come from the repository, so they are shown as code.
 */
function renderInstructions(instructions: RepositoryInstructions): string {
  if (instructions.problem !== undefined)
    return `📘 Repository instructions: none used, because ${inlineText(instructions.problem)}.`;
  if (instructions.files.length === 0 && instructions.skipped.length === 0) return '';
  const used =
    instructions.files.length === 0
      ? 'none used'
      : instructions.files.map((file) => codeSpan(file.path)).join(', ');
  const notes = [...instructions.cut, ...instructions.skipped].map(
    (note) => `- ${codeSpan(note.path)}: ${inlineText(note.reason)}`
  );
  return [`📘 Repository instructions from ${inlineText(instructions.source)}: ${used}.`, ...notes].join(
    '\n'
  );
}

/**
 * The tokens by class, folded. The API's `input_tokens` is the uncached part of the input only: the
 * tokens after the last cache breakpoint, with the cache's writes and reads counted apart in
 * `cache_creation_input_tokens` and `cache_read_input_tokens` (Claude Docs, "Prompt caching", tracking
 * cache performance: https://platform.claude.com/docs/en/build-with-claude/prompt-caching, read
 * 2026-11-26). A well-cached run shows a small number there, so it is named "uncached input".
 */
function renderUsage(result: RunResult): string {
  const u = result.usage;
  return [
    `<details><summary>Usage: ${n(u.input + u.cacheWrite + u.cacheRead)} input tokens (${n(u.cacheRead)} read from the cache), ${n(u.output)} output, $${result.costUsd.toFixed(4)}</summary>`,
    '',
    '| turns | uncached input | cache write | cache read | output | cost |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${result.turns} | ${n(u.input)} | ${n(u.cacheWrite)} | ${n(u.cacheRead)} | ${n(u.output)} | $${result.costUsd.toFixed(4)} |`,
    '',
    pricingNote(result.model),
    '',
    '</details>'
  ].join('\n');
}

/** Which model ran, and which prices the cost uses: prices change, so the date is part of the figure. */
function pricingNote(model: RunResult['model']): string {
  const prices = model.pricedSince
    ? `list prices in effect since ${model.pricedSince} (catalogue checked ${model.checkedOn})`
    : 'prices from the inputs';
  return `Model: ${model.name} (\`${model.id}\`); cost at ${prices}.`;
}

/**
 * What the tool limits refused, so that a maintainer sees what the agent wanted and can widen the
 * lists. The head is the model's text: neutralized like the rest.
 */
function renderDeniedCalls(calls: readonly DeniedCall[]): string {
  if (calls.length === 0) return '';
  const total = calls.reduce((sum, call) => sum + call.count, 0);
  const cell = (text: string) => codeSpan(text).replace(/\|/g, '\\|');
  return [
    `### Tool limits\n\n${total} tool call${total === 1 ? ' was' : 's were'} denied by this run's tool limits.`,
    '',
    '| tool | call | denied by | count |',
    '| --- | --- | --- | ---: |',
    ...calls.map((call) => `| ${cell(call.tool)} | ${cell(call.head)} | ${cell(call.rule)} | ${call.count} |`)
  ].join('\n');
}

/** At most this many names per group in the report; the transcript's run_start has them all. */
const MAX_WITHHELD_NAMES = 20;

/**
 * Which of the job's variables the agent's shell did not get (names only), so that a test that failed
 * for want of one is explained, and a variable that is no secret can be passed with bash_env_passthrough.
 */
function renderWithheldEnv(withheld: WithheldVariables): string {
  const names = (list: readonly string[]) => {
    const more = list.length > MAX_WITHHELD_NAMES ? ` and ${list.length - MAX_WITHHELD_NAMES} more` : '';
    return list.slice(0, MAX_WITHHELD_NAMES).map(codeSpan).join(', ') + more;
  };
  const groups = [
    withheld.secret.length > 0 ? `${names(withheld.secret)} (secrets and the action's own)` : '',
    withheld.unlisted.length > 0
      ? `${names(withheld.unlisted)} (on no list; \`bash_env_passthrough\` can pass them)`
      : ''
  ].filter((group) => group !== '');
  return groups.length === 0 ? '' : `🔒 Withheld from the agent's shell: ${groups.join('; ')}.`;
}

function renderCompactions(log: readonly CompactionEvent[]): string {
  if (log.length === 0) return '';
  const rows = log.map(
    (event) =>
      `| ${event.turn} | ${event.layer} | ${inlineText(event.reason).replace(/\|/g, '\\|')} | ${n(event.tokens_before)} | ` +
      `${n(event.tokens_after)} | ${event.results_cleared} | ${n(event.summary_tokens)} | $${event.summary_cost_usd.toFixed(4)} |`
  );
  return [
    `<details><summary>Compaction log: ${describeCompactionCount(countCompactions(log))}</summary>`,
    '',
    '| turn | layer | reason | tokens before | tokens after | cleared | summary tokens | summary cost |',
    '| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    '</details>'
  ].join('\n');
}

/**
 * Where the run's record is: the artifact first (a link that works after the job is gone), with the
 * workflow run it belongs to; the run folder's name is only a hint for who opens the zip.
 */
function renderArtifact(artifact: ArtifactOutcome, transcriptDir: string, runUrl: string): string {
  return artifact.kind === 'uploaded'
    ? `📜 Transcript: [${artifact.name ?? 'transcript artifact'}](${artifact.url}), the transcript artifact of ` +
        `this [workflow run](${runUrl}) (written to ${codeSpan(transcriptDir)} in the run's workspace)`
    : `⚠️ The transcripts could not be uploaded (${inlineText(artifact.error)}); they are missing from this run's ` +
        `artifacts. The [workflow run](${runUrl})'s log has what it printed.`;
}

/** Cuts the biggest sections first, so the status, links and usage always survive whole. */
function fitBody(sections: string[], artifact: ArtifactOutcome, maxChars = MAX_BODY_CHARS): string {
  const pointer =
    artifact.kind === 'uploaded'
      ? `\n\n_Report cut to fit GitHub's limit; the full details are in the [transcript artifact](${artifact.url})._`
      : "\n\n_Report cut to fit GitHub's limit._";
  return fitSections(sections, maxChars, pointer);
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${seconds % 60} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
