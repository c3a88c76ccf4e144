import { escapeHtml } from '../page/html-text.js';
import { cspHash, renderPageHead } from '../page/page-head.js';
import { AUDIT_PAGE_STYLE } from '../page/stylesheet.js';
import type { Ledger } from './ledger-records.js';
import type { LedgerRow, Verdict } from './ledger-row.js';
import type { CostGroup } from './ledger-totals.js';

const LEDGER_STYLE = `
table.ledger { border-collapse: collapse; width: 100%; font-size: 13px; }
table.ledger th, table.ledger td { border-bottom: 1px solid var(--line); padding: 5px 7px; text-align: left; vertical-align: top; }
table.ledger th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
table.ledger td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.verdict { display: inline-block; border-radius: 10px; padding: 1px 8px; font-size: 12px; font-weight: 600; color: #fff; }
.v-intact { background: var(--ok); } .v-tampered { background: var(--bad); } .v-expired { background: #b7791f; }
.v-missing { background: var(--muted); } .v-unreadable { background: #6b4fbb; } .v-unverified { background: #2b6cb0; }
.detail { color: var(--muted); font-size: 12px; }
.totals { display: flex; flex-wrap: wrap; gap: 14px; }
.totals .panel { flex: 1 1 220px; margin: 0; }
.list { font-size: 12px; }
.rows { margin-top: 14px; }
table.ledger td.run, table.ledger td.when { white-space: nowrap; }
`;

/**
 * The ledger as one self-contained page, in the audit page's style: no request of any kind (it opens
 * from file:// offline), every text escaped where it enters the markup, and a Content-Security-Policy
 * that allows only its own stylesheet, by hash, and no script. Each row links its run's page, its
 * report and its thread on GitHub.
 */
export function renderLedgerHtml(ledger: Ledger): string {
  const style = `${AUDIT_PAGE_STYLE}\n${LEDGER_STYLE}`;
  const csp = ["default-src 'none'", `style-src ${cspHash(style)}`, "base-uri 'none'", "form-action 'none'"];
  const { totals } = ledger;
  const window = [ledger.since && `since ${ledger.since}`, ledger.until && `until ${ledger.until}`]
    .filter(Boolean)
    .join(' ');
  return [
    ...renderPageHead(`Agent runs of ${ledger.repository}`, style, csp),
    '<body>',
    '<header class="top">',
    `<h1>Agent runs of ${escapeHtml(ledger.repository)}</h1>`,
    `<div class="muted">${totals.runs} runs${window ? ` ${escapeHtml(window)}` : ''}${
      ledger.found > totals.runs ? ` (the newest ${totals.runs} of ${ledger.found} found)` : ''
    } · ${money(totals.costUsd)} in all · audited ${escapeHtml(ledger.generatedAt)}</div>`,
    `<div class="facts">${(Object.entries(totals.verdicts) as [Verdict, number][])
      .map(([verdict, count]) => `<div>${badge(verdict)} ${count}</div>`)
      .join('')}</div>`,
    '</header>',
    '<div class="totals">',
    totalsPanel('Cost per month', totals.byMonth),
    totalsPanel('Cost per requester', totals.byRequester),
    totalsPanel('Cost per kind', totals.byKind),
    '</div>',
    '<div class="panel rows">',
    '<table class="ledger">',
    '<thead><tr><th>Run</th><th>When</th><th>Thread</th><th>Requester</th><th>Kind</th><th>Outcome</th><th>PR</th>' +
      '<th>Turns</th><th>Tokens</th><th>Cost</th><th>Tools</th><th>Refused</th><th>Files changed</th><th>Record</th></tr></thead>',
    '<tbody>',
    ...ledger.rows.map(renderRow),
    '</tbody>',
    '</table>',
    '</div>',
    ...(ledger.ignored.length > 0
      ? [
          '<div class="panel rows">',
          `<h2>Left out, not the agent's records (checked against ${escapeHtml(ledger.workflow ?? 'no workflow')})</h2>`,
          '<ul>',
          ...ledger.ignored.map(
            (record) =>
              `<li>${escapeHtml(record.source)}: <span class="detail">${escapeHtml(record.reason)}</span></li>`
          ),
          '</ul>',
          '</div>'
        ]
      : []),
    '</body>',
    '</html>',
    ''
  ].join('\n');
}

function renderRow(row: LedgerRow): string {
  const repoUrl = row.runUrl.replace(/\/actions\/runs\/\d+$/, '');
  const tokens = row.usage
    ? row.usage.input + row.usage.cache_write + row.usage.cache_read + row.usage.output
    : undefined;
  const refused = [
    ...row.deniedCommands.map((c) => `denied ${c}`),
    ...row.refusedHosts.map((h) => `host ${h}`)
  ];
  return [
    '<tr>',
    `<td class="run">${link(row.runUrl, row.runId)}${row.reportUrl ? `<br>${link(row.reportUrl, 'report')}` : ''}</td>`,
    `<td class="when">${escapeHtml(row.time?.slice(0, 10) ?? '?')}</td>`,
    `<td>${row.thread === undefined ? '' : link(row.threadUrl ?? `${repoUrl}/issues/${row.thread}`, `#${row.thread}`)}</td>`,
    `<td>${escapeHtml(row.requester ?? '')}</td>`,
    `<td>${escapeHtml(row.kind)}</td>`,
    `<td>${escapeHtml(row.outcome ?? '')}</td>`,
    `<td>${row.pullRequest === undefined ? '' : link(`${repoUrl}/pull/${row.pullRequest}`, `#${row.pullRequest}`)}</td>`,
    `<td class="num">${row.turns ?? ''}</td>`,
    `<td class="num">${tokens === undefined ? '' : tokens.toLocaleString('en-US')}</td>`,
    `<td class="num">${row.costUsd === undefined ? '' : money(row.costUsd)}</td>`,
    `<td class="list">${escapeHtml(row.tools.map((tool) => `${tool.name} ${tool.calls}`).join(', '))}</td>`,
    `<td class="list">${escapeHtml(refused.join(', '))}</td>`,
    `<td class="list">${escapeHtml(row.filesChanged.join(', '))}</td>`,
    `<td>${badge(row.verdict)}<div class="detail">${escapeHtml(row.detail)}</div></td>`,
    '</tr>'
  ].join('');
}

function totalsPanel(title: string, groups: readonly CostGroup[]): string {
  const rows = groups
    .map(
      (group) =>
        `<tr><td>${escapeHtml(group.key)}</td><td class="num">${group.runs}</td><td class="num">${money(group.costUsd)}</td></tr>`
    )
    .join('');
  return `<div class="panel"><h2>${title}</h2><table class="ledger"><thead><tr><th></th><th>Runs</th><th>Cost</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function badge(verdict: Verdict): string {
  return `<span class="verdict v-${verdict}">${verdict}</span>`;
}

/** Only http(s) links: a URL from a report or transcript cannot become `javascript:`. */
function link(url: string, text: string): string {
  return /^https?:\/\//i.test(url)
    ? `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`
    : escapeHtml(text);
}

function money(usd: number): string {
  return `$${usd.toFixed(2)}`;
}
