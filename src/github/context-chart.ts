import type { CompactionEvent } from '../compaction/compactor.js';
import { countCompactions, describeCompactionCount } from '../compaction/compaction-count.js';

/** Enough points to show every drop on a page; a longer run shows the highest of each bucket. */
const MAX_CHART_POINTS = 150;

/**
 * One colour per series, in the order the series are written: mermaid's xychart takes the n-th
 * colour of `plotColorPalette` for its n-th plot. GitHub's blue and red read on light and dark pages.
 */
const COLOURS = { marker: '#bf8700', threshold: '#cf222e', context: '#218bff' } as const;

interface Series {
  readonly statement: string;
  readonly colour: string;
  readonly legend: string;
}

/**
 * Context tokens per turn as a mermaid xychart, each compaction a drop, written for GitHub's
 * renderer from mermaid's own page (https://mermaid.js.org/syntax/xyChart.html, its source
 * packages/mermaid/src/docs/syntax/xyChart.md and the xychart code, read 2026-11-23), and checked
 * by rendering it with @mermaid-js/mermaid-cli 11 (mermaid 11.17):
 * - `y-axis "tokens" 0 --> max`: an explicit range, so the axis starts at 0 and the threshold fits;
 * - the auto-compaction threshold is a second, flat `line`;
 * - summary compactions (auto, manual, fallback) are pins: a third line that runs under the context
 *   line and rises to the top of the chart at each turn with one. xychart has only lines and bars,
 *   no markers; bars on a numeric x-axis are two thirds of a tick interval wide (several turns), so
 *   they blur where the compaction was, and a bar series of zeros draws a strip along the x-axis.
 *   Micro clears and spills are too frequent to pin (every few turns: the pins merge into a flat
 *   line); they show as the line's small drops and in the count in the title. Summaries closer
 *   together than every fourth point are not pinned either, for the same reason;
 * - the colours come from the frontmatter `config.themeVariables.xyChart.plotColorPalette`, the
 *   n-th colour for the n-th plot. The line width cannot be set: xychart draws every line 2 px wide
 *   (`strokeWidth: 2` in xychartDb.ts), so the context line shows by its colour, drawn last, on top.
 * xychart draws no legend, so the caption under the chart says which line is which. `xychart-beta`
 * is the keyword every mermaid since 10.5 accepts (newer ones also take `xychart`). GitHub's renderer
 * is one of those newer ones: it drew an `xychart` with a y range in PrefectHQ/prefect#20764
 * (2026-02-19); frontmatter `config:` is read since mermaid-js/mermaid#4750 (August 2023). That is
 * what was checked: the chart itself was rendered with mermaid-cli, not on github.com.
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
  const pinned = pinnedBuckets(log, perTurn.length, step);
  // Pins closer than every fourth point merge into a zigzag that hides the line: left out then.
  const pinsReadable = pinned.size > 0 && pinned.size <= points.length / 4;
  const series: Series[] = [
    ...(pinsReadable
      ? [
          {
            statement: `line [${points.map((value, index) => (pinned.has(index) ? yMax : value)).join(', ')}]`,
            colour: COLOURS.marker,
            legend:
              'yellow pins: summary compactions (auto, manual, fallback), at the first turn sent after each'
          }
        ]
      : []),
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
    `<details open><summary>Context tokens per turn · compactions: ${count}</summary>`,
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
    `${capitalize(series.map((s) => s.legend).join('; '))}.${pinned.size > 0 && !pinsReadable ? ' The summary compactions are too close together at this scale to pin: each is a drop of the blue line.' : ''}`,
    '',
    '</details>'
  ].join('\n');
}

/** The highest value of each bucket of `step` turns, so a long run keeps its peaks. */
function bucketPeaks(perTurn: readonly number[], step: number): number[] {
  const points: number[] = [];
  for (let start = 0; start < perTurn.length; start += step)
    points.push(Math.max(...perTurn.slice(start, start + step)));
  return points;
}

/**
 * The points that hold a summary compaction. An event logged at turn t (t turns answered) happened
 * before the request of turn t + 1, which is index t of the per-turn sizes.
 */
function pinnedBuckets(log: readonly CompactionEvent[], turns: number, step: number): Set<number> {
  const pinned = new Set<number>();
  for (const event of log.filter(isPinned))
    pinned.add(Math.floor(Math.min(Math.max(event.turn, 0), turns - 1) / step));
  return pinned;
}

/** The layers that rewrite the history into a summary: the big drops the chart pins. */
function isPinned(event: Pick<CompactionEvent, 'layer'>): boolean {
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
