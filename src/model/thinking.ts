import type {
  ContentBlockParam,
  MessageParam,
  ThinkingConfigParam
} from '@anthropic-ai/sdk/resources/messages';
import type { Effort } from '../config/model-catalog.js';
import type { ModelSpec } from '../config/models.js';

/**
 * The thinking settings of every request of a run, chosen once from the catalogue row:
 * - adaptive models think by default; we say so explicitly, and never send a manual budget,
 *   `disabled` or sampling parameters, which the 5.5 generation refuses with a 400;
 * - manual-thinking models (Claude 4.x) run without thinking, as they did before.
 * `effort` goes in `output_config`, only for models that have effort levels.
 * Docs: https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide (read 2026-11-23).
 */
export interface ThinkingSettings {
  readonly thinking: ThinkingConfigParam | undefined;
  readonly effort: Effort | undefined;
  /**
   * Replayed thinking must be stripped after every edit of earlier history (preserved thinking).
   * We strip it ourselves rather than let the API drop it (`block_binding.prefix_mismatch_behavior:
   * "drop_block"`): strip costs less for the same blocks kept (docs/benchmarks/thinking-and-peers.md,
   * "Thinking and edits"; __tests__/integration/thinking-policies.test.ts measures both).
   */
  readonly boundToConversation: boolean;
}

export function thinkingSettings(spec: ModelSpec, effort: Effort | undefined): ThinkingSettings {
  // Opt-in models (Opus 4.6-4.8) are not asked to think: they run as they always did here.
  const adaptive = spec.thinking.mode === 'adaptive' || spec.thinking.mode === 'adaptive-always-on';
  return {
    thinking: adaptive ? { type: 'adaptive' } : undefined,
    effort: effort !== undefined && spec.thinking.efforts.includes(effort) ? effort : undefined,
    boundToConversation: spec.thinking.boundToConversation
  };
}

/** What stands in for a turn that was only thinking, once that thinking had to go. */
export const THINKING_REMOVED = '(earlier reasoning removed after the history was compacted)';

export function isThinkingBlock(block: ContentBlockParam): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

/**
 * The history after an edit at `editedFrom`: every thinking block from there on is removed, because
 * its signature covers the prefix that just changed, and the API would answer 400 ("bound to a
 * different conversation"). Removing them all (not only the first) keeps no block "between others".
 * Messages before the edit are returned as they are (same objects), so their cache prefix holds.
 * An assistant message that held only thinking keeps its place with a short note (the API refuses
 * empty content, and positions in the history must not move under the compaction's indices).
 * Docs: https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks
 */
export function stripThinkingFrom(history: readonly MessageParam[], editedFrom: number): MessageParam[] {
  const kept = history.slice(0, Math.max(0, editedFrom));
  for (const message of history.slice(Math.max(0, editedFrom))) {
    if (message.role !== 'assistant' || typeof message.content === 'string') {
      kept.push(message);
      continue;
    }
    if (!message.content.some(isThinkingBlock)) {
      kept.push(message);
      continue;
    }
    const content = message.content.filter((block) => !isThinkingBlock(block));
    kept.push({
      ...message,
      content: content.length > 0 ? content : [{ type: 'text', text: THINKING_REMOVED }]
    });
  }
  return kept;
}

/** Thinking blocks in the history, for tests and the transcript's accounting. */
export function countThinkingBlocks(history: readonly MessageParam[]): number {
  return history.reduce(
    (sum, message) =>
      sum + (typeof message.content === 'string' ? 0 : message.content.filter(isThinkingBlock).length),
    0
  );
}
