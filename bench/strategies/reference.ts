import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import {
  compactionEvent,
  type CompactionContext,
  type CompactionEvent,
  type CompactionResult,
  type CompactionTrigger,
  type Compactor
} from '../../src/compaction/compactor.js';
import { blocksOf, toolResultText } from '../../src/compaction/history.js';
import type { CompactionStore } from '../../src/compaction/pipeline.js';
import type { ModelPrices } from '../../src/config/models.js';
import type { ModelClient, ModelRequest } from '../../src/model/model-client.js';
import { countThinkingBlocks, stripThinkingFrom } from '../../src/model/thinking.js';
import { costUsd, NO_USAGE, type TokenUsage } from '../../src/model/usage.js';

/** The seed design's numbers (../shared/seeds): keep 3 results, 50k threshold, chars/4, 80k-char summary input. */
export const REFERENCE = {
  keepRecent: 3,
  thresholdTokens: 50_000,
  charsPerToken: 4,
  minClearedChars: 100,
  summaryInputChars: 80_000,
  summaryMaxTokens: 2_000
} as const;

const SUMMARY_PROMPT =
  'Summarize this conversation for continuity. Include: 1) What was accomplished, 2) Current state, ' +
  '3) Key decisions made. Be concise but preserve critical details.\n\n';

/** The seed's estimate: len(str(messages)) // 4, without the system prompt or the tools. */
export function referenceEstimate(history: readonly MessageParam[]): number {
  return Math.floor(JSON.stringify(history).length / REFERENCE.charsPerToken);
}

/**
 * The seed's micro_compact, every turn: each tool result but the last 3, when longer than 100
 * characters, becomes "[Previous: used <tool>]". Returns a new history and how many it replaced.
 */
export function referenceMicroCompact(history: readonly MessageParam[]): {
  history: MessageParam[];
  cleared: string[];
  /** The first message it changed (undefined: none). */
  editedFrom: number | undefined;
} {
  const names = new Map<string, string>();
  const results: Array<{ message: number; block: number; result: ToolResultBlockParam }> = [];
  history.forEach((message, index) => {
    blocksOf(message).forEach((block, blockIndex) => {
      if (block.type === 'tool_use') names.set(block.id, block.name);
      if (block.type === 'tool_result' && message.role === 'user')
        results.push({ message: index, block: blockIndex, result: block });
    });
  });
  const next = [...history];
  const cleared: string[] = [];
  let editedFrom: number | undefined;
  for (const { message, block, result } of results.slice(0, -REFERENCE.keepRecent)) {
    const text = toolResultText(result);
    if (text.length <= REFERENCE.minClearedChars || text.startsWith('[Previous: used ')) continue;
    const content = [...blocksOf(next[message]!)];
    content[block] = { ...result, content: `[Previous: used ${names.get(result.tool_use_id) ?? 'unknown'}]` };
    next[message] = { ...next[message]!, content } as MessageParam;
    cleared.push(result.tool_use_id);
    editedFrom ??= message;
  }
  return { history: next, cleared, editedFrom };
}

export interface ReferenceDependencies {
  readonly model: ModelClient;
  readonly modelName: string;
  readonly prices: ModelPrices;
  readonly store: CompactionStore;
}

/**
 * The reference three-layer design as the seed writes it, behind our Compactor interface so it runs
 * in the same loop: micro_compact every turn, auto_compact past 50k estimated tokens, and the compact
 * tool, both with a fresh summary request (the history pasted as JSON, cut to 80,000 characters).
 * One change makes it valid on the wire: the compressed history ends with a user turn, because the
 * seed's [user, assistant] pair would make the next request an assistant prefill.
 */
export class ReferenceCompactor implements Compactor {
  private compactions = 0;

  constructor(private readonly deps: ReferenceDependencies) {}

