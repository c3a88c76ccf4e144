import type { CompactionLayer } from '../../compaction/compactor.js';
import { chartScales, type ContextChart } from './context-chart.js';
import { formatInt, formatTokensShort } from './format.js';
import { escapeHtml } from './html-text.js';

const LAYER_HELP: Readonly<Record<CompactionLayer, string>> = {
  micro: 'old tool results cleared, no model call',
  auto: 'history summarized past the threshold',
  manual: 'the model called compact',
  spill: 'an oversized tool result saved to a file',
  fallback: 'a summary failed: the oldest turns were dropped'
};

/** Points drawn as dots too, up to this many; past it the line alone reads better. */
const MAX_DOTS = 120;

const f = (value: number): string => value.toFixed(1);

/**
 * The chart as inline SVG with its legend: context tokens per turn on an axis from 0, the
 * auto-compaction threshold and (when it fits) the window as dashed lines, each compaction's drop on
 * the line, and one clickable marker per compaction in its layer's lane.
 */
export function renderContextChart(chart: ContextChart): string {
  const { frame } = chart;
  const { x, y } = chartScales(frame);
  const out: string[] = [
    '<section class="panel chart-panel" aria-labelledby="chart-title">',
    '<h2 id="chart-title">Context per turn</h2>',
    `<svg id="context-chart" viewBox="0 0 ${chart.width} ${chart.height}" role="img" ` +
      `aria-label="Context tokens per turn, from 0, with the threshold and ${chart.count.total} compactions">`
  ];
  for (const value of chart.yTicks) {
    out.push(
      `<line class="grid" x1="${frame.left}" x2="${frame.right}" y1="${f(y(value))}" y2="${f(y(value))}"/>`,
      `<text class="axis y-label" x="${frame.left - 6}" y="${f(y(value) + 4)}" text-anchor="end">${formatTokensShort(value)}</text>`
    );
  }
  for (const turn of chart.xTicks) {
    out.push(
      `<line class="tick" x1="${f(x(turn))}" x2="${f(x(turn))}" y1="${frame.bottom}" y2="${frame.bottom + 4}"/>`,
      `<text class="axis" x="${f(x(turn))}" y="${frame.bottom + 17}" text-anchor="middle">${turn}</text>`
    );
  }
  out.push(
    `<text class="axis axis-title" x="${(frame.left + frame.right) / 2}" y="${frame.bottom + 32}" text-anchor="middle">turn</text>`,
    `<text class="axis axis-title" x="14" y="${(frame.top + frame.bottom) / 2}" text-anchor="middle" ` +
      `transform="rotate(-90 14 ${(frame.top + frame.bottom) / 2})">context tokens</text>`,
    `<line class="axis-line" x1="${frame.left}" x2="${frame.right}" y1="${frame.bottom}" y2="${frame.bottom}"/>`,
    `<line class="axis-line" x1="${frame.left}" x2="${frame.left}" y1="${frame.top}" y2="${frame.bottom}"/>`,
    // The plot area: hovered for a readout, clicked to open that turn.
    `<rect id="plot-hit" class="plot-hit" x="${frame.left}" y="${frame.top}" width="${frame.right - frame.left}" height="${frame.bottom - frame.top}"/>`
  );
  if (chart.contextWindow?.onScale) {
    out.push(...referenceLine('window', chart.contextWindow.tokens, 'context window', chart));
  }
  if (chart.threshold !== undefined) {
    out.push(...referenceLine('threshold', chart.threshold, 'auto-compaction threshold', chart));
  }
  out.push(...contextLine(chart));
  for (const event of chart.events) {
    if (!event.cutsContext) continue;
    const cx = f(x(event.turn));
    out.push(
      `<line class="compaction-drop layer-${event.layer}" data-index="${event.index}" x1="${cx}" x2="${cx}" ` +
        `y1="${f(y(event.tokensBefore))}" y2="${f(y(event.tokensAfter))}"/>`
    );
  }
  chart.lanes.forEach((layer, lane) => {
    const ly = chart.laneTop + lane * chart.laneHeight;
    out.push(
      `<line class="lane" x1="${frame.left}" x2="${frame.right}" y1="${ly}" y2="${ly}"/>`,
      `<text class="lane-label layer-text-${layer}" x="${frame.left - 8}" y="${ly + 4}" text-anchor="end">${layer}</text>`
    );
  });
  for (const event of chart.events) {
    const lane = Math.max(0, chart.lanes.indexOf(event.layer));
    const what = `#${event.index + 1} ${event.layer} at turn ${event.turn}: ${formatInt(event.tokensBefore)} → ${formatInt(event.tokensAfter)} tokens`;
    out.push(
      `<circle class="compaction-marker layer-${event.layer}" data-index="${event.index}" data-layer="${event.layer}" ` +
        `cx="${f(x(event.turn))}" cy="${chart.laneTop + lane * chart.laneHeight}" r="${f(chart.markerRadius)}">` +
        `<title>${escapeHtml(what)}</title></circle>`
    );
  }
  out.push(
    '<g id="chart-hover" class="hover" visibility="hidden">',
    `<line class="hover-line" x1="0" x2="0" y1="${frame.top}" y2="${frame.bottom}"/>`,
    '<circle class="hover-dot" cx="0" cy="0" r="4"/>',
    '<text class="hover-text" x="0" y="0"></text>',
    '</g>',
    '</svg>',
    renderLegend(chart),
    '</section>'
  );
  return out.join('\n');
}

