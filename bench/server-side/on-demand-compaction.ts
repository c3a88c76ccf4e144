import type { MessageParam as SdkMessageParam } from '@anthropic-ai/sdk/resources/messages';
import {
  blocksOf,
  type ContentBlockParam,
  type MessageParam,
  type ParsedRequest
} from '../../test-support/fake-anthropic/index.js';
import { taskOf } from '../../src/compaction/history.js';
import { emptyWorkLedger, recordWork, renderWorkLedger } from '../../src/compaction/work-ledger.js';
import { summaryMessage } from './threshold-compaction.js';
import { withMessages, type ServerEdit, type ServerTools, type ServerView } from './server-side.js';

/**
 * Ours with the API's on-demand engine (issue #25 part 3), simulated for the bench before the
 * product has it: when the context passes our threshold, the client asks the API for the summary
 * (https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand, read 2026-11-26: a
 * normal body plus `compaction: {type: "summarize"}`, answered with one `compaction` block), puts
 * the block first and keeps the latest turn unchanged after it, thinking included: its thinking stays
 * valid because the API wrote the summary (compaction-thinking-blocks). Our own parts stay around
 * the block: the task verbatim and the work ledger, appended after the kept turn's tool results so
 * that nothing is added between the summarized and the kept messages.
 *
 * The compaction request is billed as a request on the same prefix (read from the cache, the summary
 * as output): the docs give no usage fields or prices for it (protocols.md), so this is the bench's
 * assumption, kept here. The block's role and the exact cut are the product engine's; the bench keeps
 * the last assistant message and its results, as our summarizer keeps the unseen turn.
 */
export interface OnDemandSettings {
  readonly thresholdTokens: number;
  /**
   * Assistant turns kept unchanged after the block (default 1, the turn the model has not seen the
   * results of). More kept turns keep more of the model's recent thinking (compaction-keep-recent-turns).
   */
  readonly keepTurns?: number;
}

export class OnDemandCompaction implements ServerEdit {
  private block: { summary: string; from: number; partsAt: number; parts: string[] } | undefined;
  private readonly ledger = emptyWorkLedger();
  private requests = 0;
  compactions = 0;

  constructor(private readonly settings: OnDemandSettings) {}

  apply(request: ParsedRequest, tools: ServerTools, sent: ParsedRequest): ServerView {
    // The ledger reads each result as the client sent it, before any server-side clearing.
    recordWork(this.ledger, asSdkMessages(sent.messages), this.requests++);
    const view = this.render(request);
    const from = keptFrom(request.messages, this.settings.keepTurns ?? 1);
    if (tools.count(view) <= this.settings.thresholdTokens || from <= 0)
      return { request: view, iterations: [], events: [] };
    // The compaction request cannot carry context_management (compaction-on-demand): it reads the
    // history as the client holds it, results the server had cleared included. It stops before the
    // kept turns (they are not summarized), so it ends with the results the model last read: the
    // previous request's prefix, as our summarizer sends it (the unseen turn kept out).
    const prompt = withMessages(sent, this.render(sent).messages.slice(0, from - this.offset(sent)));
    const summary = tools.summarize(prompt);
    this.block = {
      summary,
      from,
      partsAt: request.messages.length - 1,
      parts: [taskOf(asSdkMessages(request.messages)), renderWorkLedger(this.ledger, undefined)]
    };
    this.compactions++;
    return {
      request: this.render(request),
      iterations: [{ prompt, summary }],
      events: ['server_compact']
    };
  }

  /** How many messages rendering removes from the front (the summarized ones, less the block's). */
  private offset(request: ParsedRequest): number {
    return request.messages.length - this.render(request).messages.length;
  }

  private render(request: ParsedRequest): ParsedRequest {
    const block = this.block;
    if (!block) return request;
    const kept = request.messages.slice(block.from).map((message, offset): MessageParam => {
      if (block.from + offset !== block.partsAt) return message;
      const extra = block.parts.map((text): ContentBlockParam => ({ type: 'text', text }));
      return { ...message, content: [...blocksOf(message), ...extra] };
    });
    return withMessages(request, [summaryMessage(block.summary), ...kept]);
  }
}

/** Where the kept turns start: the `turns`-th assistant message from the end (-1 when there are fewer). */
function keptFrom(messages: readonly MessageParam[], turns: number): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]!.role === 'assistant' && ++seen === turns) return index;
  }
  return -1;
}

/**
 * The fake parses the body into its own message types (validated where they enter); the product's
 * ledger reads the SDK's. They describe the same wire JSON; only the fake's `citations` is looser.
 */
function asSdkMessages(messages: readonly MessageParam[]): SdkMessageParam[] {
  return messages as unknown as SdkMessageParam[];
}
