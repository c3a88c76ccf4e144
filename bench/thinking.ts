import type { MessageParam } from '../test-support/fake-anthropic/index.js';
import type { PlannedCall } from './workload.js';

/**
 * The thinking the scripted model writes, and the figure that measures how much of it survives.
 *
 * Sonnet 5.5 thinks adaptively by default and keeps its earlier thinking in context (preserved
 * thinking: https://platform.claude.com/docs/en/build-with-claude/preserved-thinking, read
 * 2026-11-26). Every agent reply of the bench starts with one thinking block tagged with the agent
 * request it answered, so a later request shows which of them the model can still see.
 */

/** How many earlier turns of thinking the figure looks back over (the "previous 10 turns"). */
export const THINKING_WINDOW = 10;

const TAG = /^\[thinking T(\d+)\]/;

/** The thinking block's text for the reply to agent request `index` (0-based), about 60 tokens. */
export function thinkingText(index: number, calls: readonly PlannedCall[]): string {
  const plan = calls.length === 0 ? 'write the closing answer' : calls.map(describeCall).join(', then ');
  return [
    `[thinking T${index}]`,
    `What I have now is enough for the next step; the results above say what changed.`,
    `Plan: ${plan}.`,
    `Check the result against the task's constraints before moving on, and keep the scratch probes passing.`
  ].join(' ');
}

function describeCall(call: PlannedCall): string {
  const input = call.input as Record<string, unknown>;
  const target = [input.path, input.command, input.pattern].find((value) => typeof value === 'string');
  return typeof target === 'string' ? `${call.name} ${target.slice(0, 60)}` : call.name;
}

/** The tags (agent request indexes) of the thinking blocks a request carries. */
export function thinkingTagsIn(messages: readonly MessageParam[]): Set<number> {
  const tags = new Set<number>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'thinking') continue;
      const match = TAG.exec(block.thinking);
      if (match) tags.add(Number(match[1]));
    }
  }
  return tags;
}

/**
 * For agent request `index` (0-based): the share of the thinking blocks written in the previous
 * THINKING_WINDOW agent turns that the request still carries; undefined before the 11th request.
 */
export function thinkingKeptShare(index: number, carried: ReadonlySet<number>): number | undefined {
  if (index < THINKING_WINDOW) return undefined;
  let kept = 0;
  for (let previous = index - THINKING_WINDOW; previous < index; previous++)
    if (carried.has(previous)) kept++;
  return kept / THINKING_WINDOW;
}

/** The mean of the per-request shares; 1 when no request was old enough to count (nothing lost). */
export function meanShare(shares: readonly number[]): number {
  return shares.length === 0 ? 1 : shares.reduce((sum, value) => sum + value, 0) / shares.length;
}
