import type {
  ContentBlockParam,
  MessageParam,
  ToolResultBlockParam,
  ToolUseBlockParam
} from '@anthropic-ai/sdk/resources/messages';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolContext } from '../tools/tool.js';
import type { Workspace } from '../tools/workspace.js';
import type { TranscriptSink } from '../transcript/writer.js';

export interface ToolTurnDependencies {
  readonly tools: ToolRegistry;
  readonly workspace: Workspace;
  readonly env: NodeJS.ProcessEnv;
  readonly signal: AbortSignal;
  readonly transcript: TranscriptSink;
  readonly onToolStart?: (call: ToolUseBlockParam) => void;
  /** Applied to every tool result before the model (and the transcript) sees it. */
  readonly redact?: (text: string) => string;
}

export interface ToolTurnResult {
  /** The user message answering every tool_use of the turn, in order. */
  readonly message: MessageParam;
  /** Set when the model called `compact`: the focus it gave, or null. */
  readonly compactionRequest: { readonly focus: string | undefined } | undefined;
}

export function toolUseBlocks(content: readonly ContentBlockParam[]): ToolUseBlockParam[] {
  return content.filter((block): block is ToolUseBlockParam => block.type === 'tool_use');
}

/**
 * Runs the turn's tool calls one after another (they may edit the same files) and answers each in a
 * single user message, so the history stays valid whatever the tools do.
 */
export async function answerToolCalls(
  calls: readonly ToolUseBlockParam[],
  turn: number,
  deps: ToolTurnDependencies
): Promise<ToolTurnResult> {
  let compactionRequest: ToolTurnResult['compactionRequest'];
  const context: ToolContext = {
    workspace: deps.workspace,
    env: deps.env,
    signal: deps.signal,
    requestCompaction: (focus) => {
      compactionRequest = { focus };
    }
  };
  const results: ToolResultBlockParam[] = [];
  for (const call of calls) {
    deps.onToolStart?.(call);
    const outcome = await deps.tools.execute({ id: call.id, name: call.name, input: call.input }, context);
    deps.transcript.append({
      type: 'tool_result',
      turn,
      tool_use_id: call.id,
      name: call.name,
      is_error: outcome.isError,
      duration_ms: outcome.durationMs,
      ...(outcome.denied ? { denied: outcome.denied } : {}),
      ...(outcome.sandboxBlocked ? { sandbox_blocked: outcome.sandboxBlocked } : {})
    });
    results.push({
      type: 'tool_result',
      tool_use_id: call.id,
      content: deps.redact ? deps.redact(outcome.content) : outcome.content,
      ...(outcome.isError ? { is_error: true } : {})
    });
  }
  return { message: { role: 'user', content: results }, compactionRequest };
}
