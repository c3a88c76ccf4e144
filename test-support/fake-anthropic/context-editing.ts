/**
 * Context editing (beta `context-management-2025-06-27`) as the fake serves it: the request's
 * `context_management.edits` are checked, applied to what the model reads (after the thinking
 * signatures were checked on the history as sent), and reported in `context_management.applied_edits`.
 *
 * What the docs say (https://platform.claude.com/docs/en/build-with-claude/context-editing and its
 * zh-CN .md copy with the front matter, read 2026-11-28):
 * - the beta header `context-management-2025-06-27`; edits `clear_tool_uses_20250919` (trigger,
 *   keep, clear_at_least, exclude_tools, clear_tool_inputs) and `clear_thinking_20251015` (keep);
 * - "applied server-side before the prompt reaches Claude. Your client application maintains the
 *   full, unmodified conversation history";
 * - tool result clearing clears "the oldest tool results in chronological order, replacing them with
 *   placeholder text"; only results unless clear_tool_inputs;
 * - with thinking on and no `clear_thinking_20251015` edit the API keeps only the last assistant
 *   turn's thinking (`keep: {type: "thinking_turns", value: 1}`); `keep: "all"` keeps all of it;
 * - clearing invalidates the cached prefix from the cleared point; "subsequent requests can reuse the
 *   newly cached prefix".
 * The response fields (`applied_edits[]` of `{type, cleared_tool_uses, cleared_input_tokens}` and
 * `{type, cleared_thinking_turns, cleared_input_tokens}`) are the SDK's (rubydoc
 * Anthropic::Models::Beta::BetaContextManagementResponse and its edit responses, read 2026-11-28);
 * the stream carries them on `message_delta` (@anthropic-ai/sdk 1.12 BetaMessageStream reads them there).
 * Defaults (trigger 100,000 input tokens, keep 3 tool uses, keep 1 thinking turn): adk-rust
 * `ContextEdit` (docs.rs, read 2026-11-28).
 * Where the docs are silent, the fake's choices are in SILENT_FACTS below, each with its source.
 */
import type { AppliedEdit, ContentBlockParam, MessageParam, ParsedRequest } from './types.js';
import { toolResultText } from './replies.js';
import { blocksOf, isJsonObject } from './validate.js';

export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/**
 * What the docs leave open, decided once here (the bench's server-side simulation made the same
 * choices, docs/benchmarks/thinking-and-peers.md, "Server-side behaviour"):
 * - clearsStay: a clear, once made, stays on every later request of the conversation, and the
 *   trigger is read on the input with the earlier clears applied. Source: the page's "subsequent
 *   requests can reuse the newly cached prefix", which holds only if the cleared prefix stays as it was.
 * - appliedEditsCountTheView: `cleared_tool_uses` and `cleared_input_tokens` count every result
 *   cleared in this request's view (the earlier clears too), since the edit is applied to each
 *   request. Source: none; the SDK's field docs say only "number of tool uses that were cleared".
 * - placeholder: the placeholder's wording is not quoted anywhere we found.
 * - usageIsTheView: usage counts the prompt as the model read it, after the edits (the page says the
 *   edits apply "before the prompt reaches Claude"; usage of what it did not read would be odd).
 * - thinkingDefaultOnlyWithContextManagement: the one-turn thinking default applies to requests that
 *   carry `context_management` (it is documented on this page, under the thinking strategy).
 * - windowAfterEdits: the context window applies to the prompt after the edits (the page: context
 *   editing helps "staying within limits", which it could not if the limit counted what it cleared).
 */
export const SILENT_FACTS = {
  clearsStay: true,
  appliedEditsCountTheView: true,
  placeholder: '[tool result cleared by context management]',
  usageIsTheView: true,
  thinkingDefaultOnlyWithContextManagement: true,
  windowAfterEdits: true
} as const;

export interface ClearToolUsesEdit {
  readonly type: 'clear_tool_uses_20250919';
  readonly triggerTokens: number;
  readonly keepToolUses: number;
  readonly clearAtLeastTokens: number;
  readonly excludeTools: readonly string[];
}

export interface ClearThinkingEdit {
  readonly type: 'clear_thinking_20251015';
  /** Assistant turns whose thinking is kept; 'all' keeps every block. */
  readonly keepTurns: number | 'all';
}

export type ContextEdit = ClearToolUsesEdit | ClearThinkingEdit;

/** Counts the fake needs: a whole prompt, and one text. */
export interface EditCounting {
  readonly count: (request: ParsedRequest) => number;
  readonly countText: (text: string) => number;
}

