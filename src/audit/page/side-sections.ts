import { formatInt } from './format.js';
import { escapeHtml } from './html-text.js';
import type { AuditPageModel } from './page-model.js';

/** Calls per tool with their failures, as a table with small bars. */
export function renderTools(model: AuditPageModel): string {
  const most = Math.max(1, ...model.tools.map((tool) => tool.calls));
  const share = (value: number) => ((100 * value) / most).toFixed(1);
  return [
    '<section class="panel" id="tools" aria-labelledby="tools-title">',
    '<h2 id="tools-title">Tools used</h2>',
    model.tools.length === 0
      ? '<p class="muted">No tool was called.</p>'
      : [
          '<table class="tools"><thead><tr><th>Tool</th><th class="num">Calls</th><th class="num">Failed</th><th></th></tr></thead><tbody>',
          ...model.tools.map(
            (tool) =>
              `<tr><td><code>${escapeHtml(tool.name)}</code></td><td class="num">${formatInt(tool.calls)}</td>` +
              `<td class="num${tool.failures > 0 ? ' bad' : ''}">${formatInt(tool.failures)}</td>` +
              `<td class="bar-cell"><svg class="bar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">` +
              `<rect class="bar-ok" x="0" y="0" height="8" width="${share(tool.calls - tool.failures)}"/>` +
              `<rect class="bar-bad" x="${share(tool.calls - tool.failures)}" y="0" height="8" width="${share(tool.failures)}"/>` +
              '</svg></td></tr>'
          ),
          '</tbody></table>'
        ].join('\n'),
    '</section>'
  ].join('\n');
}

export function renderFiles(model: AuditPageModel): string {
  const files = model.filesChanged;
  return [
    '<section class="panel" id="files" aria-labelledby="files-title">',
    `<h2 id="files-title">Files changed (${formatInt(files.length)})</h2>`,
    files.length === 0
      ? '<p class="muted">No file was written or edited.</p>'
      : `<ul class="files">${files.map((path) => `<li><code>${escapeHtml(path)}</code></li>`).join('')}</ul>`,
    '</section>'
  ].join('\n');
}

/** Whether the commands ran in the box, and each host its proxy refused (none for older transcripts). */
export function renderSandbox(model: AuditPageModel): string {
  const sandbox = model.sandbox;
  if (!sandbox) return '';
  const network = sandbox.network === 'allowlist' ? 'allowed hosts only' : 'off';
  const state =
    sandbox.state === 'off'
      ? `The commands ran without the box${sandbox.reason ? `: ${escapeHtml(sandbox.reason)}` : ''}.`
      : `The commands ran in the box; network: ${network}${sandbox.reason ? ` (${escapeHtml(sandbox.reason)})` : ''}.`;
  const refused = sandbox.refused;
  return [
    '<section class="panel" id="sandbox" aria-labelledby="sandbox-title">',
    `<h2 id="sandbox-title">Sandbox${sandbox.state === 'on' ? ` (${formatInt(refused.length)} refused)` : ''}</h2>`,
    `<p class="muted">${state}</p>`,
    sandbox.state === 'off' || refused.length === 0
      ? ''
      : [
          '<table class="tools"><thead><tr><th>Host</th><th class="num">Calls</th><th>Why</th><th class="num">First turn</th></tr></thead><tbody>',
          ...refused.map(
            (entry) =>
              `<tr><td><code>${escapeHtml(`${entry.host}:${entry.port}`)}</code></td><td class="num">${formatInt(entry.calls)}</td>` +
              `<td>${escapeHtml(entry.reason)}</td><td class="num">${formatInt(entry.firstTurn)}</td></tr>`
          ),
          '</tbody></table>'
        ].join('\n'),
    '</section>'
  ].join('\n');
}
