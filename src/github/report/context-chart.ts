import type { CompactionEvent } from '../../compaction/compactor.js';
import { countCompactions, describeCompactionCount } from '../../compaction/compaction-count.js';

/** Enough points to show every drop on a page; a longer run shows the highest of each bucket. */
const MAX_CHART_POINTS = 150;
/** Summary compactions listed under the chart by turn; more are counted. */
const MAX_LISTED_COMPACTIONS = 20;

/**
 * One colour per series, in the order the series are written: mermaid's xychart takes the n-th
 * colour of `plotColorPalette` for its n-th plot. GitHub's blue and red read on light and dark pages.
 */
const COLOURS = { threshold: '#cf222e', context: '#218bff' } as const;

interface Series {
  readonly statement: string;
  readonly colour: string;
  readonly legend: string;
}

/**
 * Context tokens per turn as a mermaid xychart, each compaction a drop, written for GitHub's
 * renderer from mermaid's own page (https://mermaid.js.org/syntax/xyChart.html, read 2026-11-23 and
 * again 2026-11-26), and checked by rendering it with @mermaid-js/mermaid-cli 11 (mermaid 11.17):
 * - `y-axis "tokens" 0 --> max`: an explicit range, so the axis starts at 0 and the threshold fits;
 * - the auto-compaction threshold is a second, flat `line`;
 * - xychart has two plot types, `bar` and `line`, and no markers, annotations or legend (the page
 *   lists no other; a legend is an open request, mermaid-js/mermaid#5326). So the compactions are
 *   not drawn as a series (a line pinned to the top read as data): the summary compactions (auto,
 *   manual, fallback) are listed under the chart by turn, each a drop of the context line there;
 *   micro clears and spills are counted in the title;
 * - the colours come from the frontmatter `config.themeVariables.xyChart.plotColorPalette`, the
 *   n-th colour for the n-th plot. The line width cannot be set (xychart draws every line 2 px
 *   wide), so the context line shows by its colour, drawn last, on top.
 * The chart is folded: it explains the run, it is not what a developer reads first. `xychart-beta`
 * is the keyword every mermaid since 10.5 accepts (newer ones also take `xychart`); frontmatter
 * `config:` is read since mermaid-js/mermaid#4750 (August 2023).
 */
export function renderChart(
  perTurn: readonly number[],
  log: readonly CompactionEvent[],
  thresholdTokens: number | undefined
): string {
  if (perTurn.length < 2) return '';
  const step = Math.ceil(perTurn.length / MAX_CHART_POINTS);
  const points = bucketPeaks(perTurn, step);
  const yMax = niceCeiling(Math.max(...points, thresholdTokens ?? 0) * 1.1);
  const count = describeCompactionCount(countCompactions(log));
  const per = step > 1 ? `the highest of each ${step} turns` : 'one point per turn';
  const series: Series[] = [
    ...(thresholdTokens !== undefined
      ? [
          {
            statement: `line [${points.map(() => thresholdTokens).join(', ')}]`,
            colour: COLOURS.threshold,
            legend: `red line: the auto-compaction threshold, ${n(thresholdTokens)} tokens`
          }
        ]
      : []),
    {
      statement: `line [${points.join(', ')}]`,
      colour: COLOURS.context,
      legend: `blue line: context tokens sent (${per})`
    }
  ];
  return [
    `<details><summary>Context tokens per turn · compactions: ${count}</summary>`,
    '',
    '```mermaid',
    '---',
    'config:',
    '  xyChart:',
    '    titleFontSize: 16',
    '  themeVariables:',
    '    xyChart:',
    `      plotColorPalette: "${series.map((s) => s.colour).join(', ')}"`,
    '---',
    'xychart-beta',
    `  title "Context tokens per turn · compactions: ${count}"`,
    `  x-axis "turn" 1 --> ${perTurn.length}`,
    `  y-axis "tokens" 0 --> ${yMax}`,
    ...series.map((s) => `  ${s.statement}`),
    '```',
    '',
    `${capitalize(series.map((s) => s.legend).join('; '))}.`,
    ...summaryList(log),
    '',
    '</details>'
  ].join('\n');
}

/**
 * The summary compactions as a list under the chart: at which turn's request each took effect, and
 * how far it brought the context down. An event logged at turn t (t turns answered) happened before
 * the request of turn t + 1: that is where the line drops.
 */
function summaryList(log: readonly CompactionEvent[]): string[] {
  const summaries = log.filter(isSummary);
  if (summaries.length === 0) return [];
  const listed = summaries
    .slice(0, MAX_LISTED_COMPACTIONS)
    .map(
      (event) =>
        `- turn ${event.turn + 1}: ${event.layer}, ${n(event.tokens_before)} → ${n(event.tokens_after)} tokens`
    );
  const more = summaries.length - listed.length;
  return [
    '',
    'Summary compactions (each a drop of the blue line):',
    '',
    ...listed,
    ...(more > 0 ? [`- … and ${more} more (the compaction log above has them all)`] : [])
  ];
}

/** The highest value of each bucket of `step` turns, so a long run keeps its peaks. */
function bucketPeaks(perTurn: readonly number[], step: number): number[] {
  const points: number[] = [];
  for (let start = 0; start < perTurn.length; start += step)
    points.push(Math.max(...perTurn.slice(start, start + step)));
  return points;
}

/** The layers that rewrite the history into a summary: the big drops of the chart. */
function isSummary(event: Pick<CompactionEvent, 'layer'>): boolean {
  return event.layer === 'auto' || event.layer === 'manual' || event.layer === 'fallback';
}

/** The smallest 1, 2, 2.5 or 5 × 10^k at or above `value` (at least 10): round axis labels. */
export function niceCeiling(value: number): number {
  if (value <= 10) return 10;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const nice = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= value)!;
  return nice * magnitude;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}
