import type { CompactionEngineChoice } from '../config/compaction-engine-input.js';
import type { ProviderConfig } from '../config/provider-inputs.js';
import { errorMessage } from '../errors/error-message.js';
import type { CompactionEngine } from './settings.js';

/** What the Models API says about one model (`capabilities.compaction`), behind a small boundary. */
export interface CompactionCapabilityLookup {
  /** Whether the model takes `compaction: {type: "summarize"}`. Throws when the API cannot say. */
  supportsOnDemandCompaction(model: string): Promise<boolean>;
}

export interface EngineDecision {
  readonly engine: CompactionEngine;
  /** One line for the log: what was chosen and why. */
  readonly why: string;
}

/**
 * Resolves `compaction_engine`. `auto` takes the API's on-demand compaction only on the Claude API
 * and only when the Models API reports `capabilities.compaction.summarize.supported` for the model
 * (SDK 1.12 BetaModelInfo). Elsewhere our summarizer: the docs list Claude Platform on AWS, Google
 * Cloud and Foundry as beta platforms, but the Bedrock pages disagree (protocols.md, 2026-11-25)
 * and our Bedrock and Vertex clients speak those platforms' own API versions, whose support for the
 * beta we could not check. A Models API that fails or says no also means our summarizer.
 */
export async function chooseCompactionEngine(
  choice: CompactionEngineChoice | undefined,
  provider: ProviderConfig['kind'],
  model: string,
  lookup: CompactionCapabilityLookup | undefined
): Promise<EngineDecision> {
  if (choice === undefined || choice === 'client')
    return { engine: 'client', why: 'compaction_engine client' };
  if (choice === 'api') return { engine: 'api', why: 'compaction_engine api' };
  if (provider !== 'anthropic' || !lookup)
    return { engine: 'client', why: `compaction_engine auto: our summarizer on ${provider}` };
  try {
    return (await lookup.supportsOnDemandCompaction(model))
      ? { engine: 'api', why: `compaction_engine auto: the Models API reports compaction for ${model}` }
      : {
          engine: 'client',
          why: `compaction_engine auto: the Models API reports no compaction for ${model}`
        };
  } catch (error) {
    return {
      engine: 'client',
      why: `compaction_engine auto: the Models API did not answer (${errorMessage(error)}); our summarizer`
    };
  }
}