/** The request's edits, or a 400's message; undefined when it carries no `context_management`. */
export function parseContextManagement(
  request: ParsedRequest,
  betas: readonly string[]
): { edits: ContextEdit[] } | { refusal: string } | undefined {
  const raw = request.raw.context_management;
  if (raw === undefined || raw === null) return undefined;
  if (!betas.includes(CONTEXT_MANAGEMENT_BETA))
    return {
      refusal: `context_management: This field requires the beta header \`anthropic-beta: ${CONTEXT_MANAGEMENT_BETA}\`.`
    };
  if (!isJsonObject(raw) || !Array.isArray(raw.edits))
    return { refusal: 'context_management.edits: Field required' };
  const edits: ContextEdit[] = [];
  for (const [index, edit] of raw.edits.entries()) {
    const path = `context_management.edits.${index}`;
    if (!isJsonObject(edit)) return { refusal: `${path}: Input should be a valid dictionary` };
    if (edit.type === 'clear_tool_uses_20250919') {
      const trigger = amount(edit.trigger, 'input_tokens', 100_000);
      const keep = amount(edit.keep, 'tool_uses', 3);
      const atLeast = amount(edit.clear_at_least, 'input_tokens', 0);
      if (trigger === undefined)
        return { refusal: `${path}.trigger: Input should be {type: "input_tokens", value}` };
      if (keep === undefined) return { refusal: `${path}.keep: Input should be {type: "tool_uses", value}` };
      if (atLeast === undefined)
        return { refusal: `${path}.clear_at_least: Input should be {type: "input_tokens", value}` };
      const exclude = edit.exclude_tools ?? [];
      if (!Array.isArray(exclude) || !exclude.every((name) => typeof name === 'string'))
        return { refusal: `${path}.exclude_tools: Input should be a valid list of strings` };
      edits.push({
        type: 'clear_tool_uses_20250919',
        triggerTokens: trigger,
        keepToolUses: keep,
        clearAtLeastTokens: atLeast,
        excludeTools: exclude as string[]
      });
    } else if (edit.type === 'clear_thinking_20251015') {
      const keep = edit.keep === 'all' ? 'all' : amount(edit.keep, 'thinking_turns', 1);
      if (keep === undefined)
        return { refusal: `${path}.keep: Input should be "all" or {type: "thinking_turns", value}` };
      edits.push({ type: 'clear_thinking_20251015', keepTurns: keep });
    } else {
      return {
        refusal: `${path}.type: Input should be 'clear_tool_uses_20250919' or 'clear_thinking_20251015'`
      };
    }
  }
  return { edits };
}

function amount(value: unknown, type: string, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  if (!isJsonObject(value) || value.type !== type) return undefined;
  return typeof value.value === 'number' && Number.isInteger(value.value) && value.value >= 0
    ? value.value
    : undefined;
}

/** Where a block sits in a request: its message and its index among that message's blocks. */
export interface BlockPosition {
  readonly message: number;
  readonly block: number;
}

/** A tool result the server may clear, and where it sits. */
export interface ClearableResult extends BlockPosition {
  readonly id: string;
  readonly text: string;
}

/**
 * Results not cleared yet, oldest first (in the order of their tool uses), outside the excluded
 * tools and, unless `keepRecent` is false, outside the `keepToolUses` most recent tool uses.
 */
export function clearableResults(
  request: ParsedRequest,
  edit: Pick<ClearToolUsesEdit, 'keepToolUses' | 'excludeTools'>,
  cleared: ReadonlySet<string>,
  keepRecent = true
): ClearableResult[] {
  const uses: Array<{ id: string; name: string }> = [];
  const results = new Map<string, { text: string; message: number; block: number }>();
  request.messages.forEach((message, messageIndex) => {
    blocksOf(message).forEach((block, blockIndex) => {
      if (block.type === 'tool_use') uses.push({ id: block.id, name: block.name });
      if (block.type === 'tool_result')
        results.set(block.tool_use_id, {
          text: toolResultText(block),
          message: messageIndex,
          block: blockIndex
        });
    });
  });
  const kept = new Set(keepRecent ? uses.slice(-edit.keepToolUses).map((use) => use.id) : []);
  const excluded = new Set(edit.excludeTools);
  return uses.flatMap((use) => {
    const result = results.get(use.id);
    if (result === undefined || kept.has(use.id) || excluded.has(use.name) || cleared.has(use.id)) return [];
    return [{ id: use.id, ...result }];
  });
}

/** What one request clears: the results, oldest first, and where the first one sits. */
export interface ClearPlan {
  readonly ids: readonly string[];
  readonly from: BlockPosition;
  readonly freedTokens: number;
}

/**
 * The clearing rule on the request as sent, given what earlier requests cleared: all results outside
 * the kept tool uses, when the input with the earlier clears applied is past the trigger and at
 * least clear_at_least would go; else undefined.
 */
