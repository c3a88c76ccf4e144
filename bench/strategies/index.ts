import { noCompaction, type Compactor } from '../../src/compaction/compactor.js';
import { defaultCompactor, type CompactorParts } from '../../src/agent/session.js';
import type { ModelClient } from '../../src/model/model-client.js';
import type { ServerSide } from '../server-side/server-side.js';
import { PEER_STRATEGIES } from './peers.js';
import { OUR_VARIANTS } from './our-variants.js';
import { referenceCaching, ReferenceCompactor } from './reference.js';

/** A compaction strategy the benchmark runs: how to build its compactor for one run. */
export interface Strategy {
  readonly name: string;
  readonly description: string;
  readonly build: (parts: CompactorParts, now: () => number) => Compactor;
  /** Changes what reaches the API, e.g. where the cache breakpoints go (default: as the loop sends it). */
  readonly wrapModel?: (model: ModelClient) => ModelClient;
  /** What the API does on the server before the model reads the request (context editing, compaction), one per run. */
  readonly serverSide?: () => ServerSide;
}

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
    description: 'ours, with the shipped defaults',
    build: (parts, now) => defaultCompactor(parts, now)
  },
  {
    name: 'no-micro',
    description: 'ours without the micro layer (summaries only)',
    build: (parts, now) => defaultCompactor(parts, now, { layers: { micro: false, auto: true } })
  },
  {
    name: 'no-hysteresis',
    description: 'ours, micro clearing whatever it can every turn (no floor)',
    build: (parts, now) => defaultCompactor(parts, now, { microClearAtLeast: 1 })
  },
  {
    name: 'no-prefix-reuse',
    description: 'ours, the summary sent as a fresh request (history pasted as JSON)',
    build: (parts, now) => defaultCompactor(parts, now, { summaryPrefixReuse: false })
  },
  ...OUR_VARIANTS,
  ...PEER_STRATEGIES
];
