import type {
  ContentBlockParam,
  MessageParam,
  StopReason,
  TextBlockParam,
  ThinkingConfigParam,
  Tool as ToolDefinition
} from '@anthropic-ai/sdk/resources/messages';
import type { Effort } from '../config/model-catalog.js';
import type { OnDemandCompaction } from './compaction-block.js';
import type { AppliedEdit, ContextManagementParam } from './context-editing.js';
import type { TokenUsage } from './usage.js';

/** One request to the model, already carrying its cache breakpoints. */
export interface ModelRequest {
  readonly model: string;
  readonly maxTokens: number;
  readonly system: readonly TextBlockParam[];
  readonly tools: readonly ToolDefinition[];
  readonly messages: readonly MessageParam[];
  /** Sent as is; never a manual budget or `disabled` on models that refuse them. */
  readonly thinking?: ThinkingConfigParam;
  /** `output_config.effort`, for models that have effort levels. */
  readonly effort?: Effort;
  /** Beta features, sent as the `anthropic-beta` header. */
  readonly betas?: readonly string[];
  /** An on-demand compaction request: the answer is one compaction block (see compaction-block.ts). */
  readonly compaction?: OnDemandCompaction;
  /** The API's context editing (context-editing.ts): the server clears old tool results. */
  readonly contextManagement?: ContextManagementParam;
  // No tool_choice: the 5.5 generation refuses forced tool use, and `auto` is the default anyway.
}

/** The model's answer, with content ready to append to the history as the assistant message. */
export interface ModelReply {
  readonly id: string;
  readonly content: ContentBlockParam[];
  readonly stopReason: StopReason | null;
  readonly usage: TokenUsage;
  /** What the API's context editing did to the request, when it carried `context_management`. */
  readonly appliedEdits?: readonly AppliedEdit[];
}

export interface ModelCallHooks {
  readonly signal?: AbortSignal;
  /** Called before a failed attempt is tried again, so the transcript can say what happened. */
  readonly onRetry?: (attempt: number, error: Error) => void;
}

/** The model boundary. The loop and compaction only see this, never the SDK. */
export interface ModelClient {
  complete(request: ModelRequest, hooks?: ModelCallHooks): Promise<ModelReply>;
}
