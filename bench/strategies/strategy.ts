import type { Compactor } from '../../src/compaction/compactor.js';
import type { CompactorParts } from '../../src/agent/session.js';
import type { ModelClient } from '../../src/model/model-client.js';
import type { ServerSide } from '../server-side/server-side.js';
import type { MicroBy } from '../../src/compaction/settings.js';

/** A compaction strategy the benchmark runs: how to build its compactor for one run. */
export interface Strategy {
  readonly name: string;
  readonly description: string;
  readonly build: (parts: CompactorParts, now: () => number) => Compactor;
  /** Changes what reaches the API, e.g. where the cache breakpoints go (default: as the loop sends it). */
  readonly wrapModel?: (model: ModelClient) => ModelClient;
  /** What the API does on the server before the model reads the request (context editing, compaction), one per run. */
  readonly serverSide?: () => ServerSide;
  /**
   * Who clears old tool results (the config's `compaction.micro_by`): our micro layer unless said,
   * so the ablations and peers stay what they were; `server` asks the API's context editing, which
   * the fake serves itself (test-support/fake-anthropic/context-editing.ts).
   */
  readonly microBy?: MicroBy;
}
