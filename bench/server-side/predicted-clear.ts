import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelClient, ModelRequest } from '../../src/model/model-client.js';
import {
  countPromptTokens,
  MAX_CACHE_BREAKPOINTS,
  type ParsedRequest,
  type TokenCounter
} from '../../test-support/fake-anthropic/index.js';
import {
  clearableResults,
  planClear,
  type BlockPosition,
  type ClearToolUsesSettings
} from './clear-tool-uses.js';
import type { ServerTools } from './server-side.js';
import {
  blockBefore,
  countBreakpoints,
  hasMark,
  isMarked,
  markBlock,
  withoutMark
} from '../../src/compaction/server-clear-caching.js';

export { blockBefore };

/**
 * A client that predicts the API's tool-result clearing (clear-tool-uses.ts) and marks the prefix
 * before it, so that what precedes a server clear is read from the prompt cache, not written again.
 *
 * The clearing rule is deterministic and the client knows the settings it sent, so it can run the
 * server's rule (planClear) on each request, with its own record of what the server cleared so far.
 * The cache only reads an entry that an earlier request wrote at exactly that prefix (or within about
 * 20 blocks before a breakpoint), so one breakpoint on the clearing request is not enough: the entry
 * must already exist. After a clear, the server has cleared everything but the kept tool uses, so the
 * next clear will start at the oldest result it has not cleared (the oldest kept one, unless a
 * compaction drops it): that point is known from the clear on, and the prefix before it does not
 * change until then. Hence two marks:
 * - the write mark, on every request: the block before the oldest result not cleared yet. It is
 *   written on the clearing request (the read there stops before it) and on any request whose read
 *   stops before it (after a compaction of ours changed the history), so the entry exists when the
 *   next clear comes, if that comes within the cache's lifetime (5 minutes, refreshed only on reads);
 * - the read mark, on the request where the server will clear: the block before the first result it
 *   clears, which is the previous write mark, so the unchanged prefix is read there.
 * The product already sets 3 breakpoints (tools + system, the last message, the user message before
 * it) and a fourth after a compaction of its own; the API allows 4. On a clearing request the marks
 * in the cleared range (except the last message's) read nothing, since their prefix changed, so they
 * give way to ours; on other requests the write mark goes only where a slot is free.
 */

/** Where the next server clear starts on this request, or undefined when the server clears nothing. */
export function predictClearStart(
  request: ParsedRequest,
  settings: ClearToolUsesSettings,
  tools: Pick<ServerTools, 'count' | 'countText'>,
  cleared: ReadonlySet<string>
): BlockPosition | undefined {
  return planClear(request, settings, tools, cleared)?.from;
}

/**
 * Where the clear after the ones in `cleared` will start, whenever it comes: the oldest result not
 * cleared yet (kept ones included: they are cleared first once newer uses push them out).
 */
export function pendingClearStart(
  request: ParsedRequest,
  settings: ClearToolUsesSettings,
  cleared: ReadonlySet<string>
): BlockPosition | undefined {
  const oldest = clearableResults(request, settings, cleared, false)[0];
  return oldest && { message: oldest.message, block: oldest.block };
}

export interface PredictionStats {
  /** Requests on which the client predicted a server clear. */
  predictedClears: number;
  /** Read marks placed (on predicted clears) and write marks placed. */
  readMarks: number;
  writeMarks: number;
  /** Marks left out because the request had no free breakpoint. */
  skipped: number;
}

export function emptyPredictionStats(): PredictionStats {
  return { predictedClears: 0, readMarks: 0, writeMarks: 0, skipped: 0 };
}

/**
 * One request with the predicted marks. `cleared` is what the client believes the server cleared
 * before this request; it returns the request to send and the new belief (with this request's clear).
 */
export function withPredictedClearBreakpoints(
  request: ModelRequest,
  settings: ClearToolUsesSettings,
  tools: Pick<ServerTools, 'count' | 'countText'>,
  cleared: ReadonlySet<string>,
  stats: PredictionStats = emptyPredictionStats()
): { request: ModelRequest; cleared: ReadonlySet<string> } {
  const parsed = asParsedRequest(request);
  const plan = planClear(parsed, settings, tools, cleared);
  const after = plan ? new Set([...cleared, ...plan.ids]) : cleared;
  const messages = [...request.messages];
  let free = MAX_CACHE_BREAKPOINTS - countBreakpoints(request);
  const marks: Array<{ at: BlockPosition; kind: 'read' | 'write' }> = [];
  if (plan) {
    stats.predictedClears++;
    const read = blockBefore(messages, plan.from);
    if (read) marks.push({ at: read, kind: 'read' });
    // Marks past the clear point, but the last message's, read nothing now (their prefix changes):
    // they give way to ours when the request has no free slot.
    for (let index = plan.from.message; index < messages.length - 1 && free < 2; index++) {
      const blocks = [...blocksOf(messages[index]!)];
      let changed = false;
      blocks.forEach((block, blockIndex) => {
        if (free >= 2 || !hasMark(block)) return;
        if (index === plan.from.message && blockIndex < plan.from.block) return;
        blocks[blockIndex] = withoutMark(block);
        changed = true;
        free++;
      });
      if (changed) messages[index] = { ...messages[index]!, content: blocks } as MessageParam;
    }
  }
  const pending = pendingClearStart(withMessageList(parsed, messages), settings, after);
  const write = pending && blockBefore(messages, pending);
  if (write && !marks.some((mark) => same(mark.at, write))) marks.push({ at: write, kind: 'write' });
  for (const mark of marks) {
    if (isMarked(messages, mark.at)) continue;
    if (free <= 0) {
      stats.skipped++;
      continue;
    }
    messages[mark.at.message] = markBlock(messages[mark.at.message]!, mark.at.block);
    free--;
    if (mark.kind === 'read') stats.readMarks++;
    else stats.writeMarks++;
  }
  return { request: { ...request, messages }, cleared: after };
}

/**
 * The model client of a run with the API's clearing: every request gets the predicted marks, with
 * the client's own record of what the server cleared (every request the client sends passes the
 * server's edit, summaries of ours included, so every one is predicted). Counts tokens as the server
 * does: a real client would ask count_tokens or estimate, and a wrong guess only costs a cache miss.
 */
export function predictedClearCaching(
  model: ModelClient,
  settings: ClearToolUsesSettings,
  counter: TokenCounter,
  stats: PredictionStats = emptyPredictionStats()
): ModelClient {
  const tools = {
    count: (request: ParsedRequest) => countPromptTokens(request, counter),
    countText: (text: string) => counter.count(text)
  };
  let cleared: ReadonlySet<string> = new Set();
  return {
    complete: (request, hooks) => {
      const next = withPredictedClearBreakpoints(request, settings, tools, cleared, stats);
      cleared = next.cleared;
      return model.complete(next.request, hooks);
    }
  };
}

/** The fields of a request the fake's token count and the clearing rule read. */
export function asParsedRequest(request: ModelRequest): ParsedRequest {
  return {
    endpoint: '/v1/messages',
    model: request.model,
    max_tokens: request.maxTokens,
    stream: false,
    system: [...request.system],
    tools: [...request.tools],
    messages: [...request.messages],
    raw: {}
  } as unknown as ParsedRequest;
}

function withMessageList(request: ParsedRequest, messages: readonly MessageParam[]): ParsedRequest {
  return { ...request, messages: [...messages] } as unknown as ParsedRequest;
}

function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

function same(a: BlockPosition, b: BlockPosition): boolean {
  return a.message === b.message && a.block === b.block;
}
