import {
  blocksOf,
  toolResultText,
  type ContentBlockParam,
  type MessageParam,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';
import { withMessages, type ServerEdit, type ServerTools, type ServerView } from './server-side.js';

/**
 * Context editing's tool-result clearing, `clear_tool_uses_20250919`, simulated as
 * https://platform.claude.com/docs/en/build-with-claude/context-editing describes it (read 2026-11-26):
 * when the input passes `trigger`, the API clears the oldest tool results in chronological order,
 * replacing each with placeholder text, keeps the `keep` most recent tool uses, and with
 * `clear_at_least` clears only when that many tokens can go. Only results are cleared by default
 * (clear_tool_inputs false). Defaults: trigger 100,000 input tokens, keep 3 tool uses, no
 * clear_at_least (the parameter table as the docs' mirrors print it, e.g. hivebook.wiki "Anthropic
 * Context Editing", and the Rust SDK adk-rust `ContextEdit::ClearToolUses`, both read 2026-11-26).
 *
 * Where the docs are silent, the bench's choices (all in this file):
 * - The trigger is measured on the input with the earlier clears applied. The docs say that after a
 *   clear "subsequent requests can reuse the newly cached prefix", which holds only if a clear, once
 *   made, stays as it was on later requests; so the cleared set only grows.
 * - The placeholder's wording is not quoted in the docs: PLACEHOLDER below.
 * - Thinking after a cleared result stays valid: the signatures were checked on the client's history
 *   (unchanged) before the edit. On preserved-thinking models no thinking is cleared unless
 *   `clear_thinking_20251015` is configured (the page's "keep only the last turn's thinking" default
 *   was written for models that dropped earlier thinking anyway; not modelled).
 * - Caching: the docs say clearing invalidates the cached prefix from the cleared point; the prompt
 *   cache model sees exactly that, since it bills the edited request.
 */
export interface ClearToolUsesSettings {
  readonly triggerTokens: number;
  readonly keepToolUses: number;
  readonly clearAtLeastTokens?: number;
  readonly excludeTools?: readonly string[];
}

export const CLEAR_TOOL_USES_DEFAULTS: ClearToolUsesSettings = { triggerTokens: 100_000, keepToolUses: 3 };

export const PLACEHOLDER = '[tool result cleared by context management]';

/** Where a block sits in a request: its message and its index among that message's blocks. */
export interface BlockPosition {
  readonly message: number;
  readonly block: number;
}

/** A tool result the server may clear: its tool use, its text, and where it sits. */
export interface ClearableResult extends BlockPosition {
  readonly id: string;
  readonly text: string;
}

/** What the server clears on one request: the results (oldest first) and where the first one sits. */
export interface ClearPlan {
  readonly ids: readonly string[];
  readonly from: BlockPosition;
  readonly freedTokens: number;
}

/**
 * The clearing rule, as a pure function of the request as the client sent it, the settings and what
 * the server cleared on earlier requests: the results this request would clear (all those outside
 * the kept tool uses, oldest first), or undefined when it clears nothing (the input, with the earlier
 * clears applied, is not past the trigger, or less than clear_at_least would go). The server
 * (ClearToolUses) applies it; a client that knows its settings can run it too, to predict the clear.
 */
export function planClear(
  request: ParsedRequest,
  settings: ClearToolUsesSettings,
  tools: Pick<ServerTools, 'count' | 'countText'>,
  cleared: ReadonlySet<string>
): ClearPlan | undefined {
  if (tools.count(renderCleared(request, cleared)) <= settings.triggerTokens) return undefined;
  const candidates = clearableResults(request, settings, cleared);
  const first = candidates[0];
  if (first === undefined) return undefined;
  const freed = candidates.reduce(
    (sum, candidate) => sum + Math.max(0, tools.countText(candidate.text) - tools.countText(PLACEHOLDER)),
    0
  );
  if (freed < (settings.clearAtLeastTokens ?? 0)) return undefined;
  return {
    ids: candidates.map((candidate) => candidate.id),
    from: { message: first.message, block: first.block },
    freedTokens: freed
  };
}

/**
 * Results not cleared yet, oldest first (in the order of their tool uses), outside the excluded
 * tools and, unless `keepRecent` is false, outside the `keepToolUses` most recent tool uses.
 */
export function clearableResults(
  request: ParsedRequest,
  settings: ClearToolUsesSettings,
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
  const kept = new Set(keepRecent ? uses.slice(-settings.keepToolUses).map((use) => use.id) : []);
  const excluded = new Set(settings.excludeTools ?? []);
  return uses.flatMap((use) => {
    const result = results.get(use.id);
    if (result === undefined || kept.has(use.id) || excluded.has(use.name) || cleared.has(use.id)) return [];
    return [{ id: use.id, ...result }];
  });
}

/** The request with the cleared results replaced by the placeholder. */
export function renderCleared(request: ParsedRequest, cleared: ReadonlySet<string>): ParsedRequest {
  if (cleared.size === 0) return request;
  return withMessages(
    request,
    request.messages.map((message): MessageParam => {
      if (message.role !== 'user' || typeof message.content === 'string') return message;
      if (!message.content.some((block) => block.type === 'tool_result' && cleared.has(block.tool_use_id)))
        return message;
      const content = message.content.map((block): ContentBlockParam =>
        block.type === 'tool_result' && cleared.has(block.tool_use_id)
          ? { ...block, content: PLACEHOLDER }
          : block
      );
      return { ...message, content };
    })
  );
}

export class ClearToolUses implements ServerEdit {
  private readonly cleared = new Set<string>();
  /** Clears so far (each one a cache rewrite from its point). */
  clears = 0;

  constructor(private readonly settings: ClearToolUsesSettings = CLEAR_TOOL_USES_DEFAULTS) {}

  apply(request: ParsedRequest, tools: ServerTools): ServerView {
    const plan = planClear(request, this.settings, tools, this.cleared);
    const events: string[] = [];
    if (plan) {
      for (const id of plan.ids) this.cleared.add(id);
      this.clears++;
      events.push('server_clear');
    }
    return { request: renderCleared(request, this.cleared), iterations: [], events };
  }
}