export function planClear(
  request: ParsedRequest,
  edit: ClearToolUsesEdit,
  counting: EditCounting,
  cleared: ReadonlySet<string>
): ClearPlan | undefined {
  if (counting.count(renderCleared(request, cleared)) <= edit.triggerTokens) return undefined;
  const candidates = clearableResults(request, edit, cleared);
  const first = candidates[0];
  if (first === undefined) return undefined;
  const placeholder = counting.countText(SILENT_FACTS.placeholder);
  const freed = candidates.reduce(
    (sum, candidate) => sum + Math.max(0, counting.countText(candidate.text) - placeholder),
    0
  );
  if (freed < edit.clearAtLeastTokens) return undefined;
  return {
    ids: candidates.map((candidate) => candidate.id),
    from: { message: first.message, block: first.block },
    freedTokens: freed
  };
}

/** The request with the cleared results replaced by the placeholder. */
export function renderCleared(request: ParsedRequest, cleared: ReadonlySet<string>): ParsedRequest {
  if (cleared.size === 0) return request;
  const messages = request.messages.map((message): MessageParam => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    if (!message.content.some((block) => block.type === 'tool_result' && cleared.has(block.tool_use_id)))
      return message;
    const content = message.content.map((block): ContentBlockParam =>
      block.type === 'tool_result' && cleared.has(block.tool_use_id)
        ? { ...block, content: SILENT_FACTS.placeholder }
        : block
    );
    return { ...message, content };
  });
  return { ...request, messages };
}

/** The thinking of all but the last `keepTurns` assistant turns removed (the docs' thinking edit). */
function clearThinking(
  request: ParsedRequest,
  keepTurns: number | 'all'
): { request: ParsedRequest; turns: number; removed: ContentBlockParam[] } {
  if (keepTurns === 'all') return { request, turns: 0, removed: [] };
  const assistants = request.messages.flatMap((message, index) =>
    message.role === 'assistant' ? [index] : []
  );
  const cut = new Set(assistants.slice(0, Math.max(0, assistants.length - keepTurns)));
  const removed: ContentBlockParam[] = [];
  let turns = 0;
  const messages = request.messages.map((message, index): MessageParam => {
    if (!cut.has(index) || typeof message.content === 'string') return message;
    const thinking = message.content.filter(isThinking);
    if (thinking.length === 0) return message;
    turns++;
    removed.push(...thinking);
    return { ...message, content: message.content.filter((block) => !isThinking(block)) };
  });
  return { request: { ...request, messages }, turns, removed };
}

function isThinking(block: ContentBlockParam): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

/**
 * The server's side of one conversation's context editing: which tool uses it cleared so far
 * (SILENT_FACTS.clearsStay), and what it did to each request.
 */
export class ContextEditor {
  private readonly cleared = new Set<string>();

  /** The request as the model reads it, and the applied_edits to report. */
  apply(
    request: ParsedRequest,
    edits: readonly ContextEdit[],
    counting: EditCounting
  ): { seen: ParsedRequest; applied: AppliedEdit[] } {
    let seen = request;
    const applied: AppliedEdit[] = [];
    const thinkingOn = isJsonObject(request.raw.thinking) && request.raw.thinking.type !== 'disabled';
    const thinkingEdit = edits.find(
      (edit): edit is ClearThinkingEdit => edit.type === 'clear_thinking_20251015'
    );
    const keepTurns = thinkingEdit?.keepTurns ?? (thinkingOn ? 1 : 'all');
    const thinking = clearThinking(seen, keepTurns);
    if (thinking.turns > 0) {
      seen = thinking.request;
      applied.push({
        type: 'clear_thinking_20251015',
        cleared_thinking_turns: thinking.turns,
        cleared_input_tokens: thinking.removed.reduce(
          (sum, block) => sum + counting.countText(JSON.stringify(block)),
          0
        )
      });
    }
    for (const edit of edits) {
      if (edit.type !== 'clear_tool_uses_20250919') continue;
      const plan = planClear(seen, edit, counting, this.cleared);
      for (const id of plan?.ids ?? []) this.cleared.add(id);
      const inView = clearableResults(seen, edit, new Set(), false).filter((result) =>
        this.cleared.has(result.id)
      );
      seen = renderCleared(seen, this.cleared);
      if (inView.length > 0)
        applied.push({
          type: 'clear_tool_uses_20250919',
          cleared_tool_uses: inView.length,
          cleared_input_tokens: inView.reduce(
            (sum, result) =>
              sum +
              Math.max(0, counting.countText(result.text) - counting.countText(SILENT_FACTS.placeholder)),
            0
          )
        });
    }
    return { seen, applied };
  }
}
