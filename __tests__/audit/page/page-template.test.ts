import { createHash } from 'node:crypto';
import { parseTranscript } from '../../../src/audit/parse-transcript.js';
import { CLIENT_SCRIPT } from '../../../src/audit/page/client-script.js';
import { buildAuditPageModel } from '../../../src/audit/page/page-model.js';
import { renderAuditPage } from '../../../src/audit/page/page-template.js';
import { AUDIT_PAGE_STYLE } from '../../../src/audit/page/stylesheet.js';

const PAYLOAD = '</script><script>alert(1)</script><img src=x onerror=alert(2)><!--';
const ESCAPED =
  '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&lt;!--';

/** A transcript whose every free text is the payload: what a hostile issue or tool output could make. */
function hostileTranscript(): string {
  let seq = 0;
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ seq: seq++, time: '2026-11-23T12:00:00.000Z', ...fields });
  return [
    line({
      type: 'run_start',
      run_id: `run ${PAYLOAD}`,
      task: `task ${PAYLOAD}`,
      model: `model ${PAYLOAD}`,
      repo: `/repo ${PAYLOAD}`,
      system_prompt: PAYLOAD,
      tools: [`bash${PAYLOAD}`],
      limits: { max_turns: 10, timeout_minutes: 10, max_budget_usd: 1 },
      context_window: 200_000,
      compaction_threshold_tokens: 40_000,
      sandbox: { state: 'on', network: 'allowlist', reason: `why ${PAYLOAD}` }
    }),
    line({ type: 'message', turn: 0, index: 0, role: 'user', content: [{ type: 'text', text: PAYLOAD }] }),
    line({
      type: 'response',
      turn: 1,
      message_id: `msg ${PAYLOAD}`,
      stop_reason: PAYLOAD,
      usage: { input: 1, cache_write: 2, cache_read: 3, output: 4 },
      context_tokens: 12_000,
      cost_usd: 0.01,
      total_cost_usd: 0.01,
      duration_ms: 500
    }),
    line({
      type: 'message',
      turn: 1,
      index: 1,
      role: 'assistant',
      content: [
        { type: 'text', text: `I read ${PAYLOAD}` },
        { type: 'tool_use', id: `toolu_${PAYLOAD}`, name: `bash${PAYLOAD}`, input: { command: PAYLOAD } }
      ]
    }),
    line({
      type: 'message',
      turn: 1,
      index: 2,
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu_${PAYLOAD}`, content: `out ${PAYLOAD}` }]
    }),
    line({
      type: 'tool_result',
      turn: 1,
      tool_use_id: `toolu_${PAYLOAD}`,
      name: `bash${PAYLOAD}`,
      is_error: false,
      duration_ms: 20,
      sandbox_blocked: [{ host: `evil${PAYLOAD}`, port: 443, reason: `refused ${PAYLOAD}` }]
    }),
    line({
      type: 'compaction',
      turn: 1,
      layer: 'manual',
      reason: `reason ${PAYLOAD}`,
      tokens_before: 12_000,
      tokens_after: 3_000,
      results_cleared: 1,
      summary_tokens: 400,
      summary_cost_usd: 0.002,
      duration_ms: 900,
      segment_path: `seg ${PAYLOAD}`,
      focus: `focus ${PAYLOAD}`,
      summary: `summary ${PAYLOAD}`,
      tool_use_ids: [`toolu_${PAYLOAD}`]
    }),
    line({
      type: 'run_end',
      stop_reason: `stop ${PAYLOAD}`,
      turns: 1,
      usage: { input: 1, cache_write: 2, cache_read: 3, output: 4 },
      cost_usd: 0.01,
      duration_ms: 1_000,
      summary: `summary ${PAYLOAD}`,
      error: `error ${PAYLOAD}`
    })
  ].join('\n');
}

describe('the page template', () => {
  const audit = parseTranscript(hostileTranscript());
  const page = renderAuditPage(buildAuditPageModel(audit));
  const json = /<script type="application\/json" id="audit-data">([\s\S]*?)<\/script>/.exec(page)![1]!;
  const markup = page.replace(json, '');

  it('reads the hostile transcript whole: the payload is in every field it can reach', () => {
    expect(audit.skippedLines).toEqual([]);
    expect(audit.compactions).toHaveLength(1);
    expect(audit.timeline[0]!.toolCalls[0]!.output).toBe(`out ${PAYLOAD}`);
  });

  it('escapes every text from the transcript in the markup', () => {
    // Only the page's own two script elements, and none of the payload's elements.
    expect(page.match(/<script\b/gi)).toHaveLength(2);
    expect(page.match(/<\/script/gi)).toHaveLength(2);
    expect(page).not.toMatch(/<img\b/i);
    expect(markup).not.toContain('<!--');
    for (const text of [
      `compact-agent run run ${ESCAPED}`,
      `task ${ESCAPED}`,
      `model ${ESCAPED}`,
      `stop ${ESCAPED}`,
      `error ${ESCAPED}`,
      `summary ${ESCAPED}`,
      `reason ${ESCAPED}`,
      `focus: focus ${ESCAPED}`,
      `I read ${ESCAPED}`,
      `data-call-id="toolu_${ESCAPED}"`,
      `<span class="tool">bash${ESCAPED}</span>`,
      `network: allowed hosts only (why ${ESCAPED})`,
      `<code>evil${ESCAPED}:443</code>`,
      `<td>refused ${ESCAPED}</td>`
    ]) {
      expect(markup).toContain(text);
    }
  });

  it('lists what the sandbox refused, with a count and the first turn', () => {
    expect(markup).toContain('<h2 id="sandbox-title">Sandbox (1 refused)</h2>');
    expect(markup).toMatch(/<td class="num">1<\/td><td>refused [^<]*<\/td><td class="num">1<\/td>/);
  });

  it('keeps the texts whole in the JSON for the script, with no `<` left in it', () => {
    expect(json).not.toContain('<');
    const data = JSON.parse(json) as {
      compactions: Array<{ summary: string; tool_use_ids: string[] }>;
      turns: Array<{ calls: Array<{ input: string; output: string }> }>;
    };
    expect(data.compactions[0]!.summary).toBe(`summary ${PAYLOAD}`);
    expect(data.compactions[0]!.tool_use_ids).toEqual([`toolu_${PAYLOAD}`]);
    expect(data.turns[0]!.calls[0]).toMatchObject({
      // The tool is not `bash` (its name carries the payload), so its input is shown as JSON.
      input: JSON.stringify({ command: PAYLOAD }, null, 2),
      output: `out ${PAYLOAD}`
    });
  });

  it('runs only its own style and script, allowed by hash', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)![1]!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(CLIENT_SCRIPT)}`);
    expect(csp).toContain(`style-src ${hash(AUDIT_PAGE_STYLE)}`);
    expect(page).toContain(`<script>${CLIENT_SCRIPT}</script>`);
    expect(page).toContain(`<style>${AUDIT_PAGE_STYLE}</style>`);
  });

  it('refuses to inline a script that would end its own element', () => {
    const model = buildAuditPageModel(audit);
    expect(() => renderAuditPage(model, 'let s = "</script>";')).toThrow(/would end it early/);
    expect(() => renderAuditPage(model, 'let s = "<!--";')).toThrow(/would end it early/);
  });

  it('shows the compaction count by layer and the recorded threshold in the header', () => {
    expect(page).toContain('<div><dt>Compactions</dt><dd>1 (manual 1)</dd></div>');
    expect(page).toContain('<div><dt>Threshold</dt><dd>40,000</dd></div>');
    expect(page).toContain('<h2 id="compactions-title">Compactions: 1 (manual 1)</h2>');
  });
});
