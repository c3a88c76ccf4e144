import type { Figures } from './figures.js';

export type Results = Record<string, Record<string, Figures>>;

const money = (usd: number) => `$${usd.toFixed(2)}`;
const share = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
const thousands = (value: number) => `${Math.round(value / 1000)}k`;

/** The terminal table: one row per strategy and size. */
export function renderTable(results: Results): string {
  const header = [
    'strategy',
    'turns',
    'usd',
    'usd/turn',
    'floor x',
    'write',
    'read',
    'uncached',
    'output',
    'read share',
    'peak',
    'overflows',
    'compactions',
    'summary',
    'est. error',
    'cpu p95 ms',
    'retention',
    'needs',
    'reread',
    'extra turns',
    'lost',
    'thinking kept',
    'thinking stripped'
  ];
  const rows = Object.entries(results).flatMap(([strategy, sizes]) =>
    Object.entries(sizes).map(([size, f]) => [
      strategy,
      f.first_overflow_turn === null ? size : `${size} (overflow at ${f.first_overflow_turn})`,
      money(f.usd),
      `$${f.usd_per_turn.toFixed(4)}`,
      f.floor_ratio.toFixed(2),
      thousands(f.tokens.cache_write),
      thousands(f.tokens.cache_read),
      thousands(f.tokens.input),
      thousands(f.tokens.output),
      share(f.cache_read_share),
      thousands(f.peak_context),
      String(f.overflows),
      String(f.compactions),
      share(f.summary_share),
      share(f.estimator_error),
      f.cpu_ms_p95 === null ? 'n/a' : f.cpu_ms_p95.toFixed(3),
      share(f.retention),
      String(f.needs),
      share(f.reread_share),
      String(f.extra_turns),
      String(f.lost_needs),
      f.thinking_kept_share.toFixed(2),
      thousands(f.thinking_stripped_tokens)
    ])
  );
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length))
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** The JSON `npm run bench -- --json` prints: strategies.<name>.<size>.{usd, cache_read_share, ...}. */
export function benchJson(results: Results, meta: Record<string, unknown>): string {
  return JSON.stringify({ ...meta, strategies: results }, null, 2);
}

export interface ContextSeries {
  readonly name: string;
  /** Context tokens of each agent request, in order. */
  readonly points: readonly number[];
}

const COLORS = ['#888888', '#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd'];

/** A self-contained SVG line chart of context tokens per turn, one line per strategy. */
export function contextChartSvg(
  series: readonly ContextSeries[],
  title: string,
  highlight = 'default'
): string {
  const width = 960;
  const height = 420;
  const margin = { left: 70, right: 170, top: 40, bottom: 45 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const maxTurns = Math.max(1, ...series.map((s) => s.points.length));
  const maxTokens = Math.max(1, ...series.flatMap((s) => s.points));
  const yTop = Math.ceil(maxTokens / 50_000) * 50_000;
  const x = (turn: number) => margin.left + (turn / maxTurns) * plotW;
  const y = (tokens: number) => margin.top + plotH - (tokens / yTop) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(title)}</text>`
  ];
  for (let tokens = 0; tokens <= yTop; tokens += 50_000) {
    parts.push(
      `<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${y(tokens)}" y2="${y(tokens)}" stroke="#e5e5e5"/>`,
      `<text x="${margin.left - 8}" y="${y(tokens) + 4}" text-anchor="end">${tokens / 1000}k</text>`
    );
  }
  const step = maxTurns > 500 ? 100 : maxTurns > 100 ? 50 : 10;
  for (let turn = 0; turn <= maxTurns; turn += step) {
    parts.push(`<text x="${x(turn)}" y="${margin.top + plotH + 18}" text-anchor="middle">${turn}</text>`);
  }
  parts.push(
    `<text x="${margin.left + plotW / 2}" y="${height - 6}" text-anchor="middle">agent turn</text>`,
    `<text x="16" y="${margin.top + plotH / 2}" transform="rotate(-90 16 ${margin.top + plotH / 2})" text-anchor="middle">context tokens</text>`,
    `<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`
  );
  // The highlighted line is drawn last and thicker, so a line that coincides with it cannot hide it.
  const order = series
    .map((s, index) => ({ s, index }))
    .sort((a, b) => Number(a.s.name === highlight) - Number(b.s.name === highlight));
  for (const { s, index } of order) {
    const color = COLORS[index % COLORS.length]!;
    const points = s.points.map((tokens, turn) => `${x(turn).toFixed(1)},${y(tokens).toFixed(1)}`).join(' ');
    const width = s.name === highlight ? 2.4 : 1.3;
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="${width}" points="${points}"/>`);
  }
  series.forEach((s, index) => {
    const color = COLORS[index % COLORS.length]!;
    const legendY = margin.top + 14 + index * 20;
    parts.push(
      `<line x1="${margin.left + plotW + 15}" x2="${margin.left + plotW + 40}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${color}" stroke-width="3"/>`,
      `<text x="${margin.left + plotW + 46}" y="${legendY}">${escapeXml(s.name)}</text>`
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
