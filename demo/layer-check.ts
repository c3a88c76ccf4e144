import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The layers the demo must show at least once each. */
export const DEMO_LAYERS = ['spill', 'micro', 'auto', 'manual'] as const;
export type DemoLayer = (typeof DEMO_LAYERS)[number];

/** The `layer` of each line of a run's compaction-log.jsonl; [] when the run wrote none. */
export function readCompactionLayers(transcriptDir: string): string[] {
  const file = path.join(transcriptDir, 'compaction-log.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => layerOf(JSON.parse(line) as unknown, index + 1));
}

function layerOf(event: unknown, lineNumber: number): string {
  if (typeof event === 'object' && event !== null && 'layer' in event && typeof event.layer === 'string') {
    return event.layer;
  }
  throw new Error(
    `Line ${lineNumber} of the compaction log has no "layer" field. The log format changed; update ` +
      'demo/layer-check.ts to read it.'
  );
}

/** Compactions per layer: the demo's four first, then any other layer the log holds (fallback). */
export function layerCounts(layers: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>(DEMO_LAYERS.map((layer) => [layer, 0]));
  for (const layer of layers) counts.set(layer, (counts.get(layer) ?? 0) + 1);
  return counts;
}

export interface CacheUse {
  readonly readTokens: number;
  /** Every input token: uncached, written to the cache, and read from it. */
  readonly inputTokens: number;
  readonly share: number;
}

/** The share of input tokens read from the prompt cache, from the action's outputs. */
export function cacheReadShare(outputs: Readonly<Record<string, string>>): CacheUse {
  const count = (name: string) => {
    const value = Number(outputs[name] ?? '0');
    return Number.isFinite(value) ? value : 0;
  };
  const readTokens = count('cache_read_tokens');
  const inputTokens = count('input_tokens') + count('cache_write_tokens') + readTokens;
  return { readTokens, inputTokens, share: inputTokens === 0 ? 0 : readTokens / inputTokens };
}

/** `compactions by layer: spill 1 · micro 2 · auto 1 · manual 1 · cache reads 81% of input tokens (…)` */
export function layerLine(counts: ReadonlyMap<string, number>, cache: CacheUse): string {
  const layers = [...counts].map(([layer, count]) => `${layer} ${count}`).join(' · ');
  const share = `${Math.round(cache.share * 100)}% of input tokens`;
  const tokens = `${cache.readTokens.toLocaleString('en-US')} of ${cache.inputTokens.toLocaleString('en-US')}`;
  return `compactions by layer: ${layers}; cache reads: ${share} (${tokens})`;
}

/** What the demo promises and did not show: a layer that never fired, or no cache reads. */
export function shortfalls(counts: ReadonlyMap<string, number>, cache: CacheUse): string[] {
  const missing = DEMO_LAYERS.filter((layer) => (counts.get(layer) ?? 0) === 0).map(
    (layer) => `the ${layer} layer never fired`
  );
  return cache.readTokens > 0 ? missing : [...missing, 'no input token was read from the prompt cache'];
}
