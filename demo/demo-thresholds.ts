import { compactionSettings, type CompactionSettings } from '../src/compaction/settings.js';
import { INPUT_DEFAULTS } from '../src/config/inputs.js';
import { DEFAULT_MODEL, resolveModelSpec } from '../src/config/models.js';

/**
 * The action inputs the demo sets (as INPUT_* in the step's environment, as a workflow's `with:`
 * would): thresholds small enough for every compaction layer to fire on a code base of five files.
 * Spill is not lowered: its 50,000-character limit is fixed, and the session really exceeds it.
 */
export const DEMO_COMPACTION_INPUTS = {
  compaction_threshold_tokens: '4000',
  micro_clear_at_least: '800',
  compaction_keep_tail: '700'
} as const;

/** What the action uses on the default model when these inputs are left out. */
export function productionSettings(): CompactionSettings {
  const model = resolveModelSpec(DEFAULT_MODEL);
  return compactionSettings({
    contextWindow: model.contextWindow,
    maxOutputTokens: INPUT_DEFAULTS.max_output_tokens
  });
}

const n = (value: number | string) => Number(value).toLocaleString('en-US');

/** Lines that say which thresholds the demo lowered, next to the production defaults. */
export function describeDemoThresholds(production: CompactionSettings = productionSettings()): string {
  const rows: [string, string, number][] = [
    [
      'compaction_threshold_tokens',
      DEMO_COMPACTION_INPUTS.compaction_threshold_tokens,
      production.thresholdTokens
    ],
    ['micro_clear_at_least', DEMO_COMPACTION_INPUTS.micro_clear_at_least, production.micro.clearAtLeast],
    ['compaction_keep_tail', DEMO_COMPACTION_INPUTS.compaction_keep_tail, production.keepTailTokens]
  ];
  return [
    `Thresholds lowered for the demo, through the action's inputs, so that every layer fires on a tiny code base`,
    `(production defaults for ${DEFAULT_MODEL} in brackets):`,
    ...rows.map(([name, demo, defaultValue]) => `  ${name}: ${n(demo)} (${n(defaultValue)})`),
    `  spill: results over ${n(production.spill.maxResultChars)} characters (not lowered)`
  ].join('\n');
}
