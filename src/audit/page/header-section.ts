import { describeCompactionCount } from '../../compaction/compaction-count.js';
import { formatDuration, formatInt, formatTime, formatUsd } from './format.js';
import { escapeHtml } from './html-text.js';
import type { AuditPageModel, PageWarnings } from './page-model.js';
import type { PageLink } from './run-links.js';
import type { TaskBox } from './task-box.js';

/** The run at a glance: title, warnings, task, facts, tokens, error and the agent's summary. */
export function renderHeader(model: AuditPageModel): string {
  const h = model.header;
  const outcomeClass = { success: 'ok', failure: 'bad', unknown: 'muted' }[h.outcome];
  const facts: Array<[string, string]> = [
    ['Model', escapeHtml(h.model ?? '—')],
    ['Stop reason', `<span class="${outcomeClass}">${escapeHtml(h.stopReason ?? 'no end recorded')}</span>`],
    ['Turns', formatInt(h.turns)],
    ['Duration', h.durationMs === undefined ? '—' : formatDuration(h.durationMs)],
    ['Cost', formatUsd(h.costUsd)],
    ['Started', escapeHtml(h.startedAt ? formatTime(h.startedAt) : '—')],
    ['Context window', h.contextWindow === undefined ? '—' : formatInt(h.contextWindow)],
    ['Threshold', h.thresholdTokens === undefined ? '—' : formatInt(h.thresholdTokens)],
    ['Compactions', escapeHtml(describeCompactionCount(model.compactionCount))]
  ];
  const tokens: Array<[string, number]> = [
    // The API's input_tokens is the uncached part only (see renderUsage in src/github/report/report.ts).
    ['uncached input', h.usage.input],
    ['cache write', h.usage.cache_write],
    ['cache read', h.usage.cache_read],
    ['output', h.usage.output]
  ];
  return [
    '<header class="top">',
    `<h1>${escapeHtml(model.title)}</h1>`,
    renderLinks(model.links),
    renderBanner(model.warnings),
    '<div class="task">',
    '<span class="label">Task</span>',
    renderTask(h.task),
    '</div>',
    '<dl class="facts">',
    ...facts.map(([label, value]) => `<div><dt>${label}</dt><dd>${value}</dd></div>`),
    '</dl>',
    '<dl class="facts tokens">',
    ...tokens.map(([label, value]) => `<div><dt>Tokens: ${label}</dt><dd>${formatInt(value)}</dd></div>`),
    '</dl>',
    h.error ? `<p class="run-error"><strong>Error:</strong> ${escapeHtml(h.error)}</p>` : '',
    h.summary
      ? `<details class="more"><summary>The agent's final summary</summary><pre>${escapeHtml(h.summary)}</pre></details>`
      : '',
    '</header>'
  ].join('\n');
}

function renderLinks(links: readonly PageLink[]): string {
  if (links.length === 0) return '';
  return `<nav class="run-links" aria-label="On GitHub">${links
    .map(
      (link) => `<a href="${escapeHtml(link.href)}" rel="noopener noreferrer">${escapeHtml(link.label)}</a>`
    )
    .join(' · ')}</nav>`;
}

/** The request in front; the thread's context, a follow-up's previous run and the original task folded. */
function renderTask(task: TaskBox | undefined): string {
  if (!task) return '<p class="muted">(not recorded)</p>';
  return [
    `<pre class="task-text">${escapeHtml(task.requestPreview)}${task.requestTruncated ? '\n…' : ''}</pre>`,
    task.requestTruncated
      ? `<details class="more"><summary>The whole request</summary><pre>${escapeHtml(task.request)}</pre></details>`
      : '',
    task.originalTask !== undefined
      ? `<details class="more"><summary>The thread's original task</summary><pre>${escapeHtml(task.originalTask)}</pre></details>`
      : '',
    task.firstMessage !== undefined
      ? `<details class="more"><summary>What the model was given: the request with the thread's context (${formatInt(task.firstMessageLines)} lines)</summary><pre>${escapeHtml(task.firstMessage)}</pre></details>`
      : ''
  ].join('');
}

function renderBanner(warnings: PageWarnings): string {
  const parts: string[] = [];
  if (warnings.incomplete) {
    parts.push(
      '<p><strong>Incomplete transcript:</strong> it has no run_end line, so the run crashed, was killed, ' +
        `or the file was cut. What follows is what the ${formatInt(warnings.lineCount)} lines recorded.</p>`
    );
  }
  if (warnings.skippedTotal > 0) {
    const more = warnings.skippedTotal - warnings.skippedListed.length;
    parts.push(
      `<p><strong>${formatInt(warnings.skippedTotal)} of ${formatInt(warnings.lineCount)} lines were skipped</strong> ` +
        '(they could not be read, so the report may miss what they held):</p>',
      '<ul>',
      ...warnings.skippedListed.map(
        (skip) => `<li>line ${formatInt(skip.line)}: ${escapeHtml(skip.reason)}</li>`
      ),
      more > 0 ? `<li>… and ${formatInt(more)} more</li>` : '',
      '</ul>'
    );
  }
  if (parts.length === 0) return '';
  return `<div id="warning-banner" class="banner" role="alert">${parts.join('\n')}</div>`;
}
