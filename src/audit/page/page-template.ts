import { CLIENT_SCRIPT } from './client-script.js';
import { renderCompactionDetail, renderCompactionList } from './compactions-section.js';
import { renderContextChart } from './context-chart-svg.js';
import { renderHeader } from './header-section.js';
import { jsonForScript } from './html-text.js';
import type { AuditPageModel } from './page-model.js';
import { cspHash, renderPageHead } from './page-head.js';
import { renderFiles, renderSandbox, renderTools } from './side-sections.js';
import { AUDIT_PAGE_STYLE } from './stylesheet.js';
import { renderTimeline } from './timeline-section.js';

/**
 * The page as one self-contained HTML document: inline style and script, no request of any kind, so
 * it opens from file:// on a machine with no network. Every text from the transcript is escaped where
 * it enters the markup; what the script needs is JSON in a non-executed script element, in which no
 * `<` survives; and the Content-Security-Policy runs only this page's own style and script, by hash.
 */
export function renderAuditPage(model: AuditPageModel, script: string = CLIENT_SCRIPT): string {
  assertInlineSafe(script, 'script');
  assertInlineSafe(AUDIT_PAGE_STYLE, 'style');
  const csp = [
    "default-src 'none'",
    `style-src ${cspHash(AUDIT_PAGE_STYLE)}`,
    `script-src ${cspHash(script)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'"
  ];
  return [
    ...renderPageHead(model.title, AUDIT_PAGE_STYLE, csp),
    '<body>',
    renderHeader(model),
    '<div class="overview">',
    '<div class="main-col">',
    renderContextChart(model.chart),
    renderCompactionList(model),
    '</div>',
    renderCompactionDetail(model),
    '</div>',
    '<div class="lower">',
    renderTimeline(model),
    '<aside class="side">',
    renderTools(model),
    renderFiles(model),
    renderSandbox(model),
    '</aside>',
    '</div>',
    `<script type="application/json" id="audit-data">${jsonForScript(model.data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    ''
  ].join('\n');
}

/** Our own inline code must not end its element early: a guard against a future edit, not the transcript. */
function assertInlineSafe(code: string, element: 'script' | 'style'): void {
  if (new RegExp(`</${element}|<!--`, 'i').test(code)) {
    throw new Error(
      `The audit page's inline ${element} contains "</${element}" or "<!--", which would end it early. ` +
        `Write the text another way (for example "<\\/${element}").`
    );
  }
}
