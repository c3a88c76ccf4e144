import { buildContextChart } from '../../../src/audit/page/context-chart.js';
import { renderContextChart } from '../../../src/audit/page/context-chart-svg.js';
import type { RunAudit } from '../../../src/audit/run-audit.js';
import type { CompactionEvent, CompactionLayer } from '../../../src/compaction/compactor.js';
import { auditFixture } from '../../support/audit-fixture.js';

/** The y of a token count, read back from the chart's own axis labels and grid. */
function gridY(svg: string, label: string): number {
  const match = new RegExp(
    `<line class="grid" [^>]*y1="([\\d.]+)"[^>]*/>\\n<text class="axis y-label"[^>]*>${label}</text>`
  ).exec(svg);
  if (!match) throw new Error(`no grid line labelled ${label}`);
  return Number(match[1]);
}

function event(turn: number, layer: CompactionLayer, before: number, after: number): CompactionEvent {
  return {
    turn,
    layer,
    reason: `${layer} at ${turn}`,
    tokens_before: before,
    tokens_after: after,
    results_cleared: 0,
    summary_tokens: 0,
    summary_cost_usd: 0,
    duration_ms: 0,
    segment_path: null,
    focus: null
  };
}

/** A small run on a 1M window: the demo's shape, where the window used to flatten the line. */
function smallRun(): RunAudit {
  const tokens = [1_265, 1_841, 2_392, 2_713, 2_086, 2_166, 2_936, 1_907, 1_907, 2_116];
  return {
    ...auditFixture(),
    turns: tokens.length,
    contextWindow: 1_000_000,
    compactionThresholdTokens: 4_000,
    contextTokensPerTurn: tokens.map((value, index) => ({ turn: index + 1, tokens: value })),
    compactions: [
      event(4, 'micro', 3_084, 2_207),
      event(6, 'spill', 21_894, 524),
      event(7, 'auto', 4_258, 2_020),
      event(8, 'auto', 4_040, 2_020),
      event(10, 'manual', 2_253, 1_635)
    ]
  };
}

describe('the context chart', () => {
  const audit = smallRun();
  const chart = buildContextChart(audit);
  const svg = renderContextChart(chart);

  it('starts its token axis at 0, at the bottom of the plot', () => {
    expect(chart.yTicks[0]).toBe(0);
    expect(gridY(svg, '0')).toBe(chart.frame.bottom);
    // The line fills the plot: its peak is in the upper half, not squashed at the bottom.
    const ys = /points="([^"]+)"/
      .exec(svg)![1]!
      .split(' ')
      .map((point) => Number(point.split(',')[1]));
    const height = chart.frame.bottom - chart.frame.top;
    expect(chart.frame.bottom - Math.min(...ys)).toBeGreaterThan(height / 2);
    expect(Math.max(...ys)).toBeLessThanOrEqual(chart.frame.bottom);
  });

  it('draws the threshold as a labelled line at its height', () => {
    const line = /<line class="threshold-line" x1="[\d.]+" x2="[\d.]+" y1="([\d.]+)" y2="([\d.]+)"\/>/.exec(
      svg
    );
    expect(line).not.toBeNull();
    const { frame } = chart;
    const expected = frame.bottom - (4_000 / frame.yMax) * (frame.bottom - frame.top);
    expect(Number(line![1])).toBeCloseTo(expected, 0);
    expect(line![1]).toBe(line![2]);
    expect(svg).toContain('auto-compaction threshold 4,000</text>');
    expect(svg).toContain('auto-compaction threshold (4,000)</li>');
  });

  it('names a window far above the context instead of drawing it', () => {
    expect(chart.contextWindow).toEqual({ tokens: 1_000_000, onScale: false });
    expect(svg).not.toContain('class="window-line"');
    expect(svg).toContain('context window 1,000,000, far above this scale');
    // A window near the context is drawn, and the scale reaches it.
    const near = buildContextChart({ ...audit, contextWindow: 5_000 });
    expect(near.contextWindow).toEqual({ tokens: 5_000, onScale: true });
    expect(near.frame.yMax).toBeGreaterThanOrEqual(5_000);
    expect(renderContextChart(near)).toContain('class="window-line"');
  });

  it('marks every compaction, spills included, and draws a drop for each one that cut the context', () => {
    const markers = [...svg.matchAll(/<circle class="compaction-marker layer-(\w+)" data-index="(\d+)"/g)];
    expect(markers.map((marker) => [marker[1], Number(marker[2])])).toEqual(
      audit.compactions.map((compaction, index) => [compaction.layer, index])
    );
    const drops = [...svg.matchAll(/<line class="compaction-drop layer-(\w+)" data-index="(\d+)"/g)];
    expect(drops.map((drop) => Number(drop[2]))).toEqual([0, 2, 3, 4]);
    // The legend counts by layer, spills included, as the comment does.
    for (const [layer, count] of [
      ['micro', 1],
      ['auto', 2],
      ['manual', 1],
      ['spill', 1],
      ['fallback', 0]
    ] as const) {
      expect(svg).toContain(`</span>${layer} (${count})</li>`);
    }
    // A spill's tokens are one result's, not the context's: they do not stretch the scale.
    expect(chart.frame.yMax).toBeLessThan(21_894);
  });

  it('says when the transcript did not record a threshold, and draws no line for it', () => {
    const old = renderContextChart(buildContextChart({ ...audit, compactionThresholdTokens: undefined }));
    expect(old).not.toContain('threshold-line');
    expect(old).toContain('threshold not recorded in this transcript');
  });

  it('keeps x ticks inside the turns the run had', () => {
    expect(Math.max(...chart.xTicks)).toBeLessThanOrEqual(chart.frame.turnMax);
    expect(Math.min(...chart.xTicks)).toBeGreaterThanOrEqual(chart.frame.turnMin);
  });
});
