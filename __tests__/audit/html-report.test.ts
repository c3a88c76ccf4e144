import { createHash } from 'node:crypto';
import type { CompactionEvent } from '../../src/compaction/compactor.js';
import { renderHtmlReport } from '../../src/audit/html-report.js';
import type { RunAudit } from '../../src/audit/run-audit.js';
import { auditFixture, largeAuditFixture } from '../support/audit-fixture.js';

const PAYLOAD = '</script><script>alert(1)</script><img src=x onerror=alert(2)>';

interface EmbeddedData {
  compactions: CompactionEvent[];
  turns: Array<{
    turn: number;
    calls: Array<{ id: string; name: string; input: string; output: string | null; error: boolean }>;
  }>;
}

function embedded(html: string): EmbeddedData {
  const match = /<script type="application\/json" id="audit-data">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no embedded data');
  return JSON.parse(match[1]!) as EmbeddedData;
}

/** The page without its JSON data: what the browser parses as markup, style and script. */
function markup(html: string): string {
  return html.replace(/<script type="application\/json" id="audit-data">[\s\S]*?<\/script>/, '');
}

/** The markup alone, without style and scripts: what a reader sees. */
function visible(html: string): string {
  return html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, '');
}

function count(text: string, pattern: RegExp): number {
  return (
    text.match(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))
      ?.length ?? 0
  );
}

/** The fixture with the payload in every text a transcript can carry. */
function hostileAudit(): RunAudit {
  const audit = auditFixture();
  const [first, ...rest] = audit.timeline;
  return {
    ...audit,
    runId: `run ${PAYLOAD}`,
    task: `Fix it ${PAYLOAD}`,
    model: `model ${PAYLOAD}`,
    stopReason: `stop ${PAYLOAD}`,
    error: `error ${PAYLOAD}`,
    summary: `summary ${PAYLOAD}`,
    startedAt: PAYLOAD,
    timeline: [
      {
        ...first!,
        text: `I will read ${PAYLOAD}`,
        time: PAYLOAD,
        stopReason: PAYLOAD,
        toolCalls: [
          {
            id: `toolu_${PAYLOAD}`,
            name: `bash${PAYLOAD}`,
            input: { command: `cat evil.html # ${PAYLOAD}` },
            output: `<html>${PAYLOAD}</html>`,
            isError: true,
            durationMs: 12
          }
        ]
      },
      ...rest
    ],
    compactions: audit.compactions.map((event) => ({
      ...event,
      reason: `${event.reason} ${PAYLOAD}`,
      focus: PAYLOAD,
      segment_path: PAYLOAD,
      ...(event.summary ? { summary: `${event.summary}\n${PAYLOAD}` } : {}),
      ...(event.tool_use_ids ? { tool_use_ids: [...event.tool_use_ids, PAYLOAD] } : {})
    })),
    toolStats: [...audit.toolStats, { name: PAYLOAD, calls: 1, failures: 1 }],
    filesChanged: [...audit.filesChanged, `src/${PAYLOAD}.ts`],
    incomplete: true,
    skippedLines: [{ line: 3, reason: `invalid JSON ${PAYLOAD}` }]
  };
}

