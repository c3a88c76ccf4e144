import { defaultCompactor } from '../../src/agent/session.js';
import { TokenCounter } from '../../test-support/fake-anthropic/index.js';
import { ClearToolUses, type ClearToolUsesSettings } from '../server-side/clear-tool-uses.js';
import { OnDemandCompaction } from '../server-side/on-demand-compaction.js';
import { predictedClearCaching } from '../server-side/predicted-clear.js';
import { serverSide, type ServerEdit } from '../server-side/server-side.js';
import type { Strategy } from './strategy.js';
import { layerSteps } from './layers.js';

/**
 * Ours with each engine and micro option (issue #25 part 4): the summary written by our summarizer
 * (`client`) or by the API on demand (`api`, simulated: server-side/on-demand-compaction.ts), and
 * micro run by our code (`client`: an edit of our history, which invalidates the thinking after it)
 * or by the API's context editing with our numbers (`server`: clear_tool_uses with keep 2 and
 * clear_at_least at our floor; the client's history, and so its thinking, stays as it was sent).
 */
const THRESHOLD = 20_000;
/** Server micro with the shipped micro numbers: keep 2, a 6k floor, clearing before the threshold. */
export const SERVER_MICRO: ClearToolUsesSettings = {
  triggerTokens: 14_000,
  keepToolUses: 2,
  clearAtLeastTokens: 6_000
};

/** The client's own token counter for its predictions (memoized, shared across runs). */
const predictionCounter = new TokenCounter();

function variant(
  name: string,
  description: string,
  engine: 'client' | 'api',
  micro: 'client' | 'server',
  serverMicro: ClearToolUsesSettings = SERVER_MICRO,
  threshold = THRESHOLD,
  keepTurns = 1
): Strategy {
  const edits = (): ServerEdit[] => [
    ...(micro === 'server' ? [new ClearToolUses(serverMicro)] : []),
    ...(engine === 'api' ? [new OnDemandCompaction({ thresholdTokens: threshold, keepTurns })] : [])
  ];
  return {
    name,
    description,
    build: (parts, now) =>
      defaultCompactor(
        parts,
        now,
        { thresholdTokens: threshold },
        { steps: layerSteps({ micro: micro === 'client', auto: engine === 'client' }) }
      ),
    ...(engine === 'api' || micro === 'server' ? { serverSide: () => serverSide(...edits()) } : {})
  };
}

export const OUR_VARIANTS: readonly Strategy[] = [
  {
    name: 'default-engine-api',
    description:
      'ours, the shipped defaults with compaction_engine: api (the product engine against the fake)',
    build: (parts, now) => defaultCompactor(parts, now, { engine: 'api' })
  },
  variant('ours-api-engine', 'ours, summaries by the API on demand (simulated), micro ours', 'api', 'client'),
  variant(
    'ours-server-micro',
    'ours, micro by the API (clear_tool_uses 14k / keep 2 / at least 6k), summaries ours',
    'client',
    'server'
  ),
  {
    ...variant(
      'ours-server-micro-bp',
      'ours-server-micro with a cache breakpoint where the client predicts the next server clear',
      'client',
      'server'
    ),
    // The client runs the server's clearing rule on what it sends (server-side/predicted-clear.ts).
    wrapModel: (model) => predictedClearCaching(model, SERVER_MICRO, predictionCounter)
  },
  {
    ...variant(
      'ours-server-micro-bp-t30',
      'ours-server-micro-bp with our summaries from 30k (the server still clears from 14k)',
      'client',
      'server',
      SERVER_MICRO,
      30_000
    ),
    wrapModel: (model) => predictedClearCaching(model, SERVER_MICRO, predictionCounter)
  },
  {
    ...variant(
      'ours-server-micro-bp-t40',
      'ours-server-micro-bp with our summaries from 40k (the server still clears from 14k)',
      'client',
      'server',
      SERVER_MICRO,
      40_000
    ),
    wrapModel: (model) => predictedClearCaching(model, SERVER_MICRO, predictionCounter)
  },
  {
    ...variant(
      'ours-server-micro-bp-t60',
      'ours-server-micro-bp with our summaries from 60k (the server still clears from 14k)',
      'client',
      'server',
      SERVER_MICRO,
      60_000
    ),
    wrapModel: (model) => predictedClearCaching(model, SERVER_MICRO, predictionCounter)
  },
  variant(
    'ours-server-all',
    'ours, micro by the API and summaries by the API on demand (simulated)',
    'api',
    'server'
  ),
  variant('ours-server-all-f10', 'ours-server-all with a 10k clearing floor (trigger 14k)', 'api', 'server', {
    triggerTokens: 14_000,
    keepToolUses: 2,
    clearAtLeastTokens: 10_000
  }),
  variant(
    'ours-server-all-t30',
    'ours-server-all with the threshold at 30k (clearing from 22k, floor 9k)',
    'api',
    'server',
    { triggerTokens: 22_000, keepToolUses: 2, clearAtLeastTokens: 9_000 },
    30_000
  ),
  variant(
    'ours-server-all-keep10',
    'ours-server-all keeping the last 10 turns after the API summary (their thinking with them)',
    'api',
    'server',
    SERVER_MICRO,
    THRESHOLD,
    10
  )
];
