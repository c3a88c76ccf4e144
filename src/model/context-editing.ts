/**
 * The API's context editing (beta), as our requests use it: the server clears old tool results
 * before the model reads the request, and our history, and so the signatures of the model's
 * thinking, stays as it was sent. Facts (read 2026-11-28):
 * - https://platform.claude.com/docs/en/build-with-claude/context-editing: beta header
 *   `context-management-2025-06-27`; `clear_tool_uses_20250919` {trigger, keep, clear_at_least,
 *   exclude_tools, clear_tool_inputs} clears "the oldest tool results in chronological order,
 *   replacing them with placeholder text"; "applied server-side before the prompt reaches Claude.
 *   Your client application maintains the full, unmodified conversation history"; clearing
 *   invalidates the cached prefix from the cleared point ("use clear_at_least"); with thinking on
 *   and no `clear_thinking_20251015` edit the API keeps only the last assistant turn's thinking, and
 *   `keep: "all"` keeps every thinking block (which is why we send it: the thinking is what we keep).
 * - Its zh-CN .md copy, front matter `supportedPlatforms` (read 2026-11-28): Claude API, Claude
 *   Platform on AWS, Amazon Bedrock, Google Cloud (Google managed) and Foundry, all beta.
 * - The response's `context_management.applied_edits`: the SDK's BetaContextManagementResponse
 *   (rubydoc anthropic gem, BetaClearToolUses20250919EditResponse {cleared_tool_uses,
 *   cleared_input_tokens}, BetaClearThinking20251015EditResponse {cleared_thinking_turns,
 *   cleared_input_tokens}); @anthropic-ai/sdk 1.12's BetaMessageStream reads it from message_delta.
 * Not documented: whether `cleared_tool_uses` counts this request's new clears or every result
 * cleared in its view. The client reads it as the view's count (test-support/fake-anthropic/
 * context-editing.ts, SILENT_FACTS), and a count that disagrees with its prediction corrects it.
 */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/** How the server clears tool results for us (our micro numbers, run by the API). */
export interface ServerClearSettings {
  /** The server clears once the input, with its earlier clears applied, is past this. */
  readonly triggerTokens: number;
  /** The most recent tool uses it keeps. */
  readonly keepToolUses: number;
  /** It clears only when at least this many tokens go (so each cache rewrite is worth it). */
  readonly clearAtLeastTokens: number;
}

/** The request field, as the API takes it. */
export interface ContextManagementParam {
  readonly edits: readonly Record<string, unknown>[];
}

export function contextManagementOf(settings: ServerClearSettings): ContextManagementParam {
  return {
    edits: [
      // Every thinking block stays: keeping the model's reasoning is why the server clears at all.
      { type: 'clear_thinking_20251015', keep: 'all' },
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: settings.triggerTokens },
        keep: { type: 'tool_uses', value: settings.keepToolUses },
        clear_at_least: { type: 'input_tokens', value: settings.clearAtLeastTokens }
      }
    ]
  };
}

/** What the API says it did to one request. */
export type AppliedEdit =
  | {
      readonly type: 'clear_tool_uses';
      readonly clearedToolUses: number;
      readonly clearedInputTokens: number;
    }
  | {
      readonly type: 'clear_thinking';
      readonly clearedThinkingTurns: number;
      readonly clearedInputTokens: number;
    };

/**
 * The response's `context_management` read where it enters: unknown edit types are skipped (a newer
 * API may report more), and a malformed known one is an error, since the client's view would drift.
 */
export function appliedEditsOf(contextManagement: unknown): AppliedEdit[] | undefined {
  if (contextManagement === undefined || contextManagement === null) return undefined;
  const edits = (contextManagement as { applied_edits?: unknown }).applied_edits;
  if (!Array.isArray(edits)) throw new Error('The API answered context_management without applied_edits.');
  return edits.flatMap((edit: unknown): AppliedEdit[] => {
    if (typeof edit !== 'object' || edit === null) throw malformed(edit);
    const fields = edit as Record<string, unknown>;
    const tokens = fields.cleared_input_tokens;
    if (fields.type === 'clear_tool_uses_20250919') {
      if (!isCount(fields.cleared_tool_uses) || !isCount(tokens)) throw malformed(edit);
      return [
        { type: 'clear_tool_uses', clearedToolUses: fields.cleared_tool_uses, clearedInputTokens: tokens }
      ];
    }
    if (fields.type === 'clear_thinking_20251015') {
      if (!isCount(fields.cleared_thinking_turns) || !isCount(tokens)) throw malformed(edit);
      return [
        {
          type: 'clear_thinking',
          clearedThinkingTurns: fields.cleared_thinking_turns,
          clearedInputTokens: tokens
        }
      ];
    }
    return [];
  });
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function malformed(edit: unknown): Error {
  return new Error(`The API reported an applied edit we cannot read: ${JSON.stringify(edit)}.`);
}
