import {
  COMPACTION_LAYERS,
  countCompactions,
  type CompactionCount
} from '../../compaction/compaction-count.js';
import type { CompactionEvent, CompactionLayer } from '../../compaction/compactor.js';
import type { RunAudit } from '../run-audit.js';
import type { ChartFrame } from './client-data.js';

/** One compaction on the chart: a marker in its layer's lane, and a drop where it cut the context. */
export interface ChartEvent {
  readonly index: number;
  readonly layer: CompactionLayer;
  readonly turn: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** False for a spill: its tokens are one tool result's, not the context's, so it draws no drop. */
  readonly cutsContext: boolean;
}

/** The context-per-turn chart, laid out: scales, ticks, reference lines and events, before any markup. */
export interface ContextChart {
  readonly width: number;
  readonly height: number;
  readonly frame: ChartFrame;
  readonly yTicks: readonly number[];
  readonly xTicks: readonly number[];
  /** Auto-compaction starts past this; undefined when the transcript does not record it. */
  readonly threshold: number | undefined;
  /** The model's window; off the scale when it would flatten the line (a 1M window, a 5k context). */
  readonly contextWindow: { readonly tokens: number; readonly onScale: boolean } | undefined;
  readonly events: readonly ChartEvent[];
  readonly lanes: readonly CompactionLayer[];
  readonly laneTop: number;
  readonly laneHeight: number;
  readonly markerRadius: number;
  readonly count: CompactionCount;
}

const WIDTH = 900;
const PLOT = { left: 74, right: WIDTH - 20, top: 22, height: 250 };
const LANES = { gap: 46, height: 16 };
/** A window at most this much above everything else is drawn; a bigger one would flatten the line. */
const WINDOW_ON_SCALE = 1.5;

export function buildContextChart(audit: RunAudit): ContextChart {
  const points = audit.contextTokensPerTurn.map((point) => [point.turn, point.tokens] as const);
  const events: ChartEvent[] = audit.compactions.map((event, index) => chartEvent(event, index));
  const turns = [
    ...points.map(([turn]) => turn),
    ...events.map((event) => event.turn),
    ...audit.timeline.map((turn) => turn.turn),
    audit.turns
  ];
  const turnMin = Math.min(1, ...turns);
  const turnMax = Math.max(turnMin + 1, ...turns);
  const threshold = audit.compactionThresholdTokens;
  const dataPeak = Math.max(
    1,
    threshold ?? 0,
    ...points.map(([, tokens]) => tokens),
    ...events.filter((event) => event.cutsContext).map((event) => event.tokensBefore)
  );
  const modelWindow = audit.contextWindow;
  const windowOnScale = modelWindow !== undefined && modelWindow <= dataPeak * WINDOW_ON_SCALE;
  // Headroom above the highest mark, so the line and its labels never touch the top.
  const peak = Math.max(dataPeak * 1.08, windowOnScale ? modelWindow : 0);
  const yStep = niceStep(peak / 5);
  const yMax = Math.ceil(peak / yStep) * yStep;
  const bottom = PLOT.top + PLOT.height;
  const laneTop = bottom + LANES.gap;
  const xStep = Math.max(1, niceStep((turnMax - turnMin) / 10));
  const plotWidth = PLOT.right - PLOT.left;
  return {
    width: WIDTH,
    height: laneTop + (COMPACTION_LAYERS.length - 1) * LANES.height + 14,
    frame: { left: PLOT.left, right: PLOT.right, top: PLOT.top, bottom, turnMin, turnMax, yMax, points },
    yTicks: range(0, yMax, yStep),
    xTicks: range(Math.ceil(turnMin / xStep) * xStep, turnMax, xStep),
    threshold,
    contextWindow: modelWindow === undefined ? undefined : { tokens: modelWindow, onScale: windowOnScale },
    events,
    lanes: COMPACTION_LAYERS,
    laneTop,
    laneHeight: LANES.height,
    // Markers shrink on long runs, where many share a few pixels.
    markerRadius: Math.max(3, Math.min(5.5, (plotWidth / (turnMax - turnMin)) * 1.5)),
    count: countCompactions(audit.compactions)
  };
}

function chartEvent(event: CompactionEvent, index: number): ChartEvent {
  return {
    index,
    layer: event.layer,
    turn: event.turn,
    tokensBefore: event.tokens_before,
    tokensAfter: event.tokens_after,
    cutsContext: event.layer !== 'spill'
  };
}

/** The x of a turn and the y of a token count, in the SVG's units; y is 0 at the plot's bottom. */
export function chartScales(frame: ChartFrame): {
  x: (turn: number) => number;
  y: (tokens: number) => number;
} {
  return {
    x: (turn) =>
      frame.left + ((turn - frame.turnMin) / (frame.turnMax - frame.turnMin)) * (frame.right - frame.left),
    y: (tokens) =>
      frame.bottom - (Math.min(Math.max(tokens, 0), frame.yMax) / frame.yMax) * (frame.bottom - frame.top)
  };
}

function range(from: number, to: number, step: number): number[] {
  const values: number[] = [];
  // A hair of slack, so a float sum that lands just above `to` (0.1 + 0.2) still counts.
  for (let value = from; value <= to + step * 1e-9; value += step) values.push(value);
  return values;
}

/** 1, 2, 2.5 or 5 times a power of ten: steps a reader can add up. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * power;
}
