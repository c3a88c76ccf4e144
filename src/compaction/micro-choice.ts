import type { ProviderConfig } from '../config/provider-inputs.js';
import type { MicroBy } from './settings.js';

export interface MicroDecision {
  readonly microBy: MicroBy;
  /** One line for the log when the run cannot have what was asked (said once, before the first turn). */
  readonly notice?: string;
}

/**
 * Who clears old tool results on this platform. The API's context editing is sent only on the
 * Claude API: the docs list Bedrock and Google Cloud as beta platforms too (context-editing, zh-CN
 * .md front matter, read 2026-11-28), but our Bedrock and Vertex clients speak those platforms' own
 * API versions through SDKs without the beta surface that sends `context_management` and reads
 * `applied_edits` (anthropic-client.ts, OnDemandCompactionUnavailableError). There our micro layer
 * clears, as before: the run costs the same and keeps less of the model's reasoning.
 */
export function chooseMicroBy(wanted: MicroBy, provider: ProviderConfig['kind']): MicroDecision {
  if (wanted === 'client' || provider === 'anthropic') return { microBy: wanted };
  return {
    microBy: 'client',
    notice:
      `Context editing is not available through the ${provider} client: our micro layer clears old tool ` +
      'results instead (the model keeps less of its earlier reasoning; set compaction.micro_by: client to silence this).'
  };
}
