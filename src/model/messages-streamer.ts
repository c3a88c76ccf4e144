import type Anthropic from '@anthropic-ai/sdk';

/**
 * What the model boundary needs of an SDK client: Anthropic, AnthropicBedrock and AnthropicVertex all
 * have it. Its own module because both sides use it: provider-client.ts builds one, anthropic-client.ts
 * streams through it.
 */
export interface MessagesStreamer {
  readonly messages: Pick<Anthropic['messages'], 'stream'>;
}
