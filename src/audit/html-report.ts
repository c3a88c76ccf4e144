import { createHash } from 'node:crypto';
import type { CompactionEvent, CompactionLayer } from '../compaction/compactor.js';
import { describeToolCall } from '../tools/describe-call.js';
import type { AuditToolCall, AuditTurn, RunAudit } from './run-audit.js';

export interface HtmlReportOptions {
  /**
   * Tool inputs and outputs longer than this keep their head and tail in the report (the transcript
   * has them whole), so a long run stays a file a browser opens at once.
   */
  readonly maxOutputChars?: number;
}

export const DEFAULT_MAX_OUTPUT_CHARS = 12_000;

const LAYERS: readonly CompactionLayer[] = ['micro', 'auto', 'manual', 'spill', 'fallback'];

const LAYER_HELP: Readonly<Record<CompactionLayer, string>> = {
  micro: 'old tool results cleared, no model call',
  auto: 'history summarized past the threshold',
  manual: 'the model called compact',
  spill: 'an oversized tool result saved to a file',
  fallback: 'a summary failed: the oldest turns were dropped'
};

/**
 * The audit as one self-contained HTML page: inline CSS and script, no request of any kind, so it opens
 * from file:// on a machine with no network. Every text from the transcript is escaped; the data the
 * script needs (tool inputs and outputs, compaction summaries) is JSON in a non-executed script element,
 * and outputs are only put into the page when their tool call is opened.
 */
