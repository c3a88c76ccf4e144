import {
  clearableResults as fakeClearableResults,
  planClear as fakePlanClear,
  renderCleared,
  SILENT_FACTS,
  type ClearableResult,
  type ClearPlan,
  type ClearToolUsesEdit,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';
import type { ServerEdit, ServerTools, ServerView } from './server-side.js';

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
 * Where the docs are silent, the choices are the fake's SILENT_FACTS
 * (test-support/fake-anthropic/context-editing.ts), whose rule this file shares: a clear stays, the
 * trigger reads the input with earlier clears applied, the placeholder's wording. Thinking after a
 * cleared result stays valid: the signatures were checked on the client's history (unchanged) before
 * the edit; this simulation leaves thinking alone (the product sends `clear_thinking` with keep "all").
 */
export interface ClearToolUsesSettings {
  readonly triggerTokens: number;
  readonly keepToolUses: number;
  readonly clearAtLeastTokens?: number;
  readonly excludeTools?: readonly string[];
}

export const CLEAR_TOOL_USES_DEFAULTS: ClearToolUsesSettings = { triggerTokens: 100_000, keepToolUses: 3 };

export const PLACEHOLDER = SILENT_FACTS.placeholder;

export type { BlockPosition, ClearableResult, ClearPlan } from '../../test-support/fake-anthropic/index.js';

/** The fake's edit with the bench's settings (its rule is the one the fake serves: one copy of it). */
function asEdit(settings: ClearToolUsesSettings): ClearToolUsesEdit {
  return {
    type: 'clear_tool_uses_20250919',
    triggerTokens: settings.triggerTokens,
    keepToolUses: settings.keepToolUses,
    clearAtLeastTokens: settings.clearAtLeastTokens ?? 0,
    excludeTools: settings.excludeTools ?? []
  };
}

/**
 * The clearing rule, as a pure function of the request as the client sent it, the settings and what
 * the server cleared on earlier requests (the fake's planClear). The server (ClearToolUses) applies
 * it; a client that knows its settings can run it too, to predict the clear.
 */
export function planClear(
  request: ParsedRequest,
  settings: ClearToolUsesSettings,
  tools: Pick<ServerTools, 'count' | 'countText'>,
  cleared: ReadonlySet<string>
): ClearPlan | undefined {
  return fakePlanClear(request, asEdit(settings), tools, cleared);
}

/** Results not cleared yet, oldest first (the fake's clearableResults with the bench's settings). */
export function clearableResults(
  request: ParsedRequest,
  settings: ClearToolUsesSettings,
  cleared: ReadonlySet<string>,
  keepRecent = true
): ClearableResult[] {
  return fakeClearableResults(request, asEdit(settings), cleared, keepRecent);
}

export { renderCleared };

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