describe('renderHtmlReport', () => {
  const audit = auditFixture();
  const html = renderHtmlReport(audit);

  it('is one HTML document with a header, the chart, the compactions, the timeline and the tools', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(count(html, /<html\b/)).toBe(1);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    for (const id of [
      'context-chart',
      'compaction-list',
      'compaction-detail',
      'search',
      'search-count',
      'timeline'
    ]) {
      expect(count(html, new RegExp(`id="${id}"`))).toBe(1);
    }
    expect(html).toContain('<h1>compact-agent run 9184467302-1</h1>');
    expect(html).toContain('claude-sonnet-5-5');
    expect(html).toContain('<span class="ok">success</span>');
    // The task's first lines, escaped (the backticks stay; nothing else needs escaping there).
    expect(html).toContain('The nightly `reconcile` job times out on large accounts (issue #412)');
    // Nine lines, no thread record: the request is the task; its first six show, the rest fold.
    expect(html).toContain('<summary>The whole request</summary>');
    // Tokens per class, cost and duration.
    for (const label of ['uncached input', 'cache write', 'cache read', 'output']) {
      expect(html).toContain(`<dt>Tokens: ${label}</dt>`);
    }
    expect(html).toContain(`<dd>${audit.usage.cache_read.toLocaleString('en-US')}</dd>`);
    expect(html).toContain(`<dd>$${audit.costUsd.toFixed(3)}</dd>`);
    expect(html).toContain('<dd>23 min 20 s</dd>');
    // Tools and files.
    expect(html).toMatch(/<td><code>bash<\/code><\/td><td class="num">18<\/td><td class="num bad">4<\/td>/);
    for (const file of audit.filesChanged) expect(html).toContain(`<li><code>${file}</code></li>`);
    // Nothing unformatted leaks out of the templates.
    expect(visible(html)).not.toMatch(/NaN|undefined|\[object Object\]/);
  });

  it('draws the context per turn as an inline SVG line with the window and one marker per compaction', () => {
    const points = /<polyline id="context-line" class="context-line" points="([^"]+)"/.exec(html)?.[1];
    expect(points?.split(' ')).toHaveLength(audit.contextTokensPerTurn.length);
    for (const point of points!.split(' ')) expect(point).toMatch(/^\d+(\.\d)?,\d+(\.\d)?$/);
    expect(html).toContain('context window 200,000');
    expect(html).toContain('class="window-line"');

    const markers = [...html.matchAll(/<circle class="compaction-marker layer-(\w+)" data-index="(\d+)"/g)];
    expect(markers.map((marker) => Number(marker[2]))).toEqual(
      audit.compactions.map((_event, index) => index)
    );
    expect(markers.map((marker) => marker[1])).toEqual(audit.compactions.map((event) => event.layer));
    // Every layer is in the fixture, and in the legend with its count.
    expect(new Set(audit.compactions.map((event) => event.layer))).toEqual(
      new Set(['micro', 'auto', 'manual', 'spill', 'fallback'])
    );
    expect(html).toContain('micro (4)</li>');
    expect(html).toContain('fallback (2)</li>');
    // The drop of each compaction that changed the context (spills are one result: no drop).
    expect(count(html, /class="compaction-drop /)).toBe(
      audit.compactions.filter((event) => event.layer !== 'spill').length
    );
  });

  it('lists every compaction with turn, layer, reason, tokens, cleared results, summary cost and focus', () => {
    const rows = [...html.matchAll(/<tr class="compaction-row" data-index="(\d+)"[^>]*>([\s\S]*?)<\/tr>/g)];
    expect(rows).toHaveLength(audit.compactions.length);
    rows.forEach((row, index) => {
      const event = audit.compactions[index]!;
      const cells = row[2]!;
      expect(Number(row[1])).toBe(index);
      expect(cells).toContain(`<td>${event.turn}</td>`);
      expect(cells).toContain(`layer-bg-${event.layer}">${event.layer}</span>`);
      expect(cells).toContain(
        `${event.tokens_before.toLocaleString('en-US')} → ${event.tokens_after.toLocaleString('en-US')}`
      );
      expect(cells).toContain(`<td class="num">${event.results_cleared}</td>`);
      if (event.summary_tokens > 0) expect(cells).toContain(`$${event.summary_cost_usd.toFixed(4)}`);
      if (event.focus) expect(cells).toContain(`focus: ${event.focus}`);
    });
    // And a divider in the timeline after the turn each one followed.
    expect(count(html, /class="compaction-divider /)).toBe(audit.compactions.length);
    const auto = html.indexOf('compaction #4 after turn 14');
    expect(auto).toBeGreaterThan(html.indexOf('id="turn-14"'));
    expect(auto).toBeLessThan(html.indexOf('id="turn-15"'));
  });

  it('embeds the summaries, cleared ids, tool inputs and outputs as JSON for the script', () => {
    const data = embedded(html);
    expect(data.compactions).toEqual(audit.compactions);
    const summaries = data.compactions.filter((event) => event.summary !== undefined);
    expect(summaries.map((event) => event.layer)).toEqual(['auto', 'manual', 'manual', 'auto']);
    expect(summaries[0]!.summary).toContain('## Task and intent');
    expect(data.turns).toHaveLength(audit.timeline.length);
    const failing = data.turns[11]!.calls[0]!;
    expect(failing).toMatchObject({
      name: 'bash',
      error: true,
      input: 'npm test -- test/reconcile 2>&1 | tail -60'
    });
    expect(failing.output).toContain('prefers the earliest booking');
    expect(data.turns[8]!.calls[1]!.input).toBe(
      'npx tsx scripts/bench-reconcile.ts --entries 20000\n\n{\n  "timeout_ms": 300000\n}'
    );
  });

  it('shows tool calls by name and key input, marks errors, and leaves outputs out of the markup', () => {
    const calls = audit.timeline.flatMap((turn) => turn.toolCalls);
    expect(count(html, /<details class="call/)).toBe(calls.length);
    expect(count(html, /<div class="call-body"><\/div>/)).toBe(calls.length);
    expect(count(html, /<details class="call error"/)).toBe(calls.filter((call) => call.isError).length);
    expect(html).toContain(
      '<summary><span class="tool">bash</span> <code class="key">npm run typecheck</code> <span class="badge error">error</span>'
    );
    expect(html).toContain('<span class="tool">grep</span> <code class="key">TODO.*(412|reconcile)</code>');
    expect(count(html, /<article class="turn has-error"/)).toBe(
      audit.timeline.filter((turn) => turn.toolCalls.some((call) => call.isError)).length
    );
    // Outputs are only in the JSON: the jest failure text is not markup.
    expect(markup(html)).not.toContain('prefers the earliest booking (6 ms)');
  });

  it('makes no request of any kind: no remote src or href, no @import, no url(), no fetch', () => {
    const page = markup(html);
    expect(page).not.toMatch(/\b(src|href|action|poster|srcset)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(page).not.toMatch(/https?:\/\//i);
    expect(page).not.toMatch(
      /@import|url\(|fetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|import\(/
    );
    expect(page).not.toMatch(/<(iframe|object|embed|link rel="stylesheet"|img)\b/i);
    // The only src/href attributes are local fragments and the empty data: icon.
    for (const [, value] of page.matchAll(/\b(?:src|href)="([^"]*)"/g))
      expect(value).toMatch(/^(#turn-\d+|data:,)$/);
    // A URL in a tool output (jest's timeout hint) is data, never a link.
    expect(html).toContain('https://jestjs.io/docs/api#testname-fn-timeout');
  });

  it("allows only its own inline style and script, by hash, in the page's Content-Security-Policy", () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(csp).toContain("default-src 'none'");
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(csp).toContain(`style-src ${hash(style)}`);
    expect(csp).toContain(`script-src ${hash(script)}`);
    expect(csp).not.toContain('unsafe');
  });

  it('has no warning banner for a complete run with every line read', () => {
    expect(html).not.toContain('id="warning-banner"');
  });

  it('warns when the transcript is incomplete, and says which lines were skipped', () => {
    const page = renderHtmlReport({
      ...audit,
      incomplete: true,
      stopReason: undefined,
      durationMs: undefined,
      skippedLines: [
        { line: 17, reason: 'invalid JSON: Unexpected end of JSON input' },
        { line: 42, reason: 'unknown type "heartbeat"' }
      ]
    });
    const banner = /<div id="warning-banner" class="banner" role="alert">([\s\S]*?)<\/div>/.exec(page)?.[1];
    expect(banner).toContain('Incomplete transcript');
    expect(banner).toContain('no run_end line');
    expect(banner).toContain(`2 of ${audit.lineCount} lines were skipped`);
    expect(banner).toContain('<li>line 17: invalid JSON: Unexpected end of JSON input</li>');
    expect(banner).toContain('<li>line 42: unknown type &quot;heartbeat&quot;</li>');
    expect(page).toContain('<span class="muted">no end recorded</span>');
    expect(page).toContain('<div><dt>Duration</dt><dd>—</dd></div>');

    const many = renderHtmlReport({
      ...audit,
      skippedLines: Array.from({ length: 27 }, (_value, index) => ({ line: index + 5, reason: 'not JSON' }))
    });
    expect(many).not.toContain('Incomplete transcript');
    expect(count(many, /<li>line \d+: not JSON<\/li>/)).toBe(20);
    expect(many).toContain('<li>… and 7 more</li>');
  });

  it('escapes every text from the transcript: a hostile output stays inert text', () => {
    const page = renderHtmlReport(hostileAudit());
    const body = markup(page);
    // Exactly the two script elements of the report, and no other element the payload tried to add.
    expect(count(page, /<script\b/i)).toBe(2);
    expect(count(page, /<\/script/i)).toBe(2);
    expect(page).not.toMatch(/<img\b/i);
    expect(page).not.toContain('alert(1)</script>');
    expect(body).toContain(
      '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;'
    );
    // The JSON keeps the text whole for the script, with every `<` escaped.
    const data = embedded(page);
    expect(data.turns[0]!.calls[0]!.output).toBe(`<html>${PAYLOAD}</html>`);
    expect(data.compactions[3]!.summary).toContain(PAYLOAD);
    const json = /id="audit-data">([\s\S]*?)<\/script>/.exec(page)![1]!;
    expect(json).not.toContain('<');
    expect(json).toContain('\\u003c/script>\\u003cscript>alert(1)');
    // Attributes too: the hostile tool id cannot close its attribute.
    expect(body).toContain('data-call-id="toolu_&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img');
  });

  it('keeps a 1,000-turn run a sane size, with outputs only in the data and long ones clipped', () => {
    const long = largeAuditFixture(1_000);
    expect(long.timeline).toHaveLength(1_000);
    expect(long.compactions).toHaveLength(300);
    const page = renderHtmlReport(long);
    const bytes = Buffer.byteLength(page);
    // Measured: 2.38 MB (about 2.4 KB a turn) for ~2,400 tool calls.
    expect(bytes).toBeLessThan(4_000_000);
    expect(count(page, /<article class="turn/)).toBe(1_000);
    expect(count(page, /class="compaction-marker /)).toBe(300);
    expect(count(page, /<div class="call-body"><\/div>/)).toBe(
      long.timeline.flatMap((turn) => turn.toolCalls).length
    );
    // The chart stays one line of 1,000 points, without a dot per turn.
    expect(/points="([^"]+)"/.exec(page)![1]!.split(' ')).toHaveLength(1_000);
    expect(count(page, /class="context-point"/)).toBe(0);

    const huge = 'x'.repeat(100_000);
    const withHuge: RunAudit = {
      ...audit,
      timeline: audit.timeline.map((turn, index) =>
        index === 0 ? { ...turn, toolCalls: [{ ...turn.toolCalls[0]!, output: huge }] } : turn
      )
    };
    const clipped = embedded(renderHtmlReport(withHuge)).turns[0]!.calls[0]!.output!;
    expect(clipped.length).toBeLessThan(12_200);
    expect(clipped).toContain(
      '[… 88,000 characters left out of this report; the transcript has the whole text …]'
    );
    const wider = embedded(renderHtmlReport(withHuge, { maxOutputChars: 200_000 })).turns[0]!.calls[0]!
      .output;
    expect(wider).toBe(huge);
  });

  it('renders an empty audit (a transcript cut after its first line) without failing', () => {
    const empty: RunAudit = {
      runId: undefined,
      task: undefined,
      thread: undefined,
      model: undefined,
      stopReason: undefined,
      error: undefined,
      summary: undefined,
      turns: 0,
      durationMs: undefined,
      startedAt: undefined,
      usage: { input: 0, cache_write: 0, cache_read: 0, output: 0 },
      costUsd: 0,
      contextWindow: undefined,
      compactionThresholdTokens: undefined,
      contextTokensPerTurn: [],
      compactions: [],
      toolStats: [],
      filesChanged: [],
      timeline: [],
      incomplete: true,
      skippedLines: [],
      lineCount: 1
    };
    const page = renderHtmlReport(empty);
    expect(page).toContain('No response was recorded.');
    expect(page).toContain('This run had no compaction.');
    expect(page).toContain('No turn was recorded.');
    expect(page).toContain('Incomplete transcript');
    expect(page).toContain('id="context-chart"');
    expect(visible(page)).not.toMatch(/NaN|undefined|Infinity/);
  });
});
