import type Anthropic from '@anthropic-ai/sdk';

/**
 * What the model boundary needs of an SDK client: Anthropic, AnthropicBedrock and AnthropicVertex all
 * have it. Its own module because both sides use it: provider-client.ts builds one, anthropic-client.ts
 * streams through it.
 */
export interface MessagesStreamer {
  readonly messages: Pick<Anthropic['messages'], 'stream'>;
  /**
   * The beta surface, for on-demand compaction (its answer's `compaction` block and
   * `compaction_delta` are only in the beta stream's types and accumulator). First-party only.
   */
  readonly beta?: { readonly messages: Pick<Anthropic['beta']['messages'], 'stream'> };
}
