import type { MessageParam, Tool as ToolDefinition } from '@anthropic-ai/sdk/resources/messages';
import { systemWithBreakpoint, withMessageBreakpoints } from './cache-breakpoints.js';
import type { ModelRequest } from './model-client.js';
import type { ThinkingSettings } from './thinking.js';
import { ON_DEMAND_COMPACTION_BETA, startsWithCompaction } from './compaction-block.js';
import { CONTEXT_MANAGEMENT_BETA, contextManagementOf, type ServerClearSettings } from './context-editing.js';

export interface RequestShape {
  readonly model: string;
  readonly maxTokens: number;
  readonly systemPrompt: string;
  readonly tools: readonly ToolDefinition[];
  /** Undefined: no thinking field and no effort (the model's defaults). */
  readonly thinking?: ThinkingSettings;
  /** The server clears old tool results (context editing); undefined: our micro does, or nothing. */
  readonly serverClears?: ServerClearSettings;
}

/**
 * Builds every request of a run from one shape, so agent turns and summary requests share the same
 * tools + system prefix byte for byte (the summary is read from the prompt cache, and the thinking
 * blocks it replays stay valid) and follow the same model rules.
 */
export class RequestBuilder {
  private readonly system;

  constructor(readonly shape: RequestShape) {
    this.system = systemWithBreakpoint(shape.systemPrompt);
  }

  /** `editedFrom`: the first message a compaction changed since the last request (see withMessageBreakpoints). */
  build(
    history: readonly MessageParam[],
    maxTokens = this.shape.maxTokens,
    editedFrom?: number
  ): ModelRequest {
    const thinking = this.shape.thinking;
    // The compaction beta goes on every request that carries the block (compaction-thinking-blocks).
    const serverClears = this.shape.serverClears;
    const betas = [
      ...(serverClears ? [CONTEXT_MANAGEMENT_BETA] : []),
      ...(startsWithCompaction(history) ? [ON_DEMAND_COMPACTION_BETA] : [])
    ];
    return {
      model: this.shape.model,
      maxTokens,
      system: this.system,
      tools: this.shape.tools,
      messages: withMessageBreakpoints(history, editedFrom),
      ...(thinking?.thinking ? { thinking: thinking.thinking } : {}),
      ...(thinking?.effort ? { effort: thinking.effort } : {}),
      ...(serverClears ? { contextManagement: contextManagementOf(serverClears) } : {}),
      ...(betas.length > 0 ? { betas } : {})
    };
  }

  /**
   * An on-demand compaction of `history`: the same system, tools and thinking settings as a turn
   * (so the cached prefix is read and kept thinking stays valid), plus the compaction field and beta.
   */
  buildCompaction(history: readonly MessageParam[], maxTokens: number, instructions?: string): ModelRequest {
    // "Cannot be combined with `context_management`" (compaction-on-demand, SDK 1.12 type docs).
    const { contextManagement: _notCombinable, ...request } = this.build(history, maxTokens);
    return {
      ...request,
      betas: [...new Set([...(request.betas ?? []), ON_DEMAND_COMPACTION_BETA])],
      compaction: { type: 'summarize', ...(instructions ? { instructions } : {}) }
    };
  }

  /** Whether we must strip the replayed thinking after an edit of earlier history (not the API). */
  get bindsThinking(): boolean {
    return this.shape.thinking?.boundToConversation ?? false;
  }

  /** Characters of the fixed prefix (tools + system), for the token estimator. */
  prefixChars(): number {
    return JSON.stringify(this.shape.tools).length + this.shape.systemPrompt.length;
  }
}