  async compact(
    history: MessageParam[],
    trigger: CompactionTrigger,
    context: CompactionContext
  ): Promise<CompactionResult> {
    const events: CompactionEvent[] = [];
    let current = history;
    let estimate = referenceEstimate(current);
    let usage: TokenUsage = NO_USAGE;
    const summarize = async (layer: 'auto' | 'manual', reason: string) => {
      const compacted = await this.autoCompact(current, context);
      const before = estimate;
      usage = compacted.usage;
      current = compacted.history;
      estimate = referenceEstimate(current);
      events.push(
        compactionEvent(context.turn, {
          layer,
          reason,
          tokens_before: before,
          tokens_after: estimate,
          summary_tokens: compacted.usage.output,
          summary_cost_usd: costUsd(compacted.usage, this.deps.prices),
          segment_path: compacted.segment,
          summary: compacted.summary
        })
      );
    };

    let thinkingDropped = 0;
    if (trigger.kind === 'before_request') {
      const micro = referenceMicroCompact(current);
      if (micro.cleared.length > 0) {
        const before = estimate;
        // The seed predates preserved thinking; run on a model that binds it, the edit must drop
        // the thinking after it or every later request is refused (protocols.md, "Preserved thinking").
        current = stripThinkingFrom(micro.history, micro.editedFrom ?? 0);
        thinkingDropped += countThinkingBlocks(micro.history) - countThinkingBlocks(current);
        estimate = referenceEstimate(current);
        events.push(
          compactionEvent(context.turn, {
            layer: 'micro',
            reason: `cleared ${micro.cleared.length} results older than the last ${REFERENCE.keepRecent}`,
            tokens_before: before,
            tokens_after: estimate,
            results_cleared: micro.cleared.length,
            tool_use_ids: micro.cleared
          })
        );
      }
      if (estimate > REFERENCE.thresholdTokens)
        await summarize('auto', `estimate ${estimate} > ${REFERENCE.thresholdTokens}`);
    } else if (trigger.kind === 'manual') {
      await summarize('manual', 'the agent called compact');
    } else {
      await summarize('auto', 'the API answered prompt is too long');
    }
    return {
      history: current,
      events,
      usage,
      estimatedContextTokens: estimate,
      ...(thinkingDropped > 0 ? { thinkingBlocksDropped: thinkingDropped } : {})
    };
  }

  private async autoCompact(
    history: readonly MessageParam[],
    context: CompactionContext
  ): Promise<{ history: MessageParam[]; usage: TokenUsage; segment: string; summary: string }> {
    const segment = this.deps.store.saveSegment(++this.compactions, history);
    const conversation = JSON.stringify(history).slice(0, REFERENCE.summaryInputChars);
    const reply = await this.deps.model.complete(
      {
        model: this.deps.modelName,
        maxTokens: REFERENCE.summaryMaxTokens,
        system: [],
        tools: [],
        messages: [{ role: 'user', content: SUMMARY_PROMPT + conversation }]
      },
      context.signal ? { signal: context.signal } : {}
    );
    const first = reply.content[0];
    const summary = first?.type === 'text' ? first.text : '';
    return {
      history: [
        { role: 'user', content: `[Conversation compressed. Transcript: ${segment}]\n\n${summary}` },
        { role: 'assistant', content: 'Understood. I have the context from the summary. Continuing.' },
        { role: 'user', content: 'Continue.' }
      ],
      usage: reply.usage,
      segment,
      summary
    };
  }
}

/**
 * The seed has no prompt caching at all. Run in our loop, it gets our breakpoints (the last message and
 * the user message before it), and those sit exactly where its micro_compact rewrites next turn, so
 * it would read nothing from the cache but the tools and system prompt. A cache-aware implementation
 * of the seed marks the prefix its micro layer leaves alone: the last user message before the oldest
 * of the 3 kept results. This adds that breakpoint (the fourth the API allows), so the reference is
 * measured at its best, as the cost model assumes (it rewrites about K·s per turn).
 */
export function withStableBreakpoint(request: ModelRequest): ModelRequest {
  const messages = [...request.messages];
  const resultMessages = messages.flatMap((message, index) =>
    message.role === 'user' && blocksOf(message).some((block) => block.type === 'tool_result') ? [index] : []
  );
  const oldestKept = resultMessages.at(-REFERENCE.keepRecent);
  if (oldestKept === undefined || resultMessages.length <= REFERENCE.keepRecent) return request;
  for (let index = oldestKept - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const blocks = [...blocksOf(message)];
    const last = blocks.at(-1);
    if (!last || 'cache_control' in last) return request; // already a breakpoint
    blocks[blocks.length - 1] = { ...last, cache_control: { type: 'ephemeral' } } as typeof last;
    messages[index] = { ...message, content: blocks } as MessageParam;
    return { ...request, messages };
  }
  return request;
}

/** The model client of the reference runs: every agent request gets the stable breakpoint. */
export function referenceCaching(model: ModelClient): ModelClient {
  return {
    complete: (request, hooks) =>
      model.complete(request.tools.length > 0 ? withStableBreakpoint(request) : request, hooks)
  };
}
