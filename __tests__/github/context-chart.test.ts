import { niceCeiling, renderChart } from '../../src/github/report/context-chart.js';
import { compactionEvent, type CompactionEvent } from '../../src/compaction/compactor.js';

const event = (turn: number, layer: CompactionEvent['layer']): CompactionEvent =>
  compactionEvent(turn, { layer, reason: layer, tokens_before: 9000, tokens_after: 2000 });

/** The chart's parts, read back as mermaid reads them. */
function parse(chart: string) {
  const diagram = /```mermaid\n([\s\S]*?)\n```/.exec(chart)![1]!;
  const [, frontmatter, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(diagram)!;
  const palette = /plotColorPalette: "([^"]*)"/.exec(frontmatter!)![1]!.split(', ');
  const lines = [...body!.matchAll(/^ {2}line \[([^\]]*)\]$/gm)].map((match) =>
    match[1]!.split(', ').map(Number)
  );
  const yAxis = /^ {2}y-axis "tokens" (\d+) --> (\d+)$/m.exec(body!);
  return {
    body: body!,
    palette,
    lines,
    yAxis: yAxis ? [Number(yAxis[1]), Number(yAxis[2])] : undefined,
    title: /^ {2}title "([^"]*)"$/m.exec(body!)?.[1],
    caption: chart.split('\n```\n\n')[1]!.split('\n\n</details>')[0]!
  };
}

describe('the context chart', () => {
  const perTurn = [1000, 3000, 6000, 8200, 2100, 2600, 2200, 4000];
  const log = [event(1, 'spill'), event(4, 'auto'), event(5, 'micro'), event(6, 'micro')];

  it('starts the y axis at 0 and reaches above both the peak and the threshold', () => {
    const chart = parse(renderChart(perTurn, log, 8000));
    expect(chart.body.startsWith('xychart-beta\n')).toBe(true);
    expect(chart.yAxis).toEqual([0, 10_000]);
    const lower = parse(renderChart([100, 200, 150], [], 40_000));
    expect(lower.yAxis).toEqual([0, 50_000]);
  });

  it('draws the threshold as a flat line and the context over it, and no compaction as a series', () => {
    const chart = parse(renderChart(perTurn, log, 8000));
    // Two series only: the threshold and the context. Nothing rises to the top of the chart.
    expect(chart.lines).toEqual([perTurn.map(() => 8000), perTurn]);
    expect(chart.lines.flat()).not.toContain(chart.yAxis![1]);
    // One colour per series, in their order: the context line last, in blue, over the threshold.
    expect(chart.palette).toEqual(['#cf222e', '#218bff']);
    expect(chart.caption).toContain('Red line: the auto-compaction threshold, 8,000 tokens');
    expect(chart.caption).toContain('blue line: context tokens sent (one point per turn)');
  });

  it('lists the summary compactions under the chart, at the turn where the line drops', () => {
    const chart = parse(renderChart(perTurn, log, 8000));
    // The auto compaction logged at turn 4 came before turn 5's request; micro clears and the spill
    // are counted in the title, not listed.
    expect(chart.caption).toContain(
      'Summary compactions (each a drop of the blue line):\n\n- turn 5: auto, 9,000 → 2,000 tokens'
    );
    expect(chart.caption).not.toMatch(/micro|spill/);
    const many = Array.from({ length: 25 }, (_, index) => event(index, 'manual'));
    const listed = parse(renderChart(perTurn, many, 8000)).caption;
    expect(listed.match(/^- turn \d+: manual/gm)).toHaveLength(20);
    expect(listed).toContain('- … and 5 more (the compaction log above has them all)');
    expect(parse(renderChart(perTurn, [event(1, 'micro')], 8000)).caption).not.toContain(
      'Summary compactions'
    );
  });

  it('is folded: it explains the run, it is not what a developer reads first', () => {
    const chart = renderChart(perTurn, log, 8000);
    expect(chart.startsWith('<details><summary>')).toBe(true);
    expect(chart).not.toContain('<details open>');
    expect(chart.endsWith('</details>')).toBe(true);
  });

  it('names the one count of compactions, spills included, in the title and the summary', () => {
    const chart = renderChart(perTurn, log, 8000);
    expect(parse(chart).title).toBe('Context tokens per turn · compactions: 4 (micro 2, auto 1, spill 1)');
    expect(chart).toMatch(
      /^<details><summary>Context tokens per turn · compactions: 4 \(micro 2, auto 1, spill 1\)<\/summary>/
    );
  });

  it('keeps the palette in step with the series when there is no threshold', () => {
    const chart = parse(renderChart(perTurn, [event(1, 'micro')], undefined));
    expect(chart.lines).toEqual([perTurn]);
    expect(chart.palette).toEqual(['#218bff']);
    expect(chart.yAxis).toEqual([0, 10_000]);
  });

  it('buckets a long run to its peaks', () => {
    const long = Array.from({ length: 1000 }, (_, turn) => (turn === 500 ? 39_000 : 10_000 + turn));
    const chart = parse(renderChart(long, [event(100, 'auto'), event(700, 'manual')], 40_000));
    expect(chart.lines[1]!.length).toBeLessThanOrEqual(150);
    expect(chart.lines[1]).toContain(39_000);
    expect(chart.caption).toContain('the highest of each 7 turns');
    expect(chart.caption).toContain('- turn 101: auto');
    expect(chart.caption).toContain('- turn 701: manual');
  });

  it('rounds the axis up to a readable number', () => {
    expect([9, 11, 1000, 1001, 2100, 4400, 44_000, 88_000].map(niceCeiling)).toEqual([
      10, 20, 1000, 2000, 2500, 5000, 50_000, 100_000
    ]);
  });
});
