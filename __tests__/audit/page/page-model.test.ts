import { parseTranscript } from '../../../src/audit/parse-transcript.js';
import type { RunAudit } from '../../../src/audit/run-audit.js';
import { buildAuditPageModel, type AuditPageModel } from '../../../src/audit/page/page-model.js';
import { countCompactions } from '../../../src/compaction/compaction-count.js';
import { demoTranscript, type DemoTranscript } from './demo-transcript.js';

let demo: DemoTranscript;
let audit: RunAudit;
let model: AuditPageModel;
beforeAll(async () => {
  demo = await demoTranscript();
  audit = parseTranscript(demo.text);
  model = buildAuditPageModel(audit);
}, 60_000);
afterAll(() => demo?.remove());

describe('the audit page model, from a transcript the demo session wrote', () => {
  it('counts compactions as the comment does: every logged event, spills included, by layer', () => {
    expect(demo.outcome.result.stopReason).toBe('success');
    expect(model.compactionCount).toEqual(countCompactions(demo.log));
    // The demo fires every layer but fallback; a spill is an event like any other.
    const { byLayer, total } = model.compactionCount;
    expect(byLayer.spill).toBeGreaterThanOrEqual(1);
    expect(byLayer.micro && byLayer.auto && byLayer.manual).toBeGreaterThanOrEqual(1);
    expect(total).toBe(demo.log.length);
    expect(model.chart.count).toEqual(model.compactionCount);
    expect(model.compactions.map((row) => row.event)).toEqual(demo.log);
  });

  it('takes the threshold from the run_start line the run wrote', () => {
    const start = JSON.parse(demo.text.split('\n')[0]!) as Record<string, unknown>;
    expect(start).toMatchObject({ type: 'run_start', compaction_threshold_tokens: demo.threshold });
    expect(audit.compactionThresholdTokens).toBe(demo.threshold);
    expect(model.header.thresholdTokens).toBe(demo.threshold);
    expect(model.chart.threshold).toBe(demo.threshold);
  });

  it('shows each tool call once, in the turn that made it, though compactions re-record old messages', () => {
    const ids = model.timeline.flatMap((entry) =>
      entry.kind === 'turn' ? entry.turn.toolCalls.map((call) => call.id) : []
    );
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);
    // Every turn's text is the model's words of that turn only: no turn repeats an earlier one.
    const texts = audit.timeline.map((turn) => turn.text).filter((text) => text !== '');
    for (const [index, text] of texts.entries()) {
      for (const earlier of texts.slice(0, index)) expect(text).not.toContain(earlier);
    }
    // The data for the script has the same calls, turn by turn.
    expect(model.data.turns.map((turn) => turn.calls.length)).toEqual(
      audit.timeline.map((turn) => turn.toolCalls.length)
    );
  });

  it('puts each compaction right after the turn it followed', () => {
    let lastTurn = -Infinity;
    for (const entry of model.timeline) {
      if (entry.kind === 'turn') lastTurn = entry.turn.turn;
      else expect(entry.row.event.turn).toBe(lastTurn);
    }
    expect(model.timeline.filter((entry) => entry.kind === 'compaction')).toHaveLength(demo.log.length);
  });

  it('scales the chart from 0 to above the highest context and the threshold', () => {
    const { frame, yTicks } = model.chart;
    expect(yTicks[0]).toBe(0);
    const peak = Math.max(...audit.contextTokensPerTurn.map((point) => point.tokens), demo.threshold);
    expect(frame.yMax).toBeGreaterThan(peak);
    // A 1M window would flatten a context of a few thousand tokens: it is named, not drawn.
    expect(model.chart.contextWindow).toEqual({ tokens: audit.contextWindow, onScale: false });
    expect(frame.points).toHaveLength(audit.contextTokensPerTurn.length);
  });
});
