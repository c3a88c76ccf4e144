import { describeToolCall } from '../../tools/describe-call.js';
import type { AuditToolCall, AuditTurn } from '../run-audit.js';
import { layerBadge } from './compactions-section.js';
import { formatDuration, formatInt, formatTime, formatUsd } from './format.js';
import { escapeHtml } from './html-text.js';
import type { AuditPageModel, CompactionRow, TimelineEntry } from './page-model.js';

/** Every turn with the model's text and its tool calls (bodies filled by the script), and the search box. */
export function renderTimeline(model: AuditPageModel): string {
  return [
    '<section id="timeline-section" class="panel" aria-labelledby="timeline-title">',
    `<h2 id="timeline-title">Timeline (${formatInt(model.turnCount)} turns)</h2>`,
    '<div class="search-bar">',
    '<input id="search" type="search" placeholder="Search text, tool calls and outputs…" autocomplete="off" spellcheck="false" aria-label="Search the timeline">',
    '<span id="search-count" class="muted" aria-live="polite"></span>',
    '</div>',
    '<div id="timeline">',
    ...model.timeline.map(renderEntry),
    model.turnCount === 0 ? '<p class="muted">No turn was recorded.</p>' : '',
    '</div>',
    '</section>'
  ].join('\n');
}

function renderEntry(entry: TimelineEntry): string {
  return entry.kind === 'turn' ? renderTurn(entry.turn, entry.index) : compactionDivider(entry.row);
}

function compactionDivider({ index, event }: CompactionRow): string {
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
