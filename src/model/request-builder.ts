import type { MessageParam, Tool as ToolDefinition } from '@anthropic-ai/sdk/resources/messages';
import { systemWithBreakpoint, withMessageBreakpoints } from './cache-breakpoints.js';
import type { ModelRequest } from './model-client.js';

export interface RequestShape {
  readonly model: string;
  readonly maxTokens: number;
  readonly systemPrompt: string;
  readonly tools: readonly ToolDefinition[];
}

/**
 * Builds every request of a run from one shape, so agent turns and summary requests share the same
 * tools + system prefix byte for byte and the summary is read from the prompt cache.
 */
export class RequestBuilder {
  private readonly system;

  constructor(readonly shape: RequestShape) {
    this.system = systemWithBreakpoint(shape.systemPrompt);
  }

  build(history: readonly MessageParam[], maxTokens = this.shape.maxTokens): ModelRequest {
    return {
      model: this.shape.model,
      maxTokens,
      system: this.system,
      tools: this.shape.tools,
      messages: withMessageBreakpoints(history)
    };
  }

  /** Characters of the fixed prefix (tools + system), for the token estimator. */
  prefixChars(): number {
    return JSON.stringify(this.shape.tools).length + this.shape.systemPrompt.length;
  }
}
