import { noCompaction } from '../../src/compaction/compactor.js';
import { defaultCompactor } from '../../src/agent/session.js';
import type { Strategy } from './strategy.js';
import { freshSummaryRequest } from './fresh-summary.js';
import { PEER_STRATEGIES } from './peers.js';
import { OUR_VARIANTS } from './our-variants.js';
import { referenceCaching, ReferenceCompactor } from './reference.js';
import { SUMMARIES_ONLY } from './layers.js';

export type { Strategy } from './strategy.js';

/** Every strategy, in the order the report lists them. */
export const STRATEGIES: readonly Strategy[] = [
  { name: 'none', description: 'no compaction: runs until the context overflows', build: () => noCompaction },
  {
    name: 'reference',
    description:
      'the seed design: micro every turn keeping 3, chars/4, 50k threshold, fresh summary request; cached up to the results it keeps',
    wrapModel: referenceCaching,
    build: (parts) =>
      new ReferenceCompactor({
        model: parts.model,
        modelName: parts.config.model,
        prices: parts.config.modelSpec.prices,
        store: parts.store
      })
  },
  {
    name: 'default',
    description: "ours, with the shipped defaults: the API's context editing clears, our summaries from 30k",
    microBy: 'server',
    build: (parts, now) => defaultCompactor(parts, now)
  },
  {
    name: 'default-client-micro',
    description: 'ours with compaction.micro_by: client (our micro layer clears: the cheapest mode)',
    build: (parts, now) => defaultCompactor(parts, now)
  },
  {
    name: 'no-micro',
    description: 'ours without the micro layer (summaries only)',
    build: (parts, now) => defaultCompactor(parts, now, {}, { steps: SUMMARIES_ONLY })
  },
  {
    name: 'no-hysteresis',
    description: 'ours, micro clearing whatever it can every turn (no floor)',
    build: (parts, now) => defaultCompactor(parts, now, { microClearAtLeast: 1 })
  },
  {
    name: 'no-prefix-reuse',
    description: 'ours, the summary sent as a fresh request (history pasted as JSON)',
    build: (parts, now) => defaultCompactor(parts, now, {}, { summaryRequest: freshSummaryRequest })
  },
  {
    name: 'no-summary-updates',
    description: 'ours, every summary written whole (no update of the one in the history)',
    build: (parts, now) => defaultCompactor(parts, now, { summaryUpdates: false })
  },
  ...OUR_VARIANTS,
  ...PEER_STRATEGIES
];
