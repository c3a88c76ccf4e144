import { describeCompactionCount } from '../../compaction/compaction-count.js';
import { formatDuration, formatInt, formatTime, formatUsd } from './format.js';
import { escapeHtml } from './html-text.js';
import type { AuditPageModel, PageWarnings, TaskPreview } from './page-model.js';

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
    ['input', h.usage.input],
    ['cache write', h.usage.cache_write],
    ['cache read', h.usage.cache_read],
    ['output', h.usage.output]
  ];
  return [
    '<header class="top">',
    `<h1>${escapeHtml(model.title)}</h1>`,
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

function renderTask(task: TaskPreview | undefined): string {
  if (!task) return '<p class="muted">(not recorded)</p>';
  return (
    `<pre class="task-text">${escapeHtml(task.preview)}${task.truncated ? '\n…' : ''}</pre>` +
    (task.truncated
      ? `<details class="more"><summary>Whole task (${formatInt(task.lineCount)} lines)</summary><pre>${escapeHtml(task.whole)}</pre></details>`
      : '')
  );
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
