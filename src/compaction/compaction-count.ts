import type { CompactionEvent, CompactionLayer } from './compactor.js';

/** The layers in the order every report lists them. */
export const COMPACTION_LAYERS: readonly CompactionLayer[] = ['micro', 'auto', 'manual', 'spill', 'fallback'];

/** How many events of each layer a run logged, and their total. */
export interface CompactionCount {
  readonly total: number;
  readonly byLayer: Readonly<Record<CompactionLayer, number>>;
}

/**
 * The one count of compactions that the comment, the job summary, the outputs and the audit page
 * all show. Every logged event counts, spills included, so the figures agree wherever they appear.
 */
export function countCompactions(log: readonly Pick<CompactionEvent, 'layer'>[]): CompactionCount {
  const byLayer: Record<CompactionLayer, number> = { micro: 0, auto: 0, manual: 0, spill: 0, fallback: 0 };
  for (const event of log) byLayer[event.layer] += 1;
  return { total: log.length, byLayer };
}

/** "8 (micro 3, auto 2, manual 1, spill 2)": the layers that fired, in the fixed order. */
export function describeCompactionCount(count: CompactionCount): string {
  const parts = COMPACTION_LAYERS.filter((layer) => count.byLayer[layer] > 0).map(
    (layer) => `${layer} ${count.byLayer[layer]}`
  );
  return parts.length === 0 ? '0' : `${count.total} (${parts.join(', ')})`;
}
