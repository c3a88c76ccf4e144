/**
 * The JSON the page embeds for its script: what the markup leaves out (tool inputs and outputs,
 * compaction summaries) and the chart's frame for the hover readout. Shared by the page model that
 * writes it and the client script that reads it, so this file imports nothing.
 */
export type PageLayer = 'micro' | 'auto' | 'manual' | 'spill' | 'fallback';

/** The fields of a compaction event the detail panel shows. */
export interface PageCompaction {
  readonly turn: number;
  readonly layer: PageLayer;
  readonly reason: string;
  readonly tokens_before: number;
  readonly tokens_after: number;
  readonly results_cleared: number;
  readonly summary_tokens: number;
  readonly summary_cost_usd: number;
  readonly duration_ms: number;
  readonly segment_path: string | null;
  readonly focus: string | null;
  readonly summary?: string;
  readonly tool_use_ids?: readonly string[];
}

export interface PageToolCall {
  readonly id: string;
  readonly name: string;
  /** The input as the reader sees it (a bash command as is, anything else as JSON), clipped. */
  readonly input: string;
  /** Null when the transcript ends before the result. */
  readonly output: string | null;
  readonly error: boolean;
}

export interface PageTurn {
  readonly turn: number;
  readonly calls: readonly PageToolCall[];
}

/** Where the plot sits in the SVG's own units, and its scales: the script maps a pointer to a turn. */
export interface ChartFrame {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly turnMin: number;
  readonly turnMax: number;
  /** The top of the token axis; the axis starts at 0. */
  readonly yMax: number;
  /** [turn, context tokens] of each response. */
  readonly points: ReadonlyArray<readonly [number, number]>;
}

export interface AuditPageData {
  readonly compactions: readonly PageCompaction[];
  readonly turns: readonly PageTurn[];
  readonly chart: ChartFrame;
}
