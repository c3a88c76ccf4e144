import { cutBalanced, MAX_BODY_CHARS } from '../github/markdown/outbound-fit-body.js';
import { defuseMarkers } from '../github/markdown/outbound-hidden-markers.js';
import { codeSpan, inlineText, quoteBlock } from '../github/markdown/outbound-neutralize.js';
import type { BranchPullRequest, PublishedLanding } from './github-landing.js';
import type { Rollup, RollupRow } from './rollup.js';

/** The artifact the land role uploads with the whole roll-up, whatever its length. */
export const ROLLUP_ARTIFACT_NAME = 'compact-agent-fanout-rollup';

/** Where a shard stands, as the roll-up on GitHub shows it. */
export type ShardDisplayStatus =
  | 'planned'
  | 'running'
  | 'done'
  | 'failed'
  | 'over budget'
  | 'conflict'
  | 'rejected'
  | 'pull request opened'
  | 'merged'
  | 'declined';

export interface RollupMarkdownParts {
  readonly rollup: Rollup;
  /** What publishing did with each landed shard's branch (absent: nothing was published). */
  readonly published?: PublishedLanding;
  /** Each shard's transcript artifact (its page, or the run's artifacts), by shard id. */
  readonly transcriptUrls: ReadonlyMap<string, string>;
  /** The land job's workflow run. */
  readonly runUrl: string;
  /** Shards whose jobs still run (their results are not in yet). */
  readonly running?: ReadonlySet<string>;
  /** How to run what is unfinished again (e.g. "dispatch the workflow with `resume_run: 123`"). */
  readonly resumeHint?: string;
}

export interface RollupMarkdown {
  /** For the issue or comment: within `maxChars`; when the table does not fit, whole rows are cut and it says so. */
  readonly body: string;
  /** Everything, for the artifact. */
  readonly full: string;
  readonly tableCut: boolean;
}

/** The most of the prompt the roll-up shows: the pull requests and the manifest carry all of it. */
const MAX_PROMPT_CHARS = 4000;

/**
 * The roll-up as GitHub Markdown: a summary (the shards by status, the cost ledger against the cap,
 * the burndown by re-scan), the change asked for, and a table of every shard linked to its pull
 * request and its transcript. Text others wrote (the prompt, failure reasons, paths) is defused: it
 * pings no one, closes nothing, renders no HTML and spells none of our hidden markers. The body stays
 * within `maxChars` (GitHub's 65,536-character limit on issue and comment bodies, less room for the
 * marker: MAX_BODY_CHARS, see outbound-comment-limit.ts); past it the summary stays whole and the table
 * keeps the rows that fit, with a line pointing to the full table in the ROLLUP_ARTIFACT_NAME artifact.
 */
export function rollupMarkdown(parts: RollupMarkdownParts, maxChars = MAX_BODY_CHARS): RollupMarkdown {
  const rows = parts.rollup.rows.map((row) => displayRow(row, parts));
  const summary = summaryOf(parts, rows);
  const prompt = promptSection(parts.rollup.prompt);
  const table = tableOf(rows);
  const full = [summary, prompt, table].join('\n\n');
  if (full.length <= maxChars) return { body: full, full, tableCut: false };
  const note =
    `_The table is cut to the rows that fit GitHub's limit on a body: all ${rows.length} shards are in the ` +
    `${codeSpan(ROLLUP_ARTIFACT_NAME)} artifact of [this run](${parts.runUrl})._`;
  const room = maxChars - summary.length - prompt.length - note.length - 3 * 2;
  const cut = cutBalanced(table, Math.max(0, room));
  return {
    body: [summary, prompt, note, cut].filter((part) => part !== '').join('\n\n'),
    full,
    tableCut: true
  };
}

interface DisplayRow {
  readonly row: RollupRow;
  readonly status: ShardDisplayStatus;
  readonly pullRequest: BranchPullRequest | undefined;
  readonly transcriptUrl: string | undefined;
  readonly note: string | undefined;
}

function displayRow(row: RollupRow, parts: RollupMarkdownParts): DisplayRow {
  const pullRequest = parts.published?.byShard.get(row.shardId);
  const base = { row, pullRequest, transcriptUrl: parts.transcriptUrls.get(row.shardId) };
  const note = row.reason;
  switch (row.status) {
    case 'unstarted':
      return { ...base, status: parts.running?.has(row.shardId) ? 'running' : 'planned', note };
    case 'empty':
      return { ...base, status: 'done', note: 'no change to land' };
    case 'over-budget':
      return { ...base, status: 'over budget', note };
    case 'landed':
      return { ...base, ...landedStatus(pullRequest) };
    default:
      return { ...base, status: row.status, note };
  }
}

function landedStatus(pullRequest: BranchPullRequest | undefined): {
  status: ShardDisplayStatus;
  note: string | undefined;
} {
  switch (pullRequest?.state) {
    case undefined:
      return { status: 'done', note: 'landed on a branch, not published' };
    case 'opened':
    case 'updated':
      return { status: 'pull request opened', note: undefined };
    case 'merged':
      return { status: 'merged', note: undefined };
    case 'closed':
      return { status: 'declined', note: pullRequest.detail };
    case 'failed':
      return { status: 'done', note: `landed, but not published: ${pullRequest.detail ?? 'unknown error'}` };
  }
}

