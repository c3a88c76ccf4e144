import { describeCompactionCount } from '../../compaction/compaction-count.js';
import { formatInt, formatUsd } from './format.js';
import { escapeHtml } from './html-text.js';
import type { AuditPageModel, CompactionRow } from './page-model.js';

/** The table of compactions: one row per event, clicked or keyed to open its details. */
export function renderCompactionList(model: AuditPageModel): string {
  const out: string[] = [
    '<section class="panel" aria-labelledby="compactions-title">',
    `<h2 id="compactions-title">Compactions: ${escapeHtml(describeCompactionCount(model.compactionCount))}</h2>`
  ];
  if (model.compactions.length === 0) {
    out.push('<p class="muted">None: the context never had to be cut.</p>', '</section>');
    return out.join('\n');
  }
  out.push(
    '<div class="table-wrap">',
    '<table id="compaction-list" class="compactions">',
    '<thead><tr><th>#</th><th>Turn</th><th>Layer</th><th>Reason and focus</th><th class="num">Tokens before → after</th>' +
      '<th class="num">Cleared</th><th class="num">Summary</th></tr></thead>',
    '<tbody>',
    ...model.compactions.map(renderRow),
    '</tbody>',
    '</table>',
    '</div>',
    '</section>'
  );
  return out.join('\n');
}

function renderRow({ index, event, savedPercent }: CompactionRow): string {
  return (
    `<tr class="compaction-row" data-index="${index}" tabindex="0">` +
    `<td>${index + 1}</td>` +
    `<td>${formatInt(event.turn)}</td>` +
    `<td>${layerBadge(event.layer)}</td>` +
    `<td class="reason">${escapeHtml(event.reason)}` +
    (event.focus ? `<div class="focus">focus: ${escapeHtml(event.focus)}</div>` : '') +
    '</td>' +
    `<td class="num">${formatInt(event.tokens_before)} → ${formatInt(event.tokens_after)}` +
    (savedPercent === undefined ? '' : `<br><span class="muted">−${savedPercent}%</span>`) +
    '</td>' +
    `<td class="num">${formatInt(event.results_cleared)}</td>` +
    `<td class="num">${event.summary_tokens > 0 ? `${formatInt(event.summary_tokens)} tok<br>${formatUsd(event.summary_cost_usd)}` : '—'}</td>` +
    '</tr>'
  );
}

export function layerBadge(layer: string): string {
  const safe = escapeHtml(layer);
  return `<span class="badge layer-bg-${safe}">${safe}</span>`;
}

/** The detail panel beside the chart; the script fills it when a compaction is chosen. */
export function renderCompactionDetail(model: AuditPageModel): string {
  return [
    '<aside id="compaction-detail" class="panel detail" aria-live="polite">',
    '<h2>Compaction details</h2>',
    model.compactions.length === 0
      ? '<p class="muted">This run had no compaction.</p>'
      : '<p class="muted">Click a compaction in the chart or the list to see its summary and what it cleared.</p>',
    '</aside>'
  ].join('\n');
}
