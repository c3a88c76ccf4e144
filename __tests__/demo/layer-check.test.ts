import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEMO_COMPACTION_INPUTS,
  describeDemoThresholds,
  productionSettings
} from '../../demo/demo-thresholds.js';
import {
  cacheReadShare,
  layerCounts,
  layerLine,
  readCompactionLayers,
  shortfalls
} from '../../demo/layer-check.js';

const everyLayer = ['micro', 'spill', 'micro', 'auto', 'manual'];
const withReads = cacheReadShare({
  input_tokens: '100',
  cache_write_tokens: '300',
  cache_read_tokens: '600'
});

describe("the demo's layer check", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'compact-agent-layer-check-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the layer of every line of the compaction log, and none when there is no log', () => {
    writeFileSync(
      path.join(dir, 'compaction-log.jsonl'),
      `${everyLayer.map((layer, turn) => JSON.stringify({ turn, layer, reason: 'r' })).join('\n')}\n`
    );
    expect(readCompactionLayers(dir)).toEqual(everyLayer);
    expect(readCompactionLayers(path.join(dir, 'missing'))).toEqual([]);
  });

  it('refuses a log line without a layer, saying where', () => {
    writeFileSync(path.join(dir, 'compaction-log.jsonl'), '{"layer":"micro"}\n{"turn":3}\n');
    expect(() => readCompactionLayers(dir)).toThrow(/Line 2 of the compaction log has no "layer" field/);
  });

  it('passes only when spill, micro, auto and manual each fired and the cache was read', () => {
    expect(shortfalls(layerCounts(everyLayer), withReads)).toEqual([]);
    expect(shortfalls(layerCounts(everyLayer.filter((layer) => layer !== 'auto')), withReads)).toEqual([
      'the auto layer never fired'
    ]);
    // A fallback (a summary that failed) does not stand in for the auto layer.
    expect(shortfalls(layerCounts(['spill', 'micro', 'fallback', 'manual']), withReads)).toEqual([
      'the auto layer never fired'
    ]);
    const noReads = cacheReadShare({ input_tokens: '900', cache_write_tokens: '0', cache_read_tokens: '0' });
    expect(shortfalls(layerCounts([]), noReads)).toEqual([
      'the spill layer never fired',
      'the micro layer never fired',
      'the auto layer never fired',
      'the manual layer never fired',
      'no input token was read from the prompt cache'
    ]);
  });

  it('prints the counts by layer and the share of input tokens read from the cache', () => {
    expect(withReads.share).toBeCloseTo(0.6);
    expect(layerLine(layerCounts([...everyLayer, 'fallback']), withReads)).toBe(
      'compactions by layer: spill 1 · micro 2 · auto 1 · manual 1 · fallback 1; cache reads: 60% of input tokens (600 of 1,000)'
    );
  });
});

describe("the demo's thresholds", () => {
  it('are below the production defaults they are printed next to', () => {
    const production = productionSettings();
    expect(Number(DEMO_COMPACTION_INPUTS.compaction_threshold_tokens)).toBeLessThan(
      production.thresholdTokens
    );
    expect(Number(DEMO_COMPACTION_INPUTS.micro_clear_at_least)).toBeLessThan(production.micro.clearAtLeast);
    expect(Number(DEMO_COMPACTION_INPUTS.compaction_keep_tail)).toBeLessThan(production.keepTailTokens);
    expect(describeDemoThresholds(production)).toContain(
      `compaction_threshold_tokens: ${Number(DEMO_COMPACTION_INPUTS.compaction_threshold_tokens).toLocaleString('en-US')} (${production.thresholdTokens.toLocaleString('en-US')})`
    );
  });

  it('are the ones README.md says the demo uses', () => {
    const readme = readFileSync('README.md', 'utf8');
    const start = readme.indexOf('## What the demo shows');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 3));
    for (const [name, value] of Object.entries(DEMO_COMPACTION_INPUTS)) {
      expect(section.replace(/\s+/g, ' ')).toContain(`\`${name}\` ${Number(value).toLocaleString('en-US')}`);
    }
  });
});