function referenceLine(
  kind: 'window' | 'threshold',
  tokens: number,
  label: string,
  chart: ContextChart
): string[] {
  const { frame } = chart;
  const ly = chartScales(frame).y(tokens);
  return [
    `<line class="${kind}-line" x1="${frame.left}" x2="${frame.right}" y1="${f(ly)}" y2="${f(ly)}"/>`,
    `<text class="${kind}-label" x="${frame.right - 4}" y="${f(ly - 5)}" text-anchor="end">${label} ${formatInt(tokens)}</text>`
  ];
}

function contextLine(chart: ContextChart): string[] {
  const { frame } = chart;
  const { x, y } = chartScales(frame);
  const points = frame.points;
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) {
    return [
      `<text class="axis" x="${(frame.left + frame.right) / 2}" y="${(frame.top + frame.bottom) / 2}" text-anchor="middle">No response was recorded.</text>`
    ];
  }
  const coords = points.map(([turn, tokens]) => `${f(x(turn))},${f(y(tokens))}`);
  return [
    `<path class="context-area" d="M${f(x(first[0]))},${frame.bottom} L${coords.join(' L')} L${f(x(last[0]))},${frame.bottom} Z"/>`,
    `<polyline id="context-line" class="context-line" points="${coords.join(' ')}"/>`,
    ...(points.length <= MAX_DOTS
      ? points.map(
          ([turn, tokens]) =>
            `<circle class="context-point" cx="${f(x(turn))}" cy="${f(y(tokens))}" r="2.5"/>`
        )
      : [])
  ];
}

function renderLegend(chart: ContextChart): string {
  const modelWindow = chart.contextWindow;
  return [
    '<ul class="legend">',
    '<li><span class="swatch line-swatch"></span>context tokens (prompt of each response)</li>',
    chart.threshold !== undefined
      ? `<li><span class="swatch threshold-swatch"></span>auto-compaction threshold (${formatInt(chart.threshold)})</li>`
      : '<li class="muted">threshold not recorded in this transcript</li>',
    modelWindow === undefined
      ? ''
      : modelWindow.onScale
        ? `<li><span class="swatch window-swatch"></span>context window (${formatInt(modelWindow.tokens)})</li>`
        : `<li>context window ${formatInt(modelWindow.tokens)}, far above this scale</li>`,
    ...chart.lanes.map(
      (layer) =>
        `<li title="${escapeHtml(LAYER_HELP[layer])}"><span class="swatch layer-bg-${layer}"></span>${layer} (${chart.count.byLayer[layer]})</li>`
    ),
    '</ul>'
  ].join('\n');
}