const ORDER: readonly ShardDisplayStatus[] = [
  'merged',
  'pull request opened',
  'done',
  'running',
  'planned',
  'failed',
  'over budget',
  'conflict',
  'rejected',
  'declined'
];

function summaryOf(parts: RollupMarkdownParts, rows: readonly DisplayRow[]): string {
  const { rollup } = parts;
  const counts = new Map<ShardDisplayStatus, number>();
  for (const row of rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const byStatus = ORDER.filter((status) => counts.has(status))
    .map(
      (status) =>
        `${counts.get(status)!} ${status === 'pull request opened' ? 'with an open pull request' : status}`
    )
    .join(' · ');
  const shardSum = rollup.rows.reduce((sum, row) => sum + row.costUsd, 0);
  const percent = rollup.capUsd > 0 ? ((rollup.spentUsd / rollup.capUsd) * 100).toFixed(1) : '0.0';
  const left = Math.max(0, rollup.capUsd - rollup.spentUsd);
  const title = codeSpan(defuseMarkers(rollup.prompt.split('\n')[0] ?? '').slice(0, 120));
  const burndown =
    rollup.unitsAfter === undefined
      ? `${rollup.unitsBefore} unit(s) before; the re-scan after the landed change failed`
      : `${rollup.unitsBefore} unit(s) before, ${rollup.unitsAfter} after the landed change (re-scan): ` +
        `${Math.max(0, rollup.unitsBefore - rollup.unitsAfter)} done` +
        (rollup.unitsBefore > 0
          ? ` (${(((rollup.unitsBefore - rollup.unitsAfter) / rollup.unitsBefore) * 100).toFixed(0)}%)`
          : '');
  const landedOn = rollup.combinedBranch
    ? `combined into ${codeSpan(rollup.combinedBranch)}`
    : 'one branch and pull request per shard';
  const lines = [
    `## 🤖 Fan-out ${codeSpan(rollup.planId)}: ${title}`,
    '',
    `Base ${codeSpan(rollup.base.slice(0, 12))} · ${landedOn} · [land run](${parts.runUrl})`,
    '',
    `- **Shards** (${rows.length}): ${byStatus || 'none'}`,
    `- **Cost**: $${rollup.spentUsd.toFixed(4)} of the $${rollup.capUsd.toFixed(2)} cap (${percent}%), ` +
      `$${left.toFixed(4)} left; the shards' results account for $${shardSum.toFixed(4)}` +
      (rollup.spentUsd - shardSum > 0.005 ? ', the rest went to earlier attempts' : ''),
    `- **Burndown**: ${burndown}`
  ];
  if (rollup.unfinished)
    lines.push(
      `- **Unfinished**: ${rows.filter((row) => UNFINISHED.has(row.status)).length} shard(s)` +
        (parts.resumeHint ? `; ${parts.resumeHint}` : '')
    );
  return lines.join('\n');
}

const UNFINISHED: ReadonlySet<ShardDisplayStatus> = new Set([
  'planned',
  'running',
  'failed',
  'over budget',
  'conflict',
  'rejected'
]);

function promptSection(prompt: string): string {
  const quoted = quoteBlock(defuseMarkers(prompt.slice(0, MAX_PROMPT_CHARS)));
  const more = prompt.length > MAX_PROMPT_CHARS ? '\n>\n> […]' : '';
  return `<details><summary>The change asked for</summary>\n\n${quoted}${more}\n\n</details>`;
}

/**
 * A note (free text: a shard's error, a reason) as a table cell: defused, on one line, at most `max`
 * characters, and inside a code span, so no link, image or emphasis in it renders. GitHub splits a
 * table row on every pipe not escaped, code spans included ("including inside other inline spans",
 * https://github.github.com/gfm/#tables-extension-, read 2026-11-28), so pipes are escaped; a
 * backslash right before one gets a word joiner after it, or `\\|` could read as an escaped
 * backslash and a bare pipe that ends the cell.
 */
function cell(text: string, max = 200): string {
  const line = inlineText(defuseMarkers(text));
  const short = line.length > max ? `${[...line].slice(0, max).join('')}…` : line;
  return codeSpan(short.replace(/\\(?=\|)/g, '\\\u2060')).replace(/\|/g, '\\|');
}

function tableOf(rows: readonly DisplayRow[]): string {
  const header = [
    '| Shard | Units | Status | Pull request | Cost | Budget | Transcript | Note |',
    '| --- | ---: | --- | --- | ---: | ---: | --- | --- |'
  ];
  const lines = rows.map(({ row, status, pullRequest, transcriptUrl, note }) => {
    const pull =
      pullRequest?.url && pullRequest.number ? `[#${pullRequest.number}](${pullRequest.url})` : '–';
    const transcript = transcriptUrl ? `[transcript](${transcriptUrl})` : '–';
    return (
      `| ${row.shardId} | ${row.units} | ${status} | ${pull} | $${row.costUsd.toFixed(4)} | ` +
      `$${row.budgetUsd.toFixed(2)} | ${transcript} | ${note ? cell(note) : ''} |`
    );
  });
  return [...header, ...lines].join('\n');
}