export function renderHtmlReport(audit: RunAudit, options: HtmlReportOptions = {}): string {
  const maxChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const title = `compact-agent run ${audit.runId ?? '(no run id)'}`;
  const data = {
    compactions: audit.compactions,
    turns: audit.timeline.map((turn) => ({
      turn: turn.turn,
      calls: turn.toolCalls.map((call) => ({
        id: call.id,
        name: call.name,
        input: clip(inputText(call), maxChars),
        output: call.output === undefined ? null : clip(call.output, maxChars),
        error: call.isError
      }))
    })),
    chart: chartGeometry(audit)
  };
  const script = CLIENT_SCRIPT;
  const csp = [
    "default-src 'none'",
    `style-src '${sha256(STYLE)}'`,
    `script-src '${sha256(script)}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'"
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    renderHeader(audit, title),
    '<div class="overview">',
    '<div class="main-col">',
    renderChart(audit),
    renderCompactionList(audit),
    '</div>',
    '<aside id="compaction-detail" class="panel detail" aria-live="polite">',
    '<h2>Compaction details</h2>',
    audit.compactions.length === 0
      ? '<p class="muted">This run had no compaction.</p>'
      : '<p class="muted">Click a compaction in the chart or the list to see its summary and what it cleared.</p>',
    '</aside>',
    '</div>',
    '<div class="lower">',
    renderTimeline(audit),
    '<aside class="side">',
    renderTools(audit),
    renderFiles(audit),
    '</aside>',
    '</div>',
    `<script type="application/json" id="audit-data">${jsonForScript(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    ''
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Header

function renderHeader(audit: RunAudit, title: string): string {
  const u = audit.usage;
  const task = audit.task ?? '';
  const taskLines = task.split('\n');
  const shownTask = taskLines.slice(0, 4).join('\n');
  const stopClass = audit.stopReason === 'success' ? 'ok' : audit.stopReason ? 'bad' : 'muted';
  const facts: Array<[string, string]> = [
    ['Model', escapeHtml(audit.model ?? '—')],
    ['Stop reason', `<span class="${stopClass}">${escapeHtml(audit.stopReason ?? 'no end recorded')}</span>`],
    ['Turns', formatInt(audit.turns)],
    ['Duration', audit.durationMs === undefined ? '—' : formatDuration(audit.durationMs)],
    ['Cost', formatUsd(audit.costUsd)],
    ['Started', escapeHtml(audit.startedAt ? formatTime(audit.startedAt) : '—')],
    ['Context window', audit.contextWindow === undefined ? '—' : formatInt(audit.contextWindow)],
    ['Compactions', formatInt(audit.compactions.length)]
  ];
  const tokens: Array<[string, number]> = [
    ['input', u.input],
    ['cache write', u.cache_write],
    ['cache read', u.cache_read],
    ['output', u.output]
  ];
  return [
    '<header class="top">',
    `<h1>${escapeHtml(title)}</h1>`,
    renderBanner(audit),
    '<div class="task">',
    '<span class="label">Task</span>',
    task === ''
      ? '<p class="muted">(not recorded)</p>'
      : `<pre class="task-text">${escapeHtml(shownTask)}${taskLines.length > 4 ? '\n…' : ''}</pre>` +
        (taskLines.length > 4
          ? `<details class="more"><summary>Whole task (${formatInt(taskLines.length)} lines)</summary><pre>${escapeHtml(task)}</pre></details>`
          : ''),
    '</div>',
    '<dl class="facts">',
    ...facts.map(([label, value]) => `<div><dt>${label}</dt><dd>${value}</dd></div>`),
    '</dl>',
    '<dl class="facts tokens">',
    ...tokens.map(([label, value]) => `<div><dt>Tokens: ${label}</dt><dd>${formatInt(value)}</dd></div>`),
    '</dl>',
    audit.error ? `<p class="run-error"><strong>Error:</strong> ${escapeHtml(audit.error)}</p>` : '',
    audit.summary
      ? `<details class="more"><summary>The agent's final summary</summary><pre>${escapeHtml(audit.summary)}</pre></details>`
      : '',
    '</header>'
  ].join('\n');
}

function renderBanner(audit: RunAudit): string {
  const parts: string[] = [];
  if (audit.incomplete) {
    parts.push(
      '<p><strong>Incomplete transcript:</strong> it has no run_end line, so the run crashed, was killed, ' +
        `or the file was cut. What follows is what the ${formatInt(audit.lineCount)} lines recorded.</p>`
    );
  }
  const skipped = audit.skippedLines;
  if (skipped.length > 0) {
    const shown = skipped.slice(0, 20);
    parts.push(
      `<p><strong>${formatInt(skipped.length)} of ${formatInt(audit.lineCount)} lines were skipped</strong> ` +
        '(they could not be read, so the report may miss what they held):</p>',
      '<ul>',
      ...shown.map((skip) => `<li>line ${formatInt(skip.line)}: ${escapeHtml(skip.reason)}</li>`),
      skipped.length > shown.length ? `<li>… and ${formatInt(skipped.length - shown.length)} more</li>` : '',
      '</ul>'
    );
  }
  if (parts.length === 0) return '';
  return `<div id="warning-banner" class="banner" role="alert">${parts.join('\n')}</div>`;
}

// ---------------------------------------------------------------------------------------------------
// Chart

const CHART = { width: 900, left: 64, right: 18, top: 18, plotHeight: 200, laneTop: 250, laneHeight: 15 };

interface ChartGeometry {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly turnMin: number;
  readonly turnMax: number;
  readonly yMax: number;
  readonly points: ReadonlyArray<readonly [number, number]>;
}

function chartGeometry(audit: RunAudit): ChartGeometry {
  const turns = [
    ...audit.contextTokensPerTurn.map((point) => point.turn),
    ...audit.compactions.map((event) => event.turn),
    ...audit.timeline.map((turn) => turn.turn),
    audit.turns
  ];
  const turnMin = Math.min(1, ...turns);
  const turnMax = Math.max(turnMin + 1, ...turns);
  const peak = Math.max(
    1,
    audit.contextWindow ?? 0,
    ...audit.contextTokensPerTurn.map((point) => point.tokens),
    ...audit.compactions.filter((event) => event.layer !== 'spill').map((event) => event.tokens_before)
  );
  const step = niceStep(peak / 4);
  return {
    left: CHART.left,
    right: CHART.width - CHART.right,
    top: CHART.top,
    bottom: CHART.top + CHART.plotHeight,
    turnMin,
    turnMax,
    yMax: Math.ceil(peak / step) * step,
    points: audit.contextTokensPerTurn.map((point) => [point.turn, point.tokens] as const)
  };
}

function renderChart(audit: RunAudit): string {
  const g = chartGeometry(audit);
  const x = (turn: number) => g.left + ((turn - g.turnMin) / (g.turnMax - g.turnMin)) * (g.right - g.left);
  const y = (tokens: number) => g.bottom - (Math.min(tokens, g.yMax) / g.yMax) * (g.bottom - g.top);
  const f = (value: number) => value.toFixed(1);
  const height = CHART.laneTop + LAYERS.length * CHART.laneHeight + 8;
  const out: string[] = [];
  out.push(
    '<section class="panel chart-panel" aria-labelledby="chart-title">',
    '<h2 id="chart-title">Context per turn</h2>',
    `<svg id="context-chart" viewBox="0 0 ${CHART.width} ${height}" role="img" aria-label="Context tokens per turn, with compactions">`
  );
  // Horizontal grid and token labels.
  const yStep = niceStep(g.yMax / 4);
  for (let value = 0; value <= g.yMax + 0.5; value += yStep) {
    out.push(
      `<line class="grid" x1="${g.left}" x2="${g.right}" y1="${f(y(value))}" y2="${f(y(value))}"/>`,
      `<text class="axis" x="${g.left - 6}" y="${f(y(value) + 4)}" text-anchor="end">${formatTokensShort(value)}</text>`
    );
  }
  // Turn ticks.
  const xStep = Math.max(1, niceStep((g.turnMax - g.turnMin) / 10));
  const firstTick = Math.ceil(g.turnMin / xStep) * xStep;
  for (let turn = firstTick; turn <= g.turnMax; turn += xStep) {
    out.push(
      `<line class="tick" x1="${f(x(turn))}" x2="${f(x(turn))}" y1="${g.bottom}" y2="${g.bottom + 4}"/>`,
      `<text class="axis" x="${f(x(turn))}" y="${g.bottom + 16}" text-anchor="middle">${turn}</text>`
    );
  }
  out.push(`<text class="axis" x="${g.left - 6}" y="${g.bottom + 16}" text-anchor="end">turn</text>`);
  out.push(`<line class="axis-line" x1="${g.left}" x2="${g.right}" y1="${g.bottom}" y2="${g.bottom}"/>`);
  // Plot area under the line: hovered for a readout, clicked to open that turn.
  out.push(
    `<rect id="plot-hit" class="plot-hit" x="${g.left}" y="${g.top}" width="${g.right - g.left}" height="${g.bottom - g.top}"/>`
  );
  if (audit.contextWindow !== undefined) {
    const wy = f(y(audit.contextWindow));
    out.push(
      `<line class="window-line" x1="${g.left}" x2="${g.right}" y1="${wy}" y2="${wy}"/>`,
      `<text class="window-label" x="${g.right - 4}" y="${f(y(audit.contextWindow) - 5)}" text-anchor="end">context window ${formatInt(audit.contextWindow)}</text>`
    );
  }
  if (g.points.length > 0) {
    const coords = g.points.map(([turn, tokens]) => `${f(x(turn))},${f(y(tokens))}`);
    const first = g.points[0]!;
    const last = g.points[g.points.length - 1]!;
    out.push(
      `<path class="context-area" d="M${f(x(first[0]))},${g.bottom} L${coords.join(' L')} L${f(x(last[0]))},${g.bottom} Z"/>`,
      `<polyline id="context-line" class="context-line" points="${coords.join(' ')}"/>`
    );
    if (g.points.length <= 120) {
      for (const [turn, tokens] of g.points) {
        out.push(`<circle class="context-point" cx="${f(x(turn))}" cy="${f(y(tokens))}" r="2"/>`);
      }
    }
  } else {
    out.push(
      `<text class="axis" x="${(g.left + g.right) / 2}" y="${(g.top + g.bottom) / 2}" text-anchor="middle">No response was recorded.</text>`
    );
  }
  // The drop each compaction made to the context (spills are one result, not the context: no drop).
  audit.compactions.forEach((event, index) => {
    if (event.layer === 'spill') return;
    const cx = f(x(event.turn));
    out.push(
      `<line class="compaction-drop layer-${event.layer}" data-index="${index}" x1="${cx}" x2="${cx}" y1="${f(y(event.tokens_before))}" y2="${f(y(event.tokens_after))}"/>`
    );
  });
  // One lane per layer, one clickable marker per event.
  LAYERS.forEach((layer, lane) => {
    const ly = CHART.laneTop + lane * CHART.laneHeight;
    out.push(
      `<line class="lane" x1="${g.left}" x2="${g.right}" y1="${ly}" y2="${ly}"/>`,
      `<text class="lane-label layer-text-${layer}" x="${g.left - 8}" y="${ly + 4}" text-anchor="end">${layer}</text>`
    );
  });
  // Markers shrink on long runs, where many share a few pixels.
  const radius = Math.max(3, Math.min(5.5, ((g.right - g.left) / (g.turnMax - g.turnMin)) * 1.5)).toFixed(1);
  audit.compactions.forEach((event, index) => {
    const lane = Math.max(0, LAYERS.indexOf(event.layer));
    const ly = CHART.laneTop + lane * CHART.laneHeight;
    out.push(
      `<circle class="compaction-marker layer-${escapeHtml(event.layer)}" data-index="${index}" data-layer="${escapeHtml(event.layer)}" cx="${f(x(event.turn))}" cy="${ly}" r="${radius}">` +
        `<title>${escapeHtml(`#${index + 1} ${event.layer} at turn ${event.turn}: ${formatInt(event.tokens_before)} → ${formatInt(event.tokens_after)} tokens`)}</title></circle>`
    );
  });
  out.push(
    '<g id="chart-hover" class="hover" visibility="hidden">',
    `<line class="hover-line" x1="0" x2="0" y1="${g.top}" y2="${g.bottom}"/>`,
    '<circle class="hover-dot" cx="0" cy="0" r="4"/>',
    '<text class="hover-text" x="0" y="0"></text>',
    '</g>',
    '</svg>'
  );
  out.push(
    '<ul class="legend">',
    `<li><span class="swatch line-swatch"></span>context tokens (prompt of each response)</li>`,
    audit.contextWindow !== undefined
      ? '<li><span class="swatch window-swatch"></span>context window</li>'
      : '',
    ...LAYERS.map((layer) => {
      const count = audit.compactions.filter((event) => event.layer === layer).length;
      return `<li title="${escapeHtml(LAYER_HELP[layer])}"><span class="swatch layer-bg-${layer}"></span>${layer} (${count})</li>`;
    }),
    '</ul>',
    '</section>'
  );
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Compactions

function renderCompactionList(audit: RunAudit): string {
  const out: string[] = [
    '<section class="panel" aria-labelledby="compactions-title">',
    `<h2 id="compactions-title">Compactions (${formatInt(audit.compactions.length)})</h2>`
  ];
  if (audit.compactions.length === 0) {
    out.push('<p class="muted">None: the context never had to be cut.</p>', '</section>');
    return out.join('\n');
  }
  out.push(
    '<div class="table-wrap">',
    '<table id="compaction-list" class="compactions">',
    '<thead><tr><th>#</th><th>Turn</th><th>Layer</th><th>Reason and focus</th><th class="num">Tokens before → after</th>' +
      '<th class="num">Cleared</th><th class="num">Summary</th></tr></thead>',
    '<tbody>'
  );
  audit.compactions.forEach((event, index) => {
    out.push(
      `<tr class="compaction-row" data-index="${index}" tabindex="0">` +
        `<td>${index + 1}</td>` +
        `<td>${formatInt(event.turn)}</td>` +
        `<td>${layerBadge(event.layer)}</td>` +
        `<td class="reason">${escapeHtml(event.reason)}` +
        (event.focus ? `<div class="focus">focus: ${escapeHtml(event.focus)}</div>` : '') +
        '</td>' +
        `<td class="num">${formatInt(event.tokens_before)} → ${formatInt(event.tokens_after)}${savedNote(event)}</td>` +
        `<td class="num">${formatInt(event.results_cleared)}</td>` +
        `<td class="num">${event.summary_tokens > 0 ? `${formatInt(event.summary_tokens)} tok<br>${formatUsd(event.summary_cost_usd)}` : '—'}</td>` +
        '</tr>'
    );
  });
  out.push('</tbody>', '</table>', '</div>', '</section>');
  return out.join('\n');
}

function savedNote(event: CompactionEvent): string {
  if (event.tokens_before <= 0 || event.tokens_after >= event.tokens_before) return '';
  const share = Math.round((1 - event.tokens_after / event.tokens_before) * 100);
  return `<br><span class="muted">−${share}%</span>`;
}

function layerBadge(layer: string): string {
  const safe = escapeHtml(layer);
  return `<span class="badge layer-bg-${safe}">${safe}</span>`;
}

// ---------------------------------------------------------------------------------------------------
// Timeline

function renderTimeline(audit: RunAudit): string {
  const byTurn = new Map<number, number[]>();
  audit.compactions.forEach((event, index) => {
    const list = byTurn.get(event.turn) ?? [];
    list.push(index);
    byTurn.set(event.turn, list);
  });
  const out: string[] = [
    '<section id="timeline-section" class="panel" aria-labelledby="timeline-title">',
    `<h2 id="timeline-title">Timeline (${formatInt(audit.timeline.length)} turns)</h2>`,
    '<div class="search-bar">',
    '<input id="search" type="search" placeholder="Search text, tool calls and outputs…" autocomplete="off" spellcheck="false" aria-label="Search the timeline">',
    '<span id="search-count" class="muted" aria-live="polite"></span>',
    '</div>',
    '<div id="timeline">'
  ];
  const placed = new Set<number>();
  const dividers = (indexes: readonly number[]) =>
    indexes.map((index) => {
      placed.add(index);
      return compactionDivider(audit.compactions[index]!, index);
    });
  const turnsShown = new Set(audit.timeline.map((turn) => turn.turn));
  // Compactions before the first turn, or at a turn the timeline lacks, go before the next turn shown.
  const pending = [...byTurn.keys()].filter((turn) => !turnsShown.has(turn)).sort((a, b) => a - b);
  audit.timeline.forEach((turn, index) => {
    while (pending.length > 0 && pending[0]! < turn.turn)
      out.push(...dividers(byTurn.get(pending.shift()!)!));
    out.push(renderTurn(turn, index));
    out.push(...dividers(byTurn.get(turn.turn) ?? []));
  });
  for (const turn of pending) out.push(...dividers(byTurn.get(turn)!));
  if (audit.timeline.length === 0) out.push('<p class="muted">No turn was recorded.</p>');
  out.push('</div>', '</section>');
  return out.join('\n');
}

function compactionDivider(event: CompactionEvent, index: number): string {
  return (
    `<button type="button" class="compaction-divider layer-border-${escapeHtml(event.layer)}" data-index="${index}">` +
    `${layerBadge(event.layer)} compaction #${index + 1} after turn ${formatInt(event.turn)}: ` +
    `${formatInt(event.tokens_before)} → ${formatInt(event.tokens_after)} tokens` +
    (event.results_cleared > 0 ? `, ${formatInt(event.results_cleared)} results cleared` : '') +
    (event.focus ? ` · focus: ${escapeHtml(event.focus)}` : '') +
    '</button>'
  );
}

function renderTurn(turn: AuditTurn, index: number): string {
  const failed = turn.toolCalls.filter((call) => call.isError).length;
  const meta = [
    turn.time ? `<time>${escapeHtml(formatTime(turn.time))}</time>` : '',
    turn.contextTokens !== undefined ? `context ${formatInt(turn.contextTokens)}` : '',
    turn.costUsd !== undefined ? formatUsd(turn.costUsd) : '',
    turn.stopReason ? `stop: ${escapeHtml(turn.stopReason)}` : '',
    failed > 0 ? `<span class="badge error">${failed} failed</span>` : ''
  ].filter((part) => part !== '');
  return [
    `<article class="turn${failed > 0 ? ' has-error' : ''}" id="turn-${turn.turn}" data-i="${index}">`,
    `<header><a class="turn-link" href="#turn-${turn.turn}">Turn ${formatInt(turn.turn)}</a> <span class="meta">${meta.join(' · ')}</span></header>`,
    turn.text.trim() === '' ? '' : `<div class="text">${escapeHtml(turn.text.trim())}</div>`,
    ...turn.toolCalls.map((call, callIndex) => renderCall(call, callIndex)),
    '</article>'
  ].join('\n');
}

function renderCall(call: AuditToolCall, index: number): string {
  const described = describeToolCall(call.name, call.input, 140);
  const key = described.slice(call.name.length).trim();
  const status = call.isError
    ? '<span class="badge error">error</span>'
    : call.output === undefined
      ? '<span class="badge muted-badge">no result</span>'
      : '';
  const size = call.output === undefined ? '' : `${formatInt(call.output.length)} chars`;
  const duration = call.durationMs === undefined ? '' : formatDuration(call.durationMs);
  return (
    `<details class="call${call.isError ? ' error' : ''}" data-c="${index}" data-call-id="${escapeHtml(call.id)}">` +
    `<summary><span class="tool">${escapeHtml(call.name)}</span> ` +
    (key ? `<code class="key">${escapeHtml(key)}</code> ` : '') +
    `${status}<span class="call-meta">${[duration, size].filter(Boolean).join(' · ')}</span></summary>` +
    '<div class="call-body"></div>' +
    '</details>'
  );
}

// ---------------------------------------------------------------------------------------------------
// Tools and files

function renderTools(audit: RunAudit): string {
  const stats = [...audit.toolStats].sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
  const most = Math.max(1, ...stats.map((tool) => tool.calls));
  return [
    '<section class="panel" id="tools" aria-labelledby="tools-title">',
    '<h2 id="tools-title">Tools used</h2>',
    stats.length === 0
      ? '<p class="muted">No tool was called.</p>'
      : [
          '<table class="tools"><thead><tr><th>Tool</th><th class="num">Calls</th><th class="num">Failed</th><th></th></tr></thead><tbody>',
          ...stats.map(
            (tool) =>
              `<tr><td><code>${escapeHtml(tool.name)}</code></td><td class="num">${formatInt(tool.calls)}</td>` +
              `<td class="num${tool.failures > 0 ? ' bad' : ''}">${formatInt(tool.failures)}</td>` +
              `<td class="bar-cell"><svg class="bar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">` +
              `<rect class="bar-ok" x="0" y="0" height="8" width="${((100 * (tool.calls - tool.failures)) / most).toFixed(1)}"/>` +
              `<rect class="bar-bad" x="${((100 * (tool.calls - tool.failures)) / most).toFixed(1)}" y="0" height="8" width="${((100 * tool.failures) / most).toFixed(1)}"/>` +
              '</svg></td></tr>'
          ),
          '</tbody></table>'
        ].join('\n'),
    '</section>'
  ].join('\n');
}

function renderFiles(audit: RunAudit): string {
  return [
    '<section class="panel" id="files" aria-labelledby="files-title">',
    `<h2 id="files-title">Files changed (${formatInt(audit.filesChanged.length)})</h2>`,
    audit.filesChanged.length === 0
      ? '<p class="muted">No file was written or edited.</p>'
      : `<ul class="files">${audit.filesChanged.map((path) => `<li><code>${escapeHtml(path)}</code></li>`).join('')}</ul>`,
    '</section>'
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Helpers

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;'
};

/** JSON that is safe inside a script element: no `<` can end it or open a comment. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function inputText(call: AuditToolCall): string {
  const input = call.input;
  if (typeof input === 'string') return input;
  if (call.name === 'bash' && isRecord(input) && typeof input.command === 'string') {
    const rest = Object.fromEntries(Object.entries(input).filter(([key]) => key !== 'command'));
    return Object.keys(rest).length === 0
      ? input.command
      : `${input.command}\n\n${JSON.stringify(rest, null, 2)}`;
  }
  return JSON.stringify(input, null, 2) ?? '';
}

function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const keep = Math.floor(limit / 2);
  const omitted = text.length - 2 * keep;
  return (
    `${text.slice(0, keep)}\n\n[… ${formatInt(omitted)} characters left out of this report; ` +
    `the transcript has the whole text …]\n\n${text.slice(text.length - keep)}`
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

function formatInt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function formatTokensShort(value: number): string {
  if (value >= 1_000_000) return `${+(value / 1_000_000).toFixed(2)}M`;
  if (value >= 1_000) return `${+(value / 1_000).toFixed(1)}k`;
  return String(value);
}

function formatUsd(value: number): string {
  return `$${value.toFixed(value >= 10 ? 2 : value >= 0.1 ? 3 : 4)}`;
}

/** `2025-05-03T02:14:07.412Z` as `2025-05-03 02:14:07 UTC`; anything else as it is. */
function formatTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  const hours = Math.floor(seconds / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const rest = seconds % 60;
  return hours > 0 ? `${hours} h ${String(minutes).padStart(2, '0')} min` : `${minutes} min ${rest} s`;
}

// ---------------------------------------------------------------------------------------------------
// Style and script, inline (the page's Content-Security-Policy allows exactly these two by hash).

const STYLE = `
:root {
  --bg: #f6f7f9; --panel: #fff; --ink: #1d2430; --muted: #667085; --line: #d8dde6; --accent: #2f5fd0;
  --micro: #3b82c4; --auto: #8e44ad; --manual: #e07b16; --spill: #7c8a91; --fallback: #c0392b;
  --ok: #1e8e4e; --bad: #c0392b;
}
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 20px 40px; background: var(--bg); color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
h1 { font-size: 20px; margin: 0 0 8px; }
h2 { font-size: 15px; margin: 0 0 10px; }
h3 { font-size: 13px; margin: 14px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
code, pre, .key { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; }
.muted { color: var(--muted); }
.ok { color: var(--ok); font-weight: 600; }
.bad { color: var(--bad); font-weight: 600; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin-bottom: 14px; }
header.top { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin-bottom: 14px; }
.task { margin: 6px 0 10px; }
.label { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.task-text { font-family: inherit; font-size: 14px; background: #f2f4f8; border-radius: 6px; padding: 8px 10px; margin-top: 4px; }
.facts { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 6px 0; }
.facts div { min-width: 90px; }
.facts dt { font-size: 11.5px; color: var(--muted); }
.facts dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
.facts.tokens dd { font-weight: 500; }
.run-error { color: var(--bad); margin: 8px 0 0; }
details.more { margin-top: 6px; }
details.more > summary { cursor: pointer; color: var(--accent); }
details.more pre { background: #f2f4f8; border-radius: 6px; padding: 8px 10px; margin-top: 6px; max-height: 360px; overflow: auto; }
.banner { background: #fff4e0; border: 1px solid #f0b44c; border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.banner p { margin: 2px 0; }
.banner ul { margin: 4px 0 2px; padding-left: 20px; font-size: 13px; }
.overview { display: grid; grid-template-columns: minmax(0, 1fr) 400px; gap: 14px; align-items: start; }
.detail { position: sticky; top: 10px; max-height: calc(100vh - 20px); overflow: auto; }
.lower { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 14px; align-items: start; }
.side { position: sticky; top: 10px; }
@media (max-width: 1000px) { .overview, .lower { grid-template-columns: 1fr; } .detail, .side { position: static; max-height: none; } }
#context-chart { width: 100%; height: auto; display: block; }
#context-chart text { font: 11px system-ui, "DejaVu Sans", sans-serif; fill: var(--muted); }
#context-chart .grid { stroke: #eceff4; }
#context-chart .tick, #context-chart .axis-line { stroke: #aab2bf; }
#context-chart .lane { stroke: #eceff4; stroke-dasharray: 2 3; }
#context-chart .plot-hit { fill: transparent; cursor: crosshair; }
#context-chart .context-area { fill: rgba(47, 95, 208, .10); pointer-events: none; }
#context-chart .context-line { fill: none; stroke: var(--accent); stroke-width: 2; stroke-linejoin: round; pointer-events: none; }
#context-chart .context-point { fill: var(--accent); pointer-events: none; }
#context-chart .window-line { stroke: #9aa3ae; stroke-width: 1.5; stroke-dasharray: 6 4; pointer-events: none; }
#context-chart text.window-label { fill: #4a5563; }
#context-chart .compaction-drop { stroke-width: 2.5; stroke-dasharray: 3 2; pointer-events: none; opacity: .85; }
#context-chart .compaction-marker { stroke: #fff; stroke-width: 1.5; cursor: pointer; }
#context-chart .compaction-marker:hover { stroke: var(--ink); }
#context-chart .compaction-marker.selected { stroke: var(--ink); stroke-width: 3; r: 7px; }
#context-chart .compaction-drop.selected { stroke-width: 4; opacity: 1; stroke-dasharray: none; }
#context-chart .hover-line { stroke: #aab2bf; pointer-events: none; }
#context-chart .hover-dot { fill: var(--ink); pointer-events: none; }
#context-chart text.hover-text { fill: var(--ink); font-weight: 600; pointer-events: none; }
.compaction-marker.layer-micro { fill: var(--micro); } .compaction-drop.layer-micro { stroke: var(--micro); }
.compaction-marker.layer-auto { fill: var(--auto); } .compaction-drop.layer-auto { stroke: var(--auto); }
.compaction-marker.layer-manual { fill: var(--manual); } .compaction-drop.layer-manual { stroke: var(--manual); }
.compaction-marker.layer-spill { fill: var(--spill); } .compaction-drop.layer-spill { stroke: var(--spill); }
.compaction-marker.layer-fallback { fill: var(--fallback); } .compaction-drop.layer-fallback { stroke: var(--fallback); }
.layer-text-micro { fill: var(--micro) !important; } .layer-text-auto { fill: var(--auto) !important; }
.layer-text-manual { fill: var(--manual) !important; } .layer-text-spill { fill: var(--spill) !important; }
.layer-text-fallback { fill: var(--fallback) !important; }
.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; margin: 6px 0 0; font-size: 12.5px; color: var(--muted); }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 5px; vertical-align: -2px; }
.line-swatch { background: var(--accent); height: 3px; vertical-align: 3px; }
.window-swatch { border-top: 2px dashed #9aa3ae; height: 0; vertical-align: 3px; border-radius: 0; }
.layer-bg-micro { background: var(--micro); } .layer-bg-auto { background: var(--auto); }
.layer-bg-manual { background: var(--manual); } .layer-bg-spill { background: var(--spill); }
.layer-bg-fallback { background: var(--fallback); }
.badge { display: inline-block; color: #fff; font-size: 11.5px; font-weight: 600; border-radius: 4px; padding: 0 6px; line-height: 18px; }
.badge.error { background: var(--bad); }
.badge.muted-badge { background: #98a2b3; }
.table-wrap { max-height: 420px; overflow: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 7px; border-bottom: 1px solid #edf0f4; vertical-align: top; font-size: 13px; }
th { font-size: 11.5px; color: var(--muted); font-weight: 600; position: sticky; top: 0; background: var(--panel); }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.reason { min-width: 260px; }
td.reason .focus { color: #4a5563; font-style: italic; margin-top: 2px; }
.compaction-row { cursor: pointer; }
.compaction-row:hover { background: #f4f6fb; }
.compaction-row.selected { background: #e8eefc; box-shadow: inset 3px 0 0 var(--accent); }
.detail h2 { margin-bottom: 6px; }
.detail dl { display: grid; grid-template-columns: 110px 1fr; gap: 3px 8px; margin: 8px 0; font-size: 13px; }
.detail dt { color: var(--muted); }
.detail dd { margin: 0; word-break: break-word; }
.detail .summary-text { background: #f7f5fb; border-left: 3px solid var(--auto); padding: 8px 10px; border-radius: 4px; font-size: 12.5px; max-height: 480px; overflow: auto; }
.detail .ids { list-style: none; padding: 0; margin: 0; font-size: 12.5px; }
.detail .ids li { margin: 2px 0; }
.detail .nav { display: flex; gap: 8px; margin-top: 12px; }
button.link { background: none; border: 0; padding: 0; color: var(--accent); cursor: pointer; font: inherit; text-align: left; }
button.link:hover { text-decoration: underline; }
.nav button { font: inherit; font-size: 12.5px; padding: 3px 10px; border: 1px solid var(--line); border-radius: 5px; background: #fff; cursor: pointer; }
.nav button:disabled { opacity: .4; cursor: default; }
.search-bar { display: flex; gap: 12px; align-items: center; margin-bottom: 10px; position: sticky; top: 0; background: var(--panel); padding: 4px 0; z-index: 2; }
#search { flex: 1; font: inherit; padding: 7px 10px; border: 1px solid #b8c0cc; border-radius: 6px; }
#search:focus { outline: 2px solid var(--accent); outline-offset: -1px; }
.turn { border-top: 1px solid #edf0f4; padding: 8px 0 8px; content-visibility: auto; contain-intrinsic-size: auto 90px; }
.turn.hidden, .compaction-divider.hidden { display: none; }
.turn.has-error { box-shadow: inset 3px 0 0 var(--bad); padding-left: 8px; }
.turn.flash { background: #fff8d6; transition: background .6s; }
.turn header { font-size: 12.5px; color: var(--muted); margin-bottom: 3px; }
.turn-link { font-weight: 700; color: var(--ink); text-decoration: none; margin-right: 6px; }
.turn .text { white-space: pre-wrap; word-break: break-word; margin: 2px 0 6px; }
details.call { margin: 3px 0 3px 10px; border: 1px solid #e3e7ee; border-radius: 6px; background: #fafbfc; }
details.call.error { border-color: #eab0aa; background: #fff7f6; }
details.call.match { border-color: #e7b53c; box-shadow: 0 0 0 1px #e7b53c; }
details.call.flash { outline: 3px solid var(--accent); }
details.call > summary { cursor: pointer; padding: 4px 8px; font-size: 13px; }
.tool { font-weight: 600; color: #31405a; }
.key { color: #374151; background: #eef1f6; padding: 0 4px; border-radius: 3px; }
.call-meta { color: var(--muted); font-size: 11.5px; margin-left: 6px; }
.call-body { padding: 4px 10px 8px; }
.call-body h4 { margin: 6px 0 3px; font-size: 11.5px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.call-body pre { background: #fff; border: 1px solid #e3e7ee; border-radius: 4px; padding: 6px 8px; max-height: 420px; overflow: auto; }
.call-body pre.error-output { border-color: #eab0aa; color: #8a1f14; }
.compaction-divider { display: block; width: 100%; text-align: left; font: inherit; font-size: 12.5px; margin: 6px 0; padding: 4px 10px; cursor: pointer;
  background: #f7f8fb; border: 1px dashed #b8c0cc; border-left-width: 4px; border-radius: 4px; color: #374151; }
.layer-border-micro { border-left-color: var(--micro); } .layer-border-auto { border-left-color: var(--auto); }
.layer-border-manual { border-left-color: var(--manual); } .layer-border-spill { border-left-color: var(--spill); }
.layer-border-fallback { border-left-color: var(--fallback); }
.tools td, .tools th { font-size: 12.5px; padding: 4px 5px; }
.bar-cell { width: 80px; }
.bar { width: 80px; height: 8px; display: block; }
.bar-ok { fill: #9db4e8; } .bar-bad { fill: var(--bad); }
ul.files { list-style: none; padding: 0; margin: 0; font-size: 12.5px; }
ul.files li { padding: 2px 0; word-break: break-all; }
`;

const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('audit-data').textContent);
  var compactions = data.compactions;
  var detail = document.getElementById('compaction-detail');
  var rows = document.querySelectorAll('.compaction-row');
  var markers = document.querySelectorAll('.compaction-marker');
  var drops = document.querySelectorAll('.compaction-drop');
  var dividers = document.querySelectorAll('.compaction-divider');
  var turnEls = document.querySelectorAll('#timeline .turn');
  var search = document.getElementById('search');
  var searchCount = document.getElementById('search-count');
  var selected = -1;
  var HELP = {
    micro: 'Old tool results replaced by short placeholders; no model call.',
    auto: 'The history was summarized because the context passed the threshold.',
    manual: 'The model called compact; the history was summarized with its focus.',
    spill: 'A tool result too long for the context was saved to a file; the model got a preview.',
    fallback: 'The summary call failed, so the oldest turns were dropped instead.'
  };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function n(value) { return Math.round(value).toLocaleString('en-US'); }
  function usd(value) { return '$' + value.toFixed(value >= 10 ? 2 : value >= 0.1 ? 3 : 4); }
  function ms(value) { return value < 1000 ? Math.round(value) + ' ms' : (value / 1000).toFixed(1) + ' s'; }

  var callsById = null;
  function callElement(id) {
    if (!callsById) {
      callsById = new Map();
      document.querySelectorAll('#timeline details.call').forEach(function (node) {
        callsById.set(node.getAttribute('data-call-id'), node);
      });
    }
    return callsById.get(id);
  }

  function select(index) {
    var event = compactions[index];
    if (!event) return;
    selected = index;
    rows.forEach(function (row) { row.classList.toggle('selected', Number(row.dataset.index) === index); });
    markers.forEach(function (m) { m.classList.toggle('selected', Number(m.getAttribute('data-index')) === index); });
    drops.forEach(function (d) { d.classList.toggle('selected', Number(d.getAttribute('data-index')) === index); });
    var row = document.querySelector('.compaction-row[data-index="' + index + '"]');
    if (row) scrollWithin(row.closest('.table-wrap'), row);
    renderDetail(event, index);
  }

  function renderDetail(event, index) {
    var parts = [];
    var head = el('h2', null, 'Compaction ' + (index + 1) + ' of ' + compactions.length + ' ');
    var badge = el('span', 'badge layer-bg-' + event.layer, event.layer);
    head.appendChild(badge);
    parts.push(head);
    parts.push(el('p', 'muted', HELP[event.layer] || ''));
    var dl = el('dl');
    function fact(label, value) {
      if (value === undefined || value === null || value === '') return;
      dl.appendChild(el('dt', null, label));
      dl.appendChild(el('dd', null, value));
    }
    var saved = event.tokens_before - event.tokens_after;
    fact('Turn', event.turn);
    fact('Reason', event.reason);
    fact(event.layer === 'spill' ? 'Result tokens' : 'Tokens', n(event.tokens_before) + ' → ' + n(event.tokens_after) +
      (saved > 0 ? ' (' + n(saved) + ' fewer)' : ''));
    fact('Results cleared', n(event.results_cleared));
    if (event.summary_tokens > 0 || event.summary_cost_usd > 0) {
      fact('Summary', n(event.summary_tokens) + ' tokens, ' + usd(event.summary_cost_usd));
    }
    fact('Duration', event.duration_ms > 0 ? ms(event.duration_ms) : '');
    fact('Focus', event.focus);
    fact('Segment', event.segment_path);
    parts.push(dl);
    if (typeof event.summary === 'string') {
      parts.push(el('h3', null, 'Summary the model wrote'));
      parts.push(el('pre', 'summary-text', event.summary));
    } else if (event.layer === 'auto' || event.layer === 'manual' || event.layer === 'fallback') {
      parts.push(el('h3', null, 'Summary'));
      parts.push(el('p', 'muted', event.layer === 'fallback'
        ? 'No summary: the summary call failed, and the oldest turns were dropped.'
        : 'The transcript holds no summary text for this compaction.'));
    }
    var ids = event.tool_use_ids || [];
    if (ids.length > 0) {
      parts.push(el('h3', null, (event.layer === 'spill' ? 'Spilled tool result' : 'Cleared tool results') + ' (' + ids.length + ')'));
      var list = el('ul', 'ids');
      ids.forEach(function (id) {
        var li = el('li');
        var target = callElement(id);
        if (target) {
          var button = el('button', 'link', id);
          button.type = 'button';
          button.addEventListener('click', function () { showCall(target); });
          li.appendChild(button);
          var turnEl = target.closest('.turn');
          var what = target.querySelector('summary');
          li.appendChild(el('span', 'muted', ' — ' + (what ? what.querySelector('.tool').textContent + ' ' +
            (what.querySelector('.key') ? what.querySelector('.key').textContent : '') : '') +
            (turnEl ? ' (turn ' + turnEl.id.replace('turn-', '') + ')' : '')));
        } else {
          li.appendChild(el('code', null, id));
        }
        list.appendChild(li);
      });
      parts.push(list);
    }
    var nav = el('div', 'nav');
    var prev = el('button', null, '← previous');
    prev.type = 'button';
    prev.disabled = index === 0;
    prev.addEventListener('click', function () { select(index - 1); });
    var next = el('button', null, 'next →');
    next.type = 'button';
    next.disabled = index === compactions.length - 1;
    next.addEventListener('click', function () { select(index + 1); });
    var jump = el('button', null, 'show in timeline');
    jump.type = 'button';
    jump.addEventListener('click', function () {
      var divider = document.querySelector('.compaction-divider[data-index="' + index + '"]');
      if (divider) { clearSearchIfHidden(divider); divider.scrollIntoView({ block: 'center' }); }
    });
    nav.appendChild(prev);
    nav.appendChild(next);
    nav.appendChild(jump);
    parts.push(nav);
    detail.replaceChildren.apply(detail, parts);
  }

  // Brings a row into view inside its scrolled container, without moving the page.
  function scrollWithin(container, node) {
    if (!container) return;
    var box = container.getBoundingClientRect();
    var rect = node.getBoundingClientRect();
    var head = container.querySelector('thead');
    var top = box.top + (head ? head.getBoundingClientRect().height : 0);
    if (rect.top < top || rect.bottom > box.bottom) {
      container.scrollTop += rect.top - box.top - container.clientHeight / 2 + rect.height / 2;
    }
  }

  function indexOf(node) { return Number(node.getAttribute('data-index')); }
  rows.forEach(function (row) {
    row.addEventListener('click', function () { select(indexOf(row)); });
    row.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(indexOf(row)); }
      if (e.key === 'ArrowDown' && row.nextElementSibling) { e.preventDefault(); row.nextElementSibling.focus(); select(indexOf(row.nextElementSibling)); }
      if (e.key === 'ArrowUp' && row.previousElementSibling) { e.preventDefault(); row.previousElementSibling.focus(); select(indexOf(row.previousElementSibling)); }
    });
  });
  markers.forEach(function (marker) {
    marker.addEventListener('click', function () { select(indexOf(marker)); });
  });
  dividers.forEach(function (divider) {
    divider.addEventListener('click', function () { select(indexOf(divider)); });
  });

  // Tool calls: input and output are put into the page only when a call is opened.
  function fillCall(details) {
    if (details.dataset.filled) return;
    details.dataset.filled = '1';
    var turnEl = details.closest('.turn');
    var call = data.turns[Number(turnEl.dataset.i)].calls[Number(details.dataset.c)];
    var body = details.querySelector('.call-body');
    body.appendChild(el('h4', null, 'Input'));
    body.appendChild(el('pre', 'input', call.input));
    if (call.output === null) {
      body.appendChild(el('p', 'muted', 'No result recorded: the transcript ends before it.'));
    } else {
      body.appendChild(el('h4', null, call.error ? 'Output (error)' : 'Output'));
      body.appendChild(el('pre', call.error ? 'output error-output' : 'output', call.output === '' ? '(empty)' : call.output));
    }
  }
  document.getElementById('timeline').addEventListener('toggle', function (e) {
    var target = e.target;
    if (target && target.classList && target.classList.contains('call') && target.open) fillCall(target);
  }, true);

  function flash(node) {
    node.classList.add('flash');
    setTimeout(function () { node.classList.remove('flash'); }, 1600);
  }
  function clearSearchIfHidden(node) {
    var turnEl = node.closest ? (node.closest('.turn') || node) : node;
    if (turnEl.classList.contains('hidden')) { search.value = ''; applySearch(); }
  }
  function showCall(details) {
    clearSearchIfHidden(details);
    details.open = true;
    fillCall(details);
    details.scrollIntoView({ block: 'center' });
    flash(details);
  }
  function showTurn(turn) {
    var turnEl = document.getElementById('turn-' + turn);
    if (!turnEl) return;
    clearSearchIfHidden(turnEl);
    turnEl.scrollIntoView({ block: 'start' });
    flash(turnEl);
  }

  // Search: a turn matches when its text, a tool call (name or input) or an output holds the query.
  var haystacks = null;
  function buildHaystacks() {
    haystacks = [];
    turnEls.forEach(function (turnEl) {
      var turnData = data.turns[Number(turnEl.dataset.i)];
      var textNode = turnEl.querySelector('.text');
      var calls = turnData.calls.map(function (call, i) {
        var summary = turnEl.querySelector('details.call[data-c="' + i + '"] summary');
        return ((summary ? summary.textContent : call.name) + '\n' + call.input + '\n' + (call.output || '')).toLowerCase();
      });
      haystacks.push({ text: (textNode ? textNode.textContent : '').toLowerCase(), calls: calls });
    });
  }
  function applySearch() {
    var query = search.value.trim().toLowerCase();
    searchCount.setAttribute('data-query', query);
    if (query === '') {
      turnEls.forEach(function (turnEl) {
        turnEl.classList.remove('hidden');
        turnEl.querySelectorAll('details.call.match').forEach(function (d) { d.classList.remove('match'); });
      });
      dividers.forEach(function (d) { d.classList.remove('hidden'); });
      searchCount.textContent = '';
      return;
    }
    if (!haystacks) buildHaystacks();
    var matches = 0;
    turnEls.forEach(function (turnEl, i) {
      var hay = haystacks[i];
      var hit = hay.text.indexOf(query) !== -1;
      turnEl.querySelectorAll('details.call').forEach(function (details) {
        var callHit = hay.calls[Number(details.dataset.c)].indexOf(query) !== -1;
        details.classList.toggle('match', callHit);
        if (callHit) hit = true;
      });
      turnEl.classList.toggle('hidden', !hit);
      if (hit) matches++;
    });
    dividers.forEach(function (d) { d.classList.add('hidden'); });
    searchCount.textContent = matches === 0 ? 'no turn matches'
      : matches + ' of ' + turnEls.length + (turnEls.length === 1 ? ' turn matches' : ' turns match');
  }
  var timer = 0;
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(applySearch, 120);
  });
  search.addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { clearTimeout(timer); applySearch(); }
    if (e.key === 'Escape') { search.value = ''; applySearch(); }
  });

  // Chart readout: the context at the turn under the pointer; a click opens that turn.
  var chart = data.chart;
  var svg = document.getElementById('context-chart');
  var hit = document.getElementById('plot-hit');
  var hover = document.getElementById('chart-hover');
  function nearest(clientX) {
    if (chart.points.length === 0) return null;
    var point = svg.createSVGPoint();
    point.x = clientX;
    point.y = 0;
    var matrix = svg.getScreenCTM();
    if (!matrix) return null;
    var local = point.matrixTransform(matrix.inverse());
    var turn = chart.turnMin + (local.x - chart.left) / (chart.right - chart.left) * (chart.turnMax - chart.turnMin);
    var best = chart.points[0];
    chart.points.forEach(function (p) { if (Math.abs(p[0] - turn) < Math.abs(best[0] - turn)) best = p; });
    return best;
  }
  function px(turn) { return chart.left + (turn - chart.turnMin) / (chart.turnMax - chart.turnMin) * (chart.right - chart.left); }
  function py(tokens) { return chart.bottom - Math.min(tokens, chart.yMax) / chart.yMax * (chart.bottom - chart.top); }
  if (hit && hover) {
    var hoverLine = hover.querySelector('line');
    var hoverDot = hover.querySelector('circle');
    var hoverText = hover.querySelector('text');
    hit.addEventListener('mousemove', function (e) {
      var p = nearest(e.clientX);
      if (!p) return;
      var x = px(p[0]);
      hoverLine.setAttribute('x1', x);
      hoverLine.setAttribute('x2', x);
      hoverDot.setAttribute('cx', x);
      hoverDot.setAttribute('cy', py(p[1]));
      hoverText.textContent = 'turn ' + p[0] + ': ' + n(p[1]) + ' tokens';
      var right = x > (chart.left + chart.right) / 2;
      hoverText.setAttribute('x', right ? x - 8 : x + 8);
      hoverText.setAttribute('y', chart.top + 12);
      hoverText.setAttribute('text-anchor', right ? 'end' : 'start');
      hover.setAttribute('visibility', 'visible');
    });
    hit.addEventListener('mouseleave', function () { hover.setAttribute('visibility', 'hidden'); });
    hit.addEventListener('click', function (e) {
      var p = nearest(e.clientX);
      if (p) showTurn(p[0]);
    });
  }

  if (location.hash && /^#turn-\d+$/.test(location.hash)) showTurn(location.hash.slice(6));
})();
`;
