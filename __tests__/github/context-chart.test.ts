import { niceCeiling, renderChart } from '../../src/github/context-chart.js';
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

  it('draws the threshold as a flat line, the context over it, and pins the summary compactions', () => {
    const chart = parse(renderChart(perTurn, log, 8000));
    const [pins, threshold, context] = chart.lines;
    expect(context).toEqual(perTurn);
    expect(threshold).toEqual(perTurn.map(() => 8000));
    // The auto compaction logged at turn 4 came before turn 5's request: index 4 rises to the top.
    // The micro clears and the spill are not pinned: the pin line is the context line elsewhere.
    expect(pins).toEqual(perTurn.map((value, index) => (index === 4 ? 10_000 : value)));
    // One colour per series, in their order: the context line last, in blue, over the others.
    expect(chart.palette).toEqual(['#bf8700', '#cf222e', '#218bff']);
    expect(chart.caption).toContain('red line: the auto-compaction threshold, 8,000 tokens');
    expect(chart.caption).toContain('blue line: context tokens sent (one point per turn)');
  });

  it('names the one count of compactions, spills included, in the title and the summary', () => {
    const chart = renderChart(perTurn, log, 8000);
    expect(parse(chart).title).toBe('Context tokens per turn · compactions: 4 (micro 2, auto 1, spill 1)');
    expect(chart).toMatch(
      /^<details open><summary>Context tokens per turn · compactions: 4 \(micro 2, auto 1, spill 1\)<\/summary>/
    );
  });

  it('keeps the palette in step with the series when there is no threshold and no pin', () => {
    const chart = parse(renderChart(perTurn, [event(1, 'micro')], undefined));
    expect(chart.lines).toEqual([perTurn]);
    expect(chart.palette).toEqual(['#218bff']);
    expect(chart.yAxis).toEqual([0, 10_000]);
  });

  it('buckets a long run to its peaks and leaves out pins too close to read', () => {
    const long = Array.from({ length: 1000 }, (_, turn) => (turn === 500 ? 39_000 : 10_000 + turn));
    const sparse = parse(renderChart(long, [event(100, 'auto'), event(700, 'manual')], 40_000));
    expect(sparse.lines[2]!.length).toBeLessThanOrEqual(150);
    expect(sparse.lines[2]).toContain(39_000);
    expect(sparse.lines[0]!.filter((value) => value === 50_000)).toHaveLength(2);
    expect(sparse.caption).toContain('the highest of each 7 turns');
    const dense = renderChart(
      long,
      Array.from({ length: 200 }, (_, index) => event(index * 5, 'auto')),
      40_000
    );
    expect(parse(dense).lines).toHaveLength(2);
    expect(parse(dense).palette).toEqual(['#cf222e', '#218bff']);
    expect(dense).toContain('too close together at this scale to pin');
  });

  it('rounds the axis up to a readable number', () => {
    expect([9, 11, 1000, 1001, 2100, 4400, 44_000, 88_000].map(niceCeiling)).toEqual([
      10, 20, 1000, 2000, 2500, 5000, 50_000, 100_000
    ]);
  });
});
