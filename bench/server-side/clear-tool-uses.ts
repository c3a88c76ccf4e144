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

export class ClearToolUses implements ServerEdit {
  private readonly cleared = new Set<string>();
  /** Clears so far (each one a cache rewrite from its point). */
  clears = 0;

  constructor(private readonly settings: ClearToolUsesSettings = CLEAR_TOOL_USES_DEFAULTS) {}

  apply(request: ParsedRequest, tools: ServerTools): ServerView {
    let view = this.render(request);
    const events: string[] = [];
    if (tools.count(view) > this.settings.triggerTokens) {
      const candidates = this.clearable(request);
      const freed = candidates.reduce(
        (sum, candidate) => sum + Math.max(0, tools.countText(candidate.text) - tools.countText(PLACEHOLDER)),
        0
      );
      if (candidates.length > 0 && freed >= (this.settings.clearAtLeastTokens ?? 0)) {
        for (const candidate of candidates) this.cleared.add(candidate.id);
        this.clears++;
        events.push('server_clear');
        view = this.render(request);
      }
    }
    return { request: view, iterations: [], events };
  }

  /** Results not cleared yet, oldest first, outside the kept tool uses and the excluded tools. */
  private clearable(request: ParsedRequest): Array<{ id: string; text: string }> {
    const uses: Array<{ id: string; name: string }> = [];
    const results = new Map<string, string>();
    for (const message of request.messages) {
      for (const block of blocksOf(message)) {
        if (block.type === 'tool_use') uses.push({ id: block.id, name: block.name });
        if (block.type === 'tool_result') results.set(block.tool_use_id, toolResultText(block));
      }
    }
    const kept = new Set(uses.slice(-this.settings.keepToolUses).map((use) => use.id));
    const excluded = new Set(this.settings.excludeTools ?? []);
    return uses.flatMap((use) => {
      const text = results.get(use.id);
      if (text === undefined || kept.has(use.id) || excluded.has(use.name) || this.cleared.has(use.id))
        return [];
      return [{ id: use.id, text }];
    });
  }

  private render(request: ParsedRequest): ParsedRequest {
    if (this.cleared.size === 0) return request;
    return withMessages(
      request,
      request.messages.map((message): MessageParam => {
        if (message.role !== 'user' || typeof message.content === 'string') return message;
        if (
          !message.content.some(
            (block) => block.type === 'tool_result' && this.cleared.has(block.tool_use_id)
          )
        )
          return message;
        const content = message.content.map((block): ContentBlockParam =>
          block.type === 'tool_result' && this.cleared.has(block.tool_use_id)
            ? { ...block, content: PLACEHOLDER }
            : block
        );
        return { ...message, content };
      })
    );
  }
}
