import type { ContentBlockParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelReply } from '../model/model-client.js';
import { toolUseBlocks } from './tool-turn.js';

/**
 * What the loop does with a reply, for every documented stop reason
 * (https://platform.claude.com/docs/en/api/messages, `stop_reason`, read 2026-11-23):
 * - tool_use: run the calls and answer them;
 * - max_tokens: run the complete calls and answer the cut-off last one with an error (its input may
 *   be incomplete), or ask the model to go on when it was cut off in text;
 * - pause_turn: send the history back as it is, and the model resumes;
 * - model_context_window_exceeded: drop the partial reply, compact, and ask again;
 * - refusal: stop and say so;
 * - end_turn and stop_sequence: the run is done.
 */
export type ReplyOutcome =
  | {
      readonly kind: 'answer_tools';
      readonly calls: ToolUseBlockParam[];
      readonly truncated?: ToolUseBlockParam;
    }
  | { readonly kind: 'ask_to_continue' }
  | { readonly kind: 'resume' }
  | { readonly kind: 'compact_and_retry' }
  | { readonly kind: 'refused'; readonly text: string }
  | { readonly kind: 'empty_cut_off' }
  | { readonly kind: 'done'; readonly text: string };

export function outcomeOf(reply: ModelReply): ReplyOutcome {
  const calls = toolUseBlocks(reply.content);
  switch (reply.stopReason) {
    case 'tool_use':
      return { kind: 'answer_tools', calls };
    case 'max_tokens':
      if (calls.length > 0)
        return { kind: 'answer_tools', calls: calls.slice(0, -1), truncated: calls.at(-1)! };
      return reply.content.length > 0 ? { kind: 'ask_to_continue' } : { kind: 'empty_cut_off' };
    case 'pause_turn':
      return { kind: 'resume' };
    case 'model_context_window_exceeded':
      return { kind: 'compact_and_retry' };
    case 'refusal':
      return { kind: 'refused', text: finalText(reply.content) };
    default:
      return { kind: 'done', text: finalText(reply.content) };
  }
}

export function finalText(content: readonly ContentBlockParam[]): string {
  return content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
}
