/** One curve of the threshold sweep: a model at one run length. */
export interface SweepSeries {
  readonly name: string;
  readonly points: ReadonlyArray<{
    readonly threshold: number;
    /** usd over the reference's usd at the same model and size. */
    readonly costRatio: number;
    readonly rereadShare: number;
    readonly lostNeeds: number;
  }>;
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];

/**
 * A self-contained SVG of the sweep: cost against the reference (top) and the re-read share
 * (bottom) over the threshold on a log axis; a point with lost needs is drawn hollow and labelled.
 */
export function sweepChartSvg(series: readonly SweepSeries[], title: string): string {
  const width = 960;
  const panel = 250;
  const margin = { left: 70, right: 290, top: 40, gap: 50, bottom: 45 };
  const height = margin.top + 2 * panel + margin.gap + margin.bottom;
  const plotW = width - margin.left - margin.right;
  const thresholds = series.flatMap((s) => s.points.map((p) => p.threshold));
  const lo = Math.log(Math.min(...thresholds, 30_000) * 0.85);
  const hi = Math.log(Math.max(...thresholds, 800_000) * 1.15);
  const x = (threshold: number) => margin.left + ((Math.log(threshold) - lo) / (hi - lo)) * plotW;
  const costTop = Math.max(
    1.5,
    Math.ceil(Math.max(...series.flatMap((s) => s.points.map((p) => p.costRatio))) * 2) / 2
  );
  const rereadTop = Math.max(
    0.1,
    Math.ceil(Math.max(...series.flatMap((s) => s.points.map((p) => p.rereadShare))) * 20) / 20
  );
  const panels = [
    {
      top: margin.top,
      max: costTop,
      step: 0.5,
      label: 'cost / reference',
      value: (p: SweepSeries['points'][number]) => p.costRatio,
      format: (v: number) => `${v.toFixed(1)}x`
    },
    {
      top: margin.top + panel + margin.gap,
      max: rereadTop,
      step: rereadTop / 4,
      label: 're-read share of $',
      value: (p: SweepSeries['points'][number]) => p.rereadShare,
      format: (v: number) => `${+(v * 100).toFixed(1)}%`
    }
  ];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(title)}</text>`
  ];
  for (const p of panels) {
    const y = (value: number) => p.top + panel - (value / p.max) * panel;
    for (let v = 0; v <= p.max + 1e-9; v += p.step) {
      parts.push(
        `<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e5e5"/>`,
        `<text x="${margin.left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${p.format(v)}</text>`
      );
    }
    parts.push(
      `<rect x="${margin.left}" y="${p.top}" width="${plotW}" height="${panel}" fill="none" stroke="#999"/>`,
      `<text x="16" y="${p.top + panel / 2}" transform="rotate(-90 16 ${p.top + panel / 2})" text-anchor="middle">${p.label}</text>`
    );
    if (p.label.startsWith('cost'))
      parts.push(
        `<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${y(0.5)}" y2="${y(0.5)}" stroke="#000" stroke-dasharray="4 4"/>`,
        `<text x="${margin.left + plotW - 4}" y="${y(0.5) - 4}" text-anchor="end">target 0.5x</text>`
      );
    else
      parts.push(
        `<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${y(0.05)}" y2="${y(0.05)}" stroke="#000" stroke-dasharray="4 4"/>`,
        `<text x="${margin.left + plotW - 4}" y="${y(0.05) - 4}" text-anchor="end">target 5%</text>`
      );
    series.forEach((s, index) => {
      const color = COLORS[index % COLORS.length]!;
      const points = s.points.map(
        (point) => `${x(point.threshold).toFixed(1)},${y(p.value(point)).toFixed(1)}`
      );
      parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.join(' ')}"/>`);
      for (const point of s.points) {
        const cx = x(point.threshold).toFixed(1);
        const cy = y(p.value(point)).toFixed(1);
        const fill = point.lostNeeds > 0 ? 'white' : color;
        parts.push(`<circle cx="${cx}" cy="${cy}" r="4" fill="${fill}" stroke="${color}" stroke-width="2"/>`);
        if (point.lostNeeds > 0 && p.label.startsWith('cost'))
          parts.push(
            `<text x="${cx}" y="${Number(cy) - 8}" text-anchor="middle" fill="${color}">${point.lostNeeds} lost</text>`
          );
      }
    });
  }
  const axisY = margin.top + 2 * panel + margin.gap;
  for (const threshold of [...new Set(thresholds)].sort((a, b) => a - b))
    parts.push(
      `<text x="${x(threshold).toFixed(1)}" y="${axisY + 18}" text-anchor="middle">${threshold / 1000}k</text>`
    );
  parts.push(
    `<text x="${margin.left + plotW / 2}" y="${height - 6}" text-anchor="middle">auto-compaction threshold (tokens, log scale)</text>`
  );
  series.forEach((s, index) => {
    const legendY = margin.top + 14 + index * 20;
    parts.push(
      `<line x1="${margin.left + plotW + 15}" x2="${margin.left + plotW + 40}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${COLORS[index % COLORS.length]!}" stroke-width="3"/>`,
      `<text x="${margin.left + plotW + 46}" y="${legendY}">${escapeXml(s.name)}</text>`
    );
  });
  parts.push(
    `<text x="${margin.left + plotW + 15}" y="${margin.top + 14 + series.length * 20 + 10}">hollow: lost needs</text>`,
    '</svg>'
  );
  return `${parts.join('\n')}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
